/* fixture.h: the workloads' SVG fixtures, generated from a fixed seed. */
#ifndef PK_FIXTURE_H
#define PK_FIXTURE_H

#include <stddef.h>

#include "buf.h"

/* The seed of every fixture and generator run of the suite. */
#define PK_FIXTURE_SEED 20260710u

/*
 * The dense-circles fixture: exactly PK_DENSE_CIRCLES circles in one <g>
 * on a 420 x 297 mm page (viewBox in mm). Circle i sits in column i mod
 * 100 (4 mm apart) and row i / 100 (3.5 mm apart) from (10, 10), moved by
 * up to 0.2 mm each way by the seeded PRNG, with r = 1.0 + (i mod 7) x
 * 0.25 mm; every number has six decimals. More than 400,000 bytes.
 */
#define PK_DENSE_CIRCLES 8000
#define PK_DENSE_COLUMNS 100

/* Write the dense fixture into out (reset first). Returns 0 or -1 (OOM). */
int pk_fixture_dense_circles(struct pk_buf *out);

/*
 * The layered fixture, for compose and split: on the same page, four
 * Inkscape layers (top-level groups with inkscape:label):
 *   "circles"  #000000  PK_LAYERS_CIRCLES circles of the dense pattern
 *   "walks"    #1f77b4  PK_LAYERS_WALKS polylines of 40 points
 *   "hidden"   #d62728  display:none, PK_LAYERS_HIDDEN circles
 *   "frames"   #2ca02c  PK_LAYERS_FRAMES rounded rects, and as many paths
 *                       of lines, cubics and arcs, closed
 * so the visible shapes number CIRCLES + WALKS + 2 FRAMES on three pens.
 */
#define PK_LAYERS_CIRCLES 3000
#define PK_LAYERS_WALKS 600
#define PK_LAYERS_HIDDEN 1000
#define PK_LAYERS_FRAMES 200

int pk_fixture_layers(struct pk_buf *out);

#endif /* PK_FIXTURE_H */
