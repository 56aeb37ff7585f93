/* order.h: greedy nearest-neighbour path order, to save pen-up travel. */
#ifndef PK_ORDER_H
#define PK_ORDER_H

#include <stddef.h>
#include <stdint.h>

/*
 * The paths are given by their end points only, 4 doubles each in one flat
 * array: ends[4 i .. 4 i + 3] = x0, y0, x1, y1 of path i (a later CUDA
 * version reads the same array).
 *
 * Starting with the pen at (x, y), repeatedly draw the undrawn path whose
 * start (or, when reverse is set, either end) is nearest the pen, and
 * move the pen to its other end. Ties go to the lowest path index, then
 * to its start. On return order[k] is the k-th path drawn and rev[k]
 * (when rev is not NULL) whether it is drawn end to start.
 *
 * Candidates live in a uniform grid searched ring by ring, rebuilt
 * smaller as paths are used up, so n paths cost about n log n, not n^2.
 * The result is exactly that of the O(n^2) scan (the tests compare them).
 * Returns 0, or -1 when out of memory, when a coordinate is not finite or
 * when n > INT32_MAX / 2.
 */
int pk_order_greedy(const double *ends, size_t n, double x, double y,
		    int reverse, int32_t *order, unsigned char *rev);

/*
 * The pen-up travel of drawing the paths in order (NULL: 0, 1, 2, ...)
 * with rev (NULL: none reversed), from the pen at (x, y).
 */
double pk_order_travel(const double *ends, size_t n, double x, double y,
		       const int32_t *order, const unsigned char *rev);

#endif /* PK_ORDER_H */
