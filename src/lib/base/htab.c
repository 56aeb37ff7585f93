/* htab.c: open addressing with linear probing, FNV-1a hashes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/htab.h"

struct prof_htab_slot {
	char *key;		/* NULL: empty */
	size_t len;
	uint64_t hash;
	long index;
};

static uint64_t
fnv1a(const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t h = 14695981039346656037ULL;

	while (n--) {
		h ^= *c++;
		h *= 1099511628211ULL;
	}
	return h;
}

static struct prof_htab_slot *
find(const struct prof_htab *h, const void *key, size_t len, uint64_t hash)
{
	size_t i = (size_t)hash & (h->cap - 1);

	for (;; i = (i + 1) & (h->cap - 1)) {
		struct prof_htab_slot *s = &h->slots[i];

		if (!s->key)
			return s;
		if (s->hash == hash && s->len == len &&
		    !memcmp(s->key, key, len))
			return s;
	}
}

long
prof_htab_get(const struct prof_htab *h, const void *key, size_t len)
{
	struct prof_htab_slot *s;

	if (!h->cap)
		return -1;
	s = find(h, key, len, fnv1a(key, len));
	return s->key ? s->index : -1;
}

static int
grow(struct prof_htab *h)
{
	size_t ncap = h->cap ? h->cap * 2 : 64, i;
	struct prof_htab_slot *old = h->slots, *ns;
	struct prof_htab nh;

	ns = calloc(ncap, sizeof(*ns));
	if (!ns)
		return -1;
	nh.slots = ns;
	nh.cap = ncap;
	nh.n = h->n;
	for (i = 0; i < h->cap; i++)
		if (old[i].key)
			*find(&nh, old[i].key, old[i].len, old[i].hash) =
				old[i];
	free(old);
	*h = nh;
	return 0;
}

int
prof_htab_put(struct prof_htab *h, const void *key, size_t len, long index)
{
	struct prof_htab_slot *s;
	uint64_t hash = fnv1a(key, len);

	if ((h->n + 1) * 2 > h->cap && grow(h) < 0)
		return -1;
	s = find(h, key, len, hash);
	if (!s->key) {
		s->key = malloc(len ? len : 1);
		if (!s->key)
			return -1;
		memcpy(s->key, key, len);
		s->len = len;
		s->hash = hash;
		h->n++;
	}
	s->index = index;
	return 0;
}

void
prof_htab_free(struct prof_htab *h)
{
	size_t i;

	for (i = 0; i < h->cap; i++)
		free(h->slots[i].key);
	free(h->slots);
	memset(h, 0, sizeof(*h));
}

/* A slot of prof_htab64: key + 1, so that 0 is an empty slot. */
struct prof_htab64_slot {
	uint64_t key1;
	int64_t value;
};

/* splitmix64's finalizer: every bit of the key moves the slot. */
static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static struct prof_htab64_slot *
find64(const struct prof_htab64 *h, uint64_t key1)
{
	size_t i = (size_t)mix64(key1) & (h->cap - 1);

	for (;; i = (i + 1) & (h->cap - 1))
		if (!h->slots[i].key1 || h->slots[i].key1 == key1)
			return &h->slots[i];
}

int
prof_htab64_get(const struct prof_htab64 *h, uint64_t key, int64_t *value)
{
	struct prof_htab64_slot *s;

	if (!h->cap || key == UINT64_MAX)
		return 0;
	s = find64(h, key + 1);
	if (!s->key1)
		return 0;
	*value = s->value;
	return 1;
}

int
prof_htab64_put(struct prof_htab64 *h, uint64_t key, int64_t value)
{
	struct prof_htab64_slot *s;

	if (key == UINT64_MAX)
		return -1;
	/* Up to three quarters full: 16 bytes a slot keep it small. */
	if ((h->n + 1) * 4 > h->cap * 3) {
		size_t ncap = h->cap ? h->cap * 2 : 64, i;
		struct prof_htab64 nh = {calloc(ncap, sizeof(*nh.slots)), ncap,
					 h->n};

		if (!nh.slots)
			return -1;
		for (i = 0; i < h->cap; i++)
			if (h->slots[i].key1)
				*find64(&nh, h->slots[i].key1) = h->slots[i];
		free(h->slots);
		*h = nh;
	}
	s = find64(h, key + 1);
	if (!s->key1) {
		s->key1 = key + 1;
		h->n++;
	}
	s->value = value;
	return 0;
}

void
prof_htab64_free(struct prof_htab64 *h)
{
	free(h->slots);
	memset(h, 0, sizeof(*h));
}
