/* prof.h: what every part of prof shares: exit codes and schema constants. */
#ifndef PROF_H
#define PROF_H

/*
 * Exit codes are the seed's contract: correctness, never speed.
 * A run that only emits performance warnings exits PROF_EXIT_OK.
 */
enum prof_exit {
	PROF_EXIT_OK = 0,	/* clean */
	PROF_EXIT_ERRORED = 1,	/* a sample errored, or a judgement failed */
	PROF_EXIT_FAILURE = 2,	/* bad arguments, bad input, infrastructure */
};

#define PROF_SCHEMA "prof.results"
/* Tools write schema 2 (environments and segment keys stored once per
 * file); every reader reads schema 1 too, forever. A sample object in
 * memory (prof_sample_new(), the worker's lines) is schema-1 shaped. */
#define PROF_SCHEMA_VERSION 2
#define PROF_SCHEMA_V1 1
#define PROF_VERSION "1.0.0"

#endif /* PROF_H */
