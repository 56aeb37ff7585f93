/* lib-grow.c: the growth helper (grow.h): room doubled from
 * PROF_GROW_FIRST or grown to what is needed, nothing moved within the
 * room, sizes no array can hold refused with the array as it was. */
#include <stdint.h>
#include <stdlib.h>

#include "base/grow.h"
#include "tap.h"

struct pair {
	long a, b;
};

int
main(void)
{
	struct pair *v = NULL, *p;
	size_t cap = 0, n;
	char *s = NULL;

	plan(10);
	ok(PROF_GROW(v, 0, cap) == 0 && !v && cap == 0,
	   "no room needed: nothing allocated");
	ok(PROF_GROW(v, 1, cap) == 0 && v && cap == PROF_GROW_FIRST,
	   "the first room is PROF_GROW_FIRST elements");
	for (n = 0; n < 40; n++) {
		if (PROF_GROW(v, n + 1, cap) < 0)
			break;
		v[n].a = (long)n;
		v[n].b = -(long)n;
	}
	ok(n == 40 && cap == 4 * PROF_GROW_FIRST, "the room doubles");
	ok(v[0].a == 0 && v[39].a == 39 && v[39].b == -39,
	   "growing keeps what the array held");
	p = v;
	ok(PROF_GROW(v, cap, cap) == 0 && v == p, "within the room nothing moves");
	ok(PROF_GROW(v, 1000, cap) == 0 && cap == 1000,
	   "a need past twice the room is met exactly");
	p = v;
	n = cap;
	ok(PROF_GROW(v, SIZE_MAX / sizeof(*v) + 1, cap) == -1 && v == p &&
		   cap == n,
	   "a room whose bytes overflow size_t is refused, the array as it was");
	ok(PROF_RESIZE(v, 3) == 0 && v[2].a == 2, "resize shrinks, keeping the rest");
	ok(PROF_RESIZE(v, 0) == -1 && PROF_RESIZE(v, SIZE_MAX / 2) == -1 &&
		   v[1].b == -1,
	   "resize to nothing or past size_t is refused, the array as it was");
	n = 0;
	ok(PROF_GROW(s, 5, n) == 0 && n == PROF_GROW_FIRST,
	   "bytes grow too");
	free(v);
	free(s);
	return done();
}
