/* lib-shard.c: the deterministic split of a run into shards (shard.h):
 * FNV-1a of the workload id alone, so that a workload keeps its shard
 * whatever else the run holds. */
#include <stdio.h>

#include "model/shard.h"
#include "tap.h"

int
main(void)
{
	static const char *ids[] = {"pipeline.parse",
				    "pipeline.render",
				    "engine.flatten",
				    "server.http",
				    "a",
				    ""};
	int i, n, in_range = 1, spread[4] = {0};
	char id[32];

	plan(6);
	/* FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c; of "" the offset basis. */
	is_int(prof_shard_of("a", 1000),
	       (int)(0xaf63dc4c8601ec8cULL % 1000) + 1,
	       "FNV-1a of the id, modulo n, plus one");
	is_int(prof_shard_of("", 7), (int)(0xcbf29ce484222325ULL % 7) + 1,
	       "the empty id is the offset basis's shard");
	for (i = 0; i < 6; i++)
		in_range &= prof_shard_of(ids[i], 1) == 1;
	ok(in_range, "with one shard, every workload is in shard 1");
	for (n = 2; n <= 9; n++)
		for (i = 0; i < 6; i++) {
			int s = prof_shard_of(ids[i], n);

			in_range &=
			    s >= 1 && s <= n && s == prof_shard_of(ids[i], n);
		}
	ok(in_range, "a shard is from 1 to n, the same on every call");
	for (i = 0; i < 400; i++) {
		snprintf(id, sizeof(id), "suite.w%d", i);
		spread[prof_shard_of(id, 4) - 1]++;
	}
	ok(spread[0] > 50 && spread[1] > 50 && spread[2] > 50 && spread[3] > 50,
	   "400 ids fall in each of 4 shards (each more than 50)");
	ok(PROF_SHARD_BROWSER == 1, "the browser stories play in shard 1");
	return done();
}
