/* steps.h: change points of a series by a penalized L1 step fit. */
#ifndef PROF_STEPS_H
#define PROF_STEPS_H

#include <stddef.h>

/*
 * The series x[0..n) (run medians in run order) is fitted with a step
 * function: pieces of constant level, each level the median of its piece.
 * The fit minimizes
 *
 *     sum over pieces of sum |x_i - median(piece)|  +  beta * pieces
 *
 * exactly (optimal partitioning by dynamic programming, O(n^2 log n)),
 * where beta = PROF_STEPS_K * sigma * ln(n) and sigma is the noise of the
 * series, estimated robustly from successive differences (1.4826 times
 * their median, over sqrt 2) and never taken below PROF_STEPS_FLOOR of the
 * series' median level. A piece has at least PROF_STEPS_MIN runs, so one
 * slow run on its own is never a change. This is the idea of asv's
 * step detection (an L1 step fit with a penalty per step); the constants
 * were chosen by simulating flat and stepped noisy series.
 *
 * The cut positions (index of the first run of each new piece) are written
 * to cuts (room for n / PROF_STEPS_MIN entries). Returns their number, or
 * -1 when out of memory. Series shorter than 2 * PROF_STEPS_MIN have none.
 */
#define PROF_STEPS_K 3.0
#define PROF_STEPS_FLOOR 0.005
#define PROF_STEPS_MIN 2
/* Only the last this many runs of a series are fitted. */
#define PROF_STEPS_MAX_RUNS 4000

long prof_steps_fit(const double *x, size_t n, size_t *cuts);

/* The median of x[0..n) (n > 0); x is not changed. NAN when out of memory. */
double prof_steps_median(const double *x, size_t n);

#endif /* PROF_STEPS_H */
