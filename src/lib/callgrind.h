/* callgrind.h: reading callgrind's output files: the instruction count
 * (Ir) of one dump, or of every dump a process tree left in a folder. */
#ifndef PROF_CALLGRIND_H
#define PROF_CALLGRIND_H

#include "err.h"

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

#endif /* PROF_CALLGRIND_H */
