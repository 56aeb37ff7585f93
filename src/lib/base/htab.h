/* htab.h: a hash table from byte-string keys to indexes, for finding rows
 * in constant time. */
#ifndef PROF_HTAB_H
#define PROF_HTAB_H

#include <stddef.h>
#include <stdint.h>

/*
 * Keys are copied in; values are indexes into the caller's array. A key is
 * usually several strings joined with NUL bytes (workload, backend,
 * segment id), so its length is given.
 */
struct prof_htab {
	struct prof_htab_slot *slots;
	size_t cap, n;		/* cap is a power of two or 0 */
};

/* The index stored for key, or -1 when there is none. */
long prof_htab_get(const struct prof_htab *h, const void *key, size_t len);

/* Store key -> index (replacing). Returns 0, or -1 when out of memory. */
int prof_htab_put(struct prof_htab *h, const void *key, size_t len,
		  long index);

void prof_htab_free(struct prof_htab *h);

/*
 * The same from 64-bit keys (any but UINT64_MAX) to 64-bit values, 16
 * bytes a slot and no allocation a key: for a table of an entry a sample
 * (prof-merge's samples seen), where a copied key would double the cost.
 */
struct prof_htab64 {
	struct prof_htab64_slot *slots;
	size_t cap, n;		/* cap is a power of two or 0 */
};

/* Whether key is there; its value into *value when it is. */
int prof_htab64_get(const struct prof_htab64 *h, uint64_t key,
		    int64_t *value);

/* Store key -> value (replacing). Returns 0, or -1 when out of memory. */
int prof_htab64_put(struct prof_htab64 *h, uint64_t key, int64_t value);

void prof_htab64_free(struct prof_htab64 *h);

#endif /* PROF_HTAB_H */
