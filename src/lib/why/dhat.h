/* dhat.h: allocation sites from valgrind's DHAT (--tool=dhat, JSON),
 * aggregated to the function that allocated, and what changed between
 * two profiles of one workload. */
#ifndef PROF_DHAT_H
#define PROF_DHAT_H

#include "base/err.h"

/*
 * One site: a function of the project that allocated (the first frame of
 * an allocation's stack that is inside the project, not the allocator:
 * prof_dhat_load() says which frames are), with what its program points
 * allocated. name and file are owned by the profile.
 */
struct prof_dhat_site {
	char *name;
	char *file;		/* its source file, or its object; "" */
	long long bytes;	/* bytes allocated (DHAT's tb) */
	long long allocs;	/* blocks allocated (tbk) */
	long long max_live;	/* the most bytes live at once (mb), summed */
};

/* What counted: only the allocations made inside run() (the harness's
 * timed call is on their stack) in a prof worker (the harness's
 * prof_worker_run is on some stack), or the whole process of another
 * program. */
enum prof_dhat_scope {
	PROF_DHAT_RUN,
	PROF_DHAT_PROCESS,
};

struct prof_dhat_profile {
	struct prof_dhat_site *sites;	/* sorted by name, then file */
	size_t n;
	long long bytes, allocs, max_live;	/* the sums over the sites */
	enum prof_dhat_scope scope;
	size_t points, counted;	/* DHAT's program points; those counted */
};

/*
 * Read a DHAT output file (dhatFileVersion 2, mode "heap"). Each program
 * point (pps[]) is counted for the first frame of its stack (fs[], from
 * the allocating call outwards) that is inside the project: not an
 * allocator entry (malloc, calloc, realloc, free, the aligned ones,
 * strdup, operator new and delete, __libc_*), not in a shared object
 * ("in /usr/lib/...so.6": a frame without debug information of a
 * library), and not from source outside the project (a relative path, as
 * the system's libraries record theirs, or one under /usr/: inlined
 * library headers). valgrind's --fullpath-after= (empty) makes the
 * project's paths absolute. A point none of whose frames is inside is
 * counted for its first frame that is not an allocator entry. In a prof
 * worker (the harness's prof_worker_run, in phases.c, on some stack)
 * only the points whose stack holds its timed call of run() (timed_call)
 * are counted, and those of the workload's own threads (a stack that
 * starts at glibc's start_thread: the harness starts no thread; a
 * thread's allocations count whenever they were made), none when run()
 * allocated nothing; else all (scope). Returns 0, or -1 with err (file: .path: reason for the
 * schema, file:line:col for the syntax; out of memory).
 */
int prof_dhat_load(const char *path, struct prof_dhat_profile *p,
		   struct prof_err *err);

void prof_dhat_free(struct prof_dhat_profile *p);

/* What a comparison ranks the sites by. */
enum prof_dhat_by {
	PROF_DHAT_BY_BYTES,	/* bytes allocated */
	PROF_DHAT_BY_ALLOCS,	/* allocations */
	PROF_DHAT_BY_LIVE,	/* most bytes live at once */
};

/* "bytes", "allocations", "max-live"; parse: 0, or -1 for another word. */
const char *prof_dhat_by_name(enum prof_dhat_by by);
int prof_dhat_by_parse(const char *s, enum prof_dhat_by *by);

/* The ranking of a memory row's metric (prof-diff's "metric"): heap
 * peak by most bytes live, allocations by allocations, bytes allocated
 * and the RSS peak by bytes. */
enum prof_dhat_by prof_dhat_by_metric(const char *metric);

enum prof_dhat_state {
	PROF_DHAT_CHANGED,
	PROF_DHAT_NEW,
	PROF_DHAT_VANISHED,
};

/* A site of either side; strings borrowed from the profiles. A site is
 * matched across the sides by its name and its file's last part (the
 * two builds may lie in different folders); one left over, by its bare
 * name (a C++ name without return type, scope and parameters, as
 * valgrind names an inlined frame). */
struct prof_dhat_change {
	const char *name, *file;	/* after's, or before's if vanished */
	enum prof_dhat_state state;
	long long bytes_before, bytes_after;
	long long allocs_before, allocs_after;
	long long live_before, live_after;
	/* the change of the ranked number over the whole change of it; 0
	 * when the whole did not change */
	double share;
};

struct prof_dhat_diff {
	struct prof_dhat_change *c;	/* ranked, largest change first */
	size_t n;		/* sites with any number changed */
	size_t unchanged, n_new, n_vanished;
	enum prof_dhat_by by;
};

/*
 * Rank the sites of before and after by the size of the change of by,
 * largest first; ties by bytes, then allocations, then name. Keep both
 * profiles until prof_dhat_diff_free(). Returns 0, or -1 with err (out of
 * memory).
 */
int prof_dhat_diff(const struct prof_dhat_profile *before,
		   const struct prof_dhat_profile *after, enum prof_dhat_by by,
		   struct prof_dhat_diff *d, struct prof_err *err);

void prof_dhat_diff_free(struct prof_dhat_diff *d);

/* "changed", "new", "vanished". */
const char *prof_dhat_state_name(enum prof_dhat_state s);

/* The total of by in p. */
long long prof_dhat_total(const struct prof_dhat_profile *p,
			  enum prof_dhat_by by);

#endif /* PROF_DHAT_H */
