/* nearest.c: brute-force nearest site in float32, four points at a time. */
#include <float.h>
#include <math.h>

#include "nearest.h"

#if FLT_EVAL_METHOD != 0
#error "float arithmetic must be done in float (FLT_EVAL_METHOD 0)"
#endif

/*
 * Four points share each load of a site; each point's distances are still
 * computed, and compared, exactly as the contract says.
 */
void
pk_nearest_site(const float *pts, size_t n, const float *sites, size_t m,
		int32_t *out)
{
	size_t i = 0, j;

	for (; i + 4 <= n; i += 4) {
		float px0 = pts[2 * i], py0 = pts[2 * i + 1];
		float px1 = pts[2 * i + 2], py1 = pts[2 * i + 3];
		float px2 = pts[2 * i + 4], py2 = pts[2 * i + 5];
		float px3 = pts[2 * i + 6], py3 = pts[2 * i + 7];
		float b0 = INFINITY, b1 = INFINITY, b2 = INFINITY,
		      b3 = INFINITY;
		int32_t i0 = -1, i1 = -1, i2 = -1, i3 = -1;

		for (j = 0; j < m; j++) {
			float sx = sites[2 * j], sy = sites[2 * j + 1];
			float dx0 = px0 - sx, dy0 = py0 - sy;
			float dx1 = px1 - sx, dy1 = py1 - sy;
			float dx2 = px2 - sx, dy2 = py2 - sy;
			float dx3 = px3 - sx, dy3 = py3 - sy;
			float d0 = dx0 * dx0 + dy0 * dy0;
			float d1 = dx1 * dx1 + dy1 * dy1;
			float d2 = dx2 * dx2 + dy2 * dy2;
			float d3 = dx3 * dx3 + dy3 * dy3;

			if (d0 < b0) {
				b0 = d0;
				i0 = (int32_t)j;
			}
			if (d1 < b1) {
				b1 = d1;
				i1 = (int32_t)j;
			}
			if (d2 < b2) {
				b2 = d2;
				i2 = (int32_t)j;
			}
			if (d3 < b3) {
				b3 = d3;
				i3 = (int32_t)j;
			}
		}
		out[i] = i0;
		out[i + 1] = i1;
		out[i + 2] = i2;
		out[i + 3] = i3;
	}
	for (; i < n; i++) {
		float px = pts[2 * i], py = pts[2 * i + 1], best = INFINITY;
		int32_t bi = -1;

		for (j = 0; j < m; j++) {
			float dx = px - sites[2 * j],
			      dy = py - sites[2 * j + 1];
			float d = dx * dx + dy * dy;

			if (d < best) {
				best = d;
				bi = (int32_t)j;
			}
		}
		out[i] = bi;
	}
}
