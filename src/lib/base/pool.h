/* pool.h: strings kept once each, at addresses that never move, so that
 * a table of many rows names a string by its address. */
#ifndef PROF_POOL_H
#define PROF_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "base/htab.h"

/*
 * A pool owns its strings, in chunks of 64 kB (a long one in an
 * allocation of its own); two equal strings are one address. Memory: the
 * bytes, and 8 bytes a string and a slot of prof_htab64 for the index.
 * A zeroed pool is empty.
 */
struct prof_pool {
	char **chunks;			/* every allocation, to free */
	size_t n_chunks, cap_chunks;
	char *cur;			/* the chunk strings go to */
	size_t used;			/* its bytes used */
	const char **strs;		/* each string once */
	size_t n, cap;
	struct prof_htab64 h;		/* hash of a string -> strs[] */
};

/* The pooled copy of s, made when it is the first; NULL when out of
 * memory. */
const char *prof_pool_str(struct prof_pool *p, const char *s);

/* The pooled copy of s, or NULL when the pool has none. */
const char *prof_pool_find(const struct prof_pool *p, const char *s);

/* Drop the index: the strings stay (prof_pool_str() and _find() may not
 * be called again). */
void prof_pool_seal(struct prof_pool *p);

void prof_pool_free(struct prof_pool *p);

/* FNV-1a of n bytes, from h (PROF_POOL_FNV to start), as a key of a
 * prof_htab64 (never UINT64_MAX); prof_pool_next() the key to try when
 * the slot holds another. */
#define PROF_POOL_FNV 14695981039346656037ULL
uint64_t prof_pool_hash(const void *p, size_t n, uint64_t h);
uint64_t prof_pool_next(uint64_t key);

#endif /* PROF_POOL_H */
