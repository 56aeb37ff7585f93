/* nearest.h: each point's nearest site, in float32, reproducibly. */
#ifndef PK_NEAREST_H
#define PK_NEAREST_H

#include <stddef.h>
#include <stdint.h>

/*
 * For each of the n points (x, y pairs in pts[0 .. 2n)), the index of the
 * nearest of the m sites (x, y pairs in sites[0 .. 2m)) into out[0 .. n).
 *
 * The contract a GPU version must keep to give the very same answers:
 * every squared distance is computed in float32 as
 *     dx = px - sx;  dy = py - sy;  d = dx * dx + dy * dy;
 * each operation rounded on its own (no fused multiply-add: the engine is
 * built with -ffp-contract=off; CUDA code uses __fsub_rn, __fmul_rn and
 * __fadd_rn), and sites are compared in increasing index with a strict
 * "less than", so a tie goes to the lowest index. A point whose every
 * distance is NaN or infinite gets -1, as does every point when m is 0.
 */
void pk_nearest_site(const float *pts, size_t n, const float *sites,
		     size_t m, int32_t *out);

#endif /* PK_NEAREST_H */
