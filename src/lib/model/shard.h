/* shard.h: the deterministic split of a run into shards. */
#ifndef PROF_SHARD_H
#define PROF_SHARD_H

/*
 * The shard (1 to n) of the workload id: FNV-1a of the id, modulo n, plus
 * one. It depends on the id alone, so adding a workload moves no other
 * one, and all of a workload's groups (each backend, its cold sample) stay
 * together. prof-time --shard keeps the groups of its shard by it, and
 * prof-merge --shards checks by it that each shard holds its own. The
 * browser stories are played in shard 1 (PROF_SHARD_BROWSER).
 */
int prof_shard_of(const char *id, int n);

#define PROF_SHARD_BROWSER 1

#endif /* PROF_SHARD_H */
