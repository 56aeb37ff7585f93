/* afile.h: files written through a temporary sibling and rename(2), and
 * files opened to be read. */
#ifndef PROF_AFILE_H
#define PROF_AFILE_H

#include <limits.h>
#include <stdio.h>

#include "base/err.h"

/*
 * An output file that appears whole or not at all. Open writes to
 * "<dir>/.<name>.tmp.XXXXXX" beside the target; commit flushes, fsyncs and
 * renames it over the target; abort removes it. A crash in between leaves
 * at most a hidden temporary file, never a half-written target.
 *
 * A symbolic link is followed to the file it names (its target): the
 * temporary file is the target's sibling and is renamed over the target,
 * so the link stays a link. A target that exists and is not a regular
 * file (/dev/null, a FIFO, a terminal), or an open file named by /proc
 * (/dev/stdout, /dev/fd/N), is written straight through: renaming over it
 * would replace the device or the link with a file.
 *
 * An output that is a file the tool has read (prof_afile_note_input()),
 * stdin's included, is refused at open and again at commit, before
 * anything replaces it: "is an input; refusing to overwrite it".
 */
struct prof_afile {
	char path[4096];	/* as the user named it, for messages */
	char target[4096];	/* what is replaced: path, links followed */
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
 * how many files were renamed into place. SIGPIPE is trapped too (unless
 * ignored), without on_signal: the temporary files go, then the process
 * ends by SIGPIPE as before. Returns 0, or -1 with err.
 */
void prof_afile_unlink_all(void);
int prof_afile_trap_signals(void (*on_signal)(int sig), struct prof_err *err);
int prof_afile_committed(void);

/*
 * A temporary file of the tool's own (a copy of stdin): mkstemp(3) on
 * tmpl, registered so that an interrupt removes it, as it removes an
 * output's. prof_afile_remove() unlinks it and forgets it. Returns the
 * descriptor, or -1 with errno.
 */
int prof_afile_mkstemp(char *tmpl);
void prof_afile_remove(const char *path);

/*
 * Note that the file open on fd is an input (fd 0: stdin was read); the
 * readers of the library (json.c, stream.c) call it for every file they
 * open. Only regular files are kept.
 */
void prof_afile_note_input(int fd);

/* An input that the tool replaces on purpose (prof-baseline --add
 * updates the baseline it read) is no longer refused as an output. */
void prof_afile_forget_input(const char *path);

/*
 * Inputs: every reader that opens a file by its name opens it here. What
 * is not a regular file is refused before a byte is read: a FIFO would
 * wait for a writer for ever, a device (/dev/zero) reads without end, a
 * folder or a socket holds no document. A symbolic link is followed to
 * what it names, which must be a regular file. "-" is stdin (whatever it
 * is: a pipe, a file, a terminal) where flags has PROF_INPUT_STDIN, and
 * otherwise a file named "-". Two more are taken as they read as a
 * file does, once and to an end: /dev/null (empty), and, where flags has
 * PROF_INPUT_STDIN, an anonymous pipe named by /dev/fd/N (a shell's
 * <(command), /dev/stdin on a pipe), which its writer holds open; a FIFO
 * made by mkfifo(1) stays refused, since it may have no writer. A regular file of more than max bytes (max
 * > 0) is refused as it is opened; a reader of stdin with a max counts
 * the bytes it reads against it (prof_json_read_file()). The file is
 * noted as an input (prof_afile_note_input()).
 *
 * Returns the stream (stdin for "-"), or NULL with err filled, naming the
 * file: errno is then the reason open(2) failed ("cannot open: ..."), or
 * 0 when the file was refused ("a FIFO, not a regular file (the tools
 * read regular files only)", "N bytes, more than the M a reader of such
 * a file takes").
 */
#define PROF_INPUT_STDIN 1
/* The most a document read whole may be: json-c's parser takes an int
 * length (and such a document takes about ten times its size to hold). */
#define PROF_INPUT_DOC_MAX ((long long)INT_MAX - 1)
FILE *prof_input_open(const char *path, int flags, long long max,
		      struct prof_err *err);

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
 * to it are caught). An input "-" is stdin's file (prof x - < r.json);
 * an output "-" is never the same file. A tool refuses such an -o before
 * it reads anything (exit 2).
 */
int prof_same_file(const char *output, const char *input);

/* mkdir -p. Returns 0, or -1 with err filled. */
int prof_mkdirs(const char *path, struct prof_err *err);

/*
 * Run folders: a folder that holds results.json, samples.jsonl,
 * bisect.json or steps.jsonl is a run's (fragment/run-lib.sh's RUN_MARKS
 * and run_mark, the same four), and no tool writes into one.
 *
 * Whether the folder dir, to be written (made or not), is in a run:
 * 0 outside every run folder; 1 dir is a run folder itself; 2 a folder
 * above it is (the nearest: run, its absolute path, n bytes). *mark is
 * then the mark that run holds. -1 when the current folder cannot be
 * read (errno set). The folders above are those of the path with its
 * links followed, from the nearest one that exists; the working folder
 * and the folders above it are never runs, whatever they hold (a project
 * may keep a results.json of its own at its root; runs are made below
 * it), as in fragment/run-lib.sh's run_parent.
 */
int prof_in_run(const char *dir, char *run, size_t n, const char **mark);

#endif /* PROF_AFILE_H */
