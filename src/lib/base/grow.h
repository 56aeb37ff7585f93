/* grow.h: room in a growing array, one helper for every array that grows
 * (git's ALLOC_GROW). */
#ifndef PROF_GROW_H
#define PROF_GROW_H

#include <stddef.h>

/* The room an array gets the first time it grows. */
#define PROF_GROW_FIRST 16

/*
 * Room for need elements of size bytes in the array whose pointer is at
 * pp (a T **), of *cap elements: when need is more than *cap the array
 * is reallocated to twice *cap (PROF_GROW_FIRST at first), or to need
 * where that is more, and *cap says so. Returns 0, or -1 when out of
 * memory or when the room in bytes does not fit a size_t; *pp and *cap
 * are then as they were (the caller frees the array as before).
 */
int prof_grow(void *pp, size_t *cap, size_t need, size_t size);

/*
 * The array whose pointer is at pp resized to exactly n elements of size
 * bytes (realloc, with n x size checked for overflow; OpenBSD's
 * reallocarray). n 0 is refused. Returns 0, or -1 with *pp as it was.
 */
int prof_resize(void *pp, size_t n, size_t size);

/* An array of n strings freed: each of them, then the array (NULL: none). */
void prof_strv_free(char **v, size_t n);

/* Room for need elements in the array p of cap (both lvalues). */
#define PROF_GROW(p, need, cap) \
	prof_grow(&(p), &(cap), (need), sizeof(*(p)))
/* The array p made n elements long. */
#define PROF_RESIZE(p, n) prof_resize(&(p), (n), sizeof(*(p)))

#endif /* PROF_GROW_H */
