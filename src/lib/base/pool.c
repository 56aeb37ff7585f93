/* pool.c: strings kept once each (pool.h). */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/pool.h"

#define CHUNK 65536

uint64_t
prof_pool_hash(const void *p, size_t n, uint64_t h)
{
	const unsigned char *c = p;

	while (n--) {
		h ^= *c++;
		h *= 1099511628211ULL;
	}
	return h == UINT64_MAX ? 0 : h;
}

uint64_t
prof_pool_next(uint64_t key)
{
	return key + 1 == UINT64_MAX ? 0 : key + 1;
}

/* The index slot's key of s, and s's index in strs[] (-1: none). */
static long
lookup(const struct prof_pool *p, const char *s, uint64_t *key)
{
	uint64_t h = prof_pool_hash(s, strlen(s) + 1, PROF_POOL_FNV);
	int64_t k;

	while (prof_htab64_get(&p->h, h, &k)) {
		if (!strcmp(p->strs[k], s))
			break;
		h = prof_pool_next(h);
	}
	*key = h;
	return prof_htab64_get(&p->h, h, &k) ? (long)k : -1;
}

const char *
prof_pool_find(const struct prof_pool *p, const char *s)
{
	uint64_t h;
	long k = s ? lookup(p, s, &h) : -1;

	return k < 0 ? NULL : p->strs[k];
}

const char *
prof_pool_str(struct prof_pool *p, const char *s)
{
	size_t len = strlen(s) + 1;
	uint64_t h;
	long k = lookup(p, s, &h);
	char *copy;

	if (k >= 0)
		return p->strs[k];
	if (PROF_GROW(p->strs, p->n + 1, p->cap) < 0 ||
	    PROF_GROW(p->chunks, p->n_chunks + 1, p->cap_chunks) < 0)
		return NULL;
	if (len > CHUNK / 4) {
		copy = malloc(len);
		if (!copy)
			return NULL;
		p->chunks[p->n_chunks++] = copy;
	} else {
		if (!p->cur || p->used + len > CHUNK) {
			p->cur = malloc(CHUNK);
			if (!p->cur)
				return NULL;
			p->chunks[p->n_chunks++] = p->cur;
			p->used = 0;
		}
		copy = p->cur + p->used;
		p->used += len;
	}
	memcpy(copy, s, len);
	if (prof_htab64_put(&p->h, h, (int64_t)p->n) < 0)
		return NULL;
	p->strs[p->n++] = copy;
	return copy;
}

void
prof_pool_seal(struct prof_pool *p)
{
	prof_htab64_free(&p->h);
	free(p->strs);
	p->strs = NULL;
	p->n = p->cap = 0;
}

void
prof_pool_free(struct prof_pool *p)
{
	prof_strv_free(p->chunks, p->n_chunks);
	free(p->strs);
	prof_htab64_free(&p->h);
	memset(p, 0, sizeof(*p));
}
