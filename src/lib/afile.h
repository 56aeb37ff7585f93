/* afile.h: files written through a temporary sibling and rename(2). */
#ifndef PROF_AFILE_H
#define PROF_AFILE_H

#include <stdio.h>

#include "err.h"

/*
 * An output file that appears whole or not at all. Open writes to
 * "<dir>/.<name>.tmp.XXXXXX" beside the target; commit flushes, fsyncs and
 * renames it over the target; abort removes it. A crash in between leaves
 * at most a hidden temporary file, never a half-written target.
 *
 * A target that exists and is not a regular file (/dev/null, a FIFO,
 * /dev/stdout) is written straight through: renaming over it would
 * replace the device with a file.
 */
struct prof_afile {
	char path[4096];
	char tmp[4096];
	FILE *fp;
	int direct;	/* writing straight to a device or FIFO */
};

/*
 * Interrupts: every temporary file that is open is kept in a small
 * registry that a signal handler may read. prof_afile_unlink_all() removes
 * them and is async-signal-safe, for a tool's own handler to call.
 * prof_afile_trap_signals() installs a handler for SIGINT, SIGTERM and
 * SIGHUP that removes them and then calls on_signal(sig) (which must be
 * async-signal-safe and should end the process with _exit()); with a NULL
 * on_signal the signal's default action follows. A rename is never cut in
 * half: the signals are blocked around it, and prof_afile_committed() says
 * how many files were renamed into place. Returns 0, or -1 with err.
 */
void prof_afile_unlink_all(void);
int prof_afile_trap_signals(void (*on_signal)(int sig), struct prof_err *err);
int prof_afile_committed(void);

/* Returns the stream to write, or NULL with err filled. */
FILE *prof_afile_open(struct prof_afile *af, const char *path,
		      struct prof_err *err);

/* Returns 0, or -1 with err filled (the temporary file is then removed). */
int prof_afile_commit(struct prof_afile *af, struct prof_err *err);

/* Drop what was written. Safe to call on an unopened or committed file. */
void prof_afile_abort(struct prof_afile *af);

/* Write len bytes of data to path atomically. Returns 0 or -1. */
int prof_afile_write(const char *path, const void *data, size_t len,
		     struct prof_err *err);

/*
 * Whether writing output would replace the file input: both exist and are
 * the same file (same device and inode, so "./r.json", "r.json" and a link
 * to it are caught). "-" is never the same file. A tool refuses such an
 * -o before it reads anything (exit 2).
 */
int prof_same_file(const char *output, const char *input);

/* mkdir -p. Returns 0, or -1 with err filled. */
int prof_mkdirs(const char *path, struct prof_err *err);

#endif /* PROF_AFILE_H */
