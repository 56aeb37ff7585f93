/* callgrind.h: reading callgrind's output files: the instruction count
 * (Ir) of one dump, or of every dump a process tree left in a folder. */
#ifndef PROF_CALLGRIND_H
#define PROF_CALLGRIND_H

#include "base/err.h"
#include "base/htab.h"

/*
 * A callgrind output file (format version 1) opens with header lines
 * "key: value": pid, cmd, part, "desc: Trigger: ..." (why it was
 * dumped: "Client Request: NAME", "Program termination",
 * "--dump-before=execve"), events (the event names, Ir first unless other
 * events were asked for), summary (the totals when the dump was made);
 * cost lines follow, and "totals:" ends the file with the sum of the cost
 * lines. The count of a dump is the Ir column of totals: (of summary: when
 * there is no totals: line).
 */
struct prof_callgrind_dump {
	long long ir;		/* instructions executed in the dumped part */
	long long pid;		/* -1 when the file has no pid: line */
	int part;		/* 0 when the file has no part: line */
	char trigger[256];	/* "Client Request: prof-call-0", or "" */
	char cmd[512];		/* the command line, possibly cut */
};

/*
 * Read the dump at path. Returns 0, or -1 with err naming the file (and
 * the line) when it cannot be read, is not a callgrind file, has no Ir
 * event or no count.
 */
int prof_callgrind_read(const char *path, struct prof_callgrind_dump *d,
			struct prof_err *err);

/*
 * The sum of the Ir of every file in dir whose name starts with prefix:
 * what a process tree counted with --trace-children=yes and an output
 * file of "prefix%p" left there, one file (or more) per process. *files
 * is the number of files read and *pids the number of distinct pids among
 * them. Returns 0, or -1 with err (an unreadable or bad file, no file at
 * all).
 */
int prof_callgrind_sum(const char *dir, const char *prefix, long long *ir,
		       int *files, int *pids, struct prof_err *err);

/*
 * A dump read function by function: what prof-why ranks and the
 * differential flame graph draws. A function is its name as callgrind
 * wrote it (demangled, which is callgrind's default) without the
 * recursion suffix ('2, '3 of --separate-recs: one function, all its
 * depths) and the source file its code is in ("???" without debug
 * information). Costs are Ir.
 *
 * Ownership: a profile owns its strings and arrays; free it with
 * prof_callgrind_profile_free(), also after a failed load.
 */
struct prof_callgrind_fn {
	char *name;
	char *file;
	long long self;		/* executed in the function itself */
	long long incl;		/* self and its calls to other functions */
	long long called;	/* of incl, what other functions' calls paid */
};

/* Calls of caller to callee (never a function to itself). */
struct prof_callgrind_call {
	size_t caller, callee;	/* indexes into fns */
	long long count;	/* how many calls */
	long long ir;		/* what they cost, inclusive */
};

struct prof_callgrind_profile {
	struct prof_callgrind_fn *fns;
	size_t n_fns, cap_fns;
	struct prof_callgrind_call *calls;
	size_t n_calls, cap_calls;
	long long total;	/* the dump's count, as prof_callgrind_read() */
	char event[32];		/* "" for Ir; else the event counted (pprof
				 * --callgrind: "Hits", CPU samples), whose
				 * total is the sum of the functions' */
	char cmd[512];
	char trigger[256];
	struct prof_htab *fn_index, *call_index;
};

/*
 * Read the dump at path, a full one or one that
 * prof_callgrind_write_functions() wrote, function by function; also
 * pprof --callgrind's conversion of a CPU profile (event Hits). Returns
 * 0, or -1 with err naming the file and line (a cost line that is not
 * numbers, a name reference that was never defined, no Ir event or no
 * count, a number or a sum of costs beyond 64 bits, or a totals: (or
 * summary:) that is not the sum of the cost lines). Memory follows the
 * file's size: name ids are hashed, however large.
 */
int prof_callgrind_load(const char *path, struct prof_callgrind_profile *p,
			struct prof_err *err);

/* The index of the function named name in file (NULL: any file, when only
 * one has that name), or -1. */
long prof_callgrind_find(const struct prof_callgrind_profile *p,
			 const char *name, const char *file);

void prof_callgrind_profile_free(struct prof_callgrind_profile *p);

/* A CPU profile's samples (pprof --callgrind, PATH ending in .callgrind)
 * as nanoseconds per call: the file beside it, PATH with .calls for
 * .callgrind, says "CALLS HZ" on its first line (the timed calls the
 * profile covers, from 1 to 1e12, and the profiler's frequency, from 1 to
 * 1e6 Hz). Returns 0, or -1 with err naming that file (and its line): it
 * cannot be read, is not two numbers, a number is out of range, or a
 * scaled cost would be (p left as it is). */
int prof_callgrind_per_call(struct prof_callgrind_profile *p,
			    const char *path, struct prof_err *err);

/*
 * Give the functions of p other names: map(arg, i, name) returns the new
 * name of function i (NULL: it keeps its name). Functions that come to
 * share a name and a file become one (a C++ constructor's complete and
 * base object symbols, C1 and C2, demangle to one name): their costs and
 * calls are added up, and their calls to each other become their own
 * cost. Returns 0, or -1 with err (out of memory; p is unchanged).
 */
int prof_callgrind_rename(struct prof_callgrind_profile *p,
			  const char *(*map)(void *arg, size_t i,
					     const char *name),
			  void *arg, struct prof_err *err);

/*
 * Write p to path atomically as a callgrind file of functions only: per
 * function one cost line (its self cost) and one per callee (the
 * calls), no line numbers and no per-instruction data, so that a
 * workload's dump of megabytes becomes kilobytes. callgrind_annotate and
 * KCachegrind read it; so does prof_callgrind_load(). Returns 0 or -1
 * with err.
 */
int prof_callgrind_write_functions(const struct prof_callgrind_profile *p,
				   const char *path, struct prof_err *err);

#endif /* PROF_CALLGRIND_H */
