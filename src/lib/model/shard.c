/* shard.c: the deterministic split of a run into shards. */
#include <stdint.h>

#include "model/shard.h"

int
prof_shard_of(const char *id, int n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 0x100000001b3ULL;
	return (int)(h % (uint64_t)n) + 1;
}
