/* flow.h: evenly spaced streamlines of a seeded flow field. */
#ifndef PK_FLOW_H
#define PK_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "drawing.h"

/*
 * The field: seeded random vectors on a lattice of pitch `scale` mm,
 * blended with smoothstep weights, plus a steady drift to the right, and
 * normalised. Streamlines (after Jobard and Lefer) start from the points
 * of a jittered grid of pitch dsep, in seeded order, skipping starts
 * closer than dsep to a line already drawn; each is traced both ways in
 * midpoint (RK2) steps of `step` mm until it leaves the page margin, comes
 * within dtest of another line, stalls, or has max_points points. Lines of
 * fewer than min_points points are dropped. Arithmetic and sqrt only: a
 * seed gives the same lines on every machine.
 */
struct pk_flow {
	double width, height, margin;	/* mm */
	double scale;			/* lattice pitch of the field, mm */
	double dsep, dtest, step;	/* mm; dtest <= dsep */
	size_t max_points, min_points;
	uint64_t seed;
};

/*
 * Append the streamlines to d (not cleared) as open paths with style st.
 * Returns the number of lines, or -1 when out of memory or the parameters
 * make no sense.
 */
long pk_flow_field(const struct pk_flow *p, const struct pk_style *st,
		   struct pk_drawing *d);

#endif /* PK_FLOW_H */
