/* heaprec.h: the heap record each process under the allocation
 * interposer keeps (libprof-alloc.so, src/preload/alloc.c, writes it; the
 * runner reads a command's with prof_heaprec_read()). */
#ifndef PROF_HEAPREC_H
#define PROF_HEAPREC_H

#include <stddef.h>

/*
 * One file a process, PID-START.heap in the folder $PROF_ALLOC_LOG names
 * (START: the process's start time in clock ticks, /proc/PID/stat's 22nd
 * field, which exec keeps and a later process of the same pid does not
 * share): the program that an exec puts in the process writes over the
 * record of the one before it. The interposer maps the file shared and
 * keeps its counters in it, so the record holds them as they change: a
 * process killed by a signal leaves the numbers of its end, and one that
 * closed or used up its file descriptors loses nothing, as nothing is
 * opened at its exit. Fixed size, the magic written last.
 */
#define PROF_HEAPREC_MAGIC 0x3163657270616568ULL	/* "heaprec1" */
#define PROF_HEAPREC_PATH 4096
#define PROF_HEAPREC_SUFFIX ".heap"

/* The state of a record's process. */
#define PROF_HEAPREC_RUNNING 1	/* at its end still: a signal ended it */
#define PROF_HEAPREC_EXITED 2	/* exit(), a return from main(), _exit() */
#define PROF_HEAPREC_EXEC 3	/* it ran exec and the program after it
				 * wrote no record over this one */

/* Live bytes (usable sizes), their peak, live at the start of the count,
 * allocations, frees and the bytes allocated: the interposer's counters,
 * updated atomically. */
struct prof_heaprec_counts {
	long long live, peak, base, allocs, frees, bytes;
};

struct prof_heaprec {
	unsigned long long magic;
	int pid, ppid;
	int state;
	int exec_env;		/* EXEC: the environment given to exec lacked
				 * the interposer (LD_PRELOAD, PROF_ALLOC_LOG) */
	unsigned long long start;
	long long rss_peak;	/* EXITED: VmHWM in bytes, -1 unknown */
	long long untracked;	/* programs it started with an environment
				 * without the interposer */
	struct prof_heaprec_counts c;
	char exe[PROF_HEAPREC_PATH];	/* /proc/self/exe */
	char exec[PROF_HEAPREC_PATH];	/* EXEC: the program given to exec */
	char spawned[PROF_HEAPREC_PATH]; /* the first of the untracked */
};

/*
 * A process that starts another in its own memory (vfork(), and
 * posix_spawn(), whose child execs before the starter's wrapper sees it)
 * cannot make that process's record; it leaves a note instead,
 * PID-START.spawn beside the records (the new process's pid and start):
 * the program was to run there, and its own record says it did. A note
 * with no record of the same pid and start is a program the interposer
 * did not enter.
 */
#define PROF_HEAPREC_SPAWN_MAGIC 0x316e776170737068ULL	/* "hpspawn1" */
#define PROF_HEAPREC_SPAWN_SUFFIX ".spawn"

struct prof_heaprec_note {
	unsigned long long magic;
	int pid, ppid;		/* the new process, and its starter */
	int exec_env;		/* the environment given lacked the
				 * interposer */
	int pad;
	unsigned long long start;
	/* then two NUL-terminated strings, each less than
	 * PROF_HEAPREC_PATH bytes: the starter's program and the program
	 * to run; the file ends there (a page, not three) */
};

/* ---- the reader (libprof) ---- */

struct prof_err;

/* A process's record as read: its numbers above what was live at its
 * start (a forked child's inherited heap is its parent's). */
struct prof_heapproc {
	int pid, ppid;
	int state;		/* PROF_HEAPREC_RUNNING, _EXITED, _EXEC */
	int exec_env;
	unsigned long long start;
	long long peak, allocs, bytes, live_end;
	long long rss_peak;	/* -1 unknown (not EXITED) */
	long long untracked;
	char *exe;		/* valid UTF-8 (U+FFFD for what is not) */
	char *exec;		/* EXEC: the program, valid UTF-8; else NULL */
	char *spawned;		/* the first untracked program, or NULL */
};

/* A note of a program started in a new process that left no record of
 * its own (the interposer did not enter it). */
struct prof_heapmiss {
	int pid, ppid;
	int exec_env;
	char *by;		/* the starter's program, valid UTF-8 */
	char *prog;		/* the program, valid UTF-8 */
};

struct prof_heaprecs {
	struct prof_heapproc *p;	/* by start time, then pid */
	size_t n;
	struct prof_heapmiss *miss;	/* by pid */
	size_t n_miss;
	size_t incomplete;	/* files without a whole record or note: a
				 * process that ended while it made one */
};

/*
 * Every record in the folder dir into out (zeroed first), and the notes
 * of started programs that left none. A file whose name ends neither in
 * PROF_HEAPREC_SUFFIX nor in PROF_HEAPREC_SPAWN_SUFFIX is passed over. Returns 0, or -1 with err filled (the folder cannot be read, out
 * of memory).
 */
int prof_heaprec_read(const char *dir, struct prof_heaprecs *out,
		      struct prof_err *err);
void prof_heaprec_free(struct prof_heaprecs *r);

/*
 * Why the dynamic loader would preload nothing into the program prog (a
 * path, or a name looked up in PATH; a script's interpreter is the
 * program): "a static program", "a setuid program", "a setgid program",
 * "a program with file capabilities"; NULL when none of these holds or
 * prog cannot be read.
 */
const char *prof_heaprec_unloaded(const char *prog);

#endif /* PROF_HEAPREC_H */
