/* phases.h: running one workload x backend x phase inside a worker. */
#ifndef PROF_HARNESS_PHASES_H
#define PROF_HARNESS_PHASES_H

#include <stddef.h>

#include "prof/session.h"
#include "prof/workload.h"

struct prof_worker_args {
	const char *progname;
	const char *id;
	const struct prof_workload *w;
	const char *backend;	/* cpu, gpu: what runs */
	const char *requested;	/* what the user asked for */
	const char *phase;	/* timing, memory, profile, instructions */
	const char *kind;	/* warm, cold */
	long warmup;
	long repeat;
	const char *artifacts;	/* the run folder, for profile artifacts */
	double min_seconds;	/* profile phase: cover at least this long */
	const char *valgrind;	/* instruction phase: valgrind's version */
};

/* Run the worker; prints samples; returns the process exit code. */
int prof_worker_run(const struct prof_worker_args *a);

#endif /* PROF_HARNESS_PHASES_H */
