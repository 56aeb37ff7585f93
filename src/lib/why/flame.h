/* flame.h: a differential flame graph of two callgrind profiles, as one
 * inline SVG element. */
#ifndef PROF_FLAME_H
#define PROF_FLAME_H

#include "base/buf.h"
#include "base/err.h"
#include "model/callgrind.h"

struct prof_flame_opts {
	const char *id;		/* prefixes the SVG's ids: unique in a page */
	const char *title;	/* what it shows, for its label */
	const char *unit;	/* "instructions" (NULL) or "samples" */
};

/*
 * Append to out one <svg> element: the call tree of after (each function's
 * inclusive cost split over its callers as the call graph says; a call
 * back into a function already on the stack stays with its caller), root
 * at the bottom, each frame as wide as its cost after, and coloured by the
 * change of its own (self) cost against the same stack in before: red
 * more, blue less, a warm grey unchanged, a hatched red frame a function
 * that before did not have. Functions that vanished are named under the
 * graph. Every frame has a <title> with its numbers (the hover text).
 * Frames narrower than a pixel in 1000 are left out.
 *
 * It needs no script and no style sheet: colours and fonts are
 * presentation attributes, which a Content-Security-Policy without
 * 'unsafe-inline' allows; the width is the container's and the text
 * scales with it, on a screen and on paper. Each frame is a <g> of class
 * "frame more", "frame less", "frame same" or "frame new", so that a test
 * can count them. Returns 0, or -1 with err (out of memory).
 */
int prof_flame_svg(const struct prof_callgrind_profile *before,
		   const struct prof_callgrind_profile *after,
		   const struct prof_flame_opts *o, struct prof_buf *out,
		   struct prof_err *err);

#endif /* PROF_FLAME_H */
