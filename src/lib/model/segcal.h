/* segcal.h: a fleet baseline's calibration, one per segment. */
#ifndef PROF_SEGCAL_H
#define PROF_SEGCAL_H

#include "base/err.h"

struct json_object;

/*
 * A baseline that prof-baseline --add made from the runs of several
 * machines keeps each run's calibration under the segments that run
 * brought (calib.h has the calibration's shape):
 *   "segment_calibrations": {"<segment_id>": {calibration} or null, ...}
 * so that a machine's next run is judged against its own machine's
 * kernel, never against the machine added last.
 */

/*
 * Check a results document's "segment_calibrations" (absent or null is
 * fine): an object of calibrations or nulls. Errors name the path
 * (".segment_calibrations.ab12.median_ms: expected a number"). Returns 0
 * or -1.
 */
int prof_segcal_check(struct json_object *results, struct prof_err *err);

/*
 * The baseline as the drift guard (prof_calib_drift()) is to see it: when
 * it has segment_calibrations, a new object with the same members whose
 * "calibration" is the one of the first segment of the run (in
 * run_segments, id -> segment key) that the baseline has too
 * (base_segments), or null when none is; otherwise a new reference to
 * baseline. NULL only when baseline is NULL or out of memory.
 */
struct json_object *prof_segcal_reference(struct json_object *baseline,
					  struct json_object *base_segments,
					  struct json_object *run_segments);

#endif /* PROF_SEGCAL_H */
