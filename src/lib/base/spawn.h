/* spawn.h: running a child process with a timeout, its stdout as lines and
 * the tail of its stderr kept, as workers and timed commands need. */
#ifndef PROF_SPAWN_H
#define PROF_SPAWN_H

#include <stddef.h>
#include <sys/resource.h>

#include "base/err.h"

enum {
	PROF_SPAWN_PIPE = -1,	 /* stdout lines go to on_line */
	PROF_SPAWN_DEVNULL = -2, /* stdout is thrown away */
};

struct prof_spawn {
	char *const *argv;	/* argv[0] is looked up in PATH */
	char *const *env_set;	/* "NAME=value" to set, NULL-terminated */
	char *const *env_unset; /* names to remove, NULL-terminated */
	int env_clear;		/* start from an empty environment: the
				 * child gets env_set and nothing else */
	int no_aslr;		/* address-space randomization off for the
				 * child (personality ADDR_NO_RANDOMIZE) */
	double timeout_s;	/* <= 0: no limit */
	int stdout_fd;		/* PROF_SPAWN_PIPE, _DEVNULL, or an fd */
	/* Each stdout line without its newline; complete is 0 for a last
	 * line that ended without one. A non-zero return stops reading
	 * and kills the child. */
	int (*on_line)(void *arg, char *line, size_t len, int complete);
	/* Or, when set, stdout as it comes, in chunks, not split into
	 * lines (on_line is not called); non-zero stops as above. */
	int (*on_data)(void *arg, const char *p, size_t len);
	void *arg;
	size_t stderr_keep;	/* bytes of stderr kept; 0 means 16 KiB */
	int stderr_fd;		/* >= 0: stderr goes there and is not kept */
	/* When set and it becomes non-zero (a signal handler), the child is
	 * killed and the result says cancelled: it is no measurement. Needs a
	 * handler installed without SA_RESTART so that poll() wakes up. */
	volatile int *cancel;
	/* When set, called once the child has exited and before it is
	 * reaped (its /proc/PID entry is still there to read), after its
	 * clock stopped: with exited_arg and its process id. */
	void (*exited)(void *arg, int pid);
	void *exited_arg;
};

struct prof_spawn_result {
	int pid;		/* the child's process id */
	int exec_errno;		/* the child could not be started: errno */
	int exited;
	int exit_code;
	int signaled;
	int signo;
	int timed_out;
	int stopped_by_caller;	/* on_line asked to stop */
	int cancelled;		/* *cancel became non-zero: no result */
	int strays;		/* descendants still there after the child
				 * exited, killed and reaped */
	double wall_ms;		/* spawn to the reaping of the child itself,
				 * CLOCK_MONOTONIC; not its descendants */
	struct rusage ru;	/* from wait4: user, system, max RSS */
	char *stderr_tail;	/* NUL-terminated, malloc'd, may be empty */
};

/*
 * Run sp->argv in a new process group and wait for it, killing the group on
 * timeout. The child is timed until it is reaped; then every descendant
 * still running (its group, and any that escaped with setsid) is killed
 * and counted in res->strays, and its output is read to the end. Children
 * the caller had before the call are not touched. Returns 0 when the child ran (whatever its status), or -1 with err
 * filled when it could not be set up. Free res with prof_spawn_free().
 */
int prof_spawn_run(const struct prof_spawn *sp, struct prof_spawn_result *res,
		   struct prof_err *err);

void prof_spawn_free(struct prof_spawn_result *res);

/* Whether the child exited 0. */
int prof_spawn_ok(const struct prof_spawn_result *res);

/*
 * Why a child failed, in words: "killed by signal 11 (SIGSEGV: Segmentation
 * fault)", "timed out after 5 s", "exited with status 3", "cannot run 'x':
 * No such file or directory"; followed by the last non-empty stderr line.
 */
void prof_spawn_describe(const struct prof_spawn_result *res,
			 const char *program, double timeout_s, char *buf,
			 size_t n);

/*
 * Run argv (30 s at most, stderr thrown away) for one line it prints:
 * the last one (last), else the first that is not empty, copied into out.
 * Returns 0 where it ran, exited 0 and printed such a line, else -1 with
 * out "". A tool's question to git ("rev-parse --show-toplevel").
 */
int prof_spawn_line(char *const *argv, int last, char *out, size_t n);
/* Run argv to its end (timeout_s at most; 0: no limit), each line of its
 * stdout to on_line(arg, ...), its stderr's tail kept: prof_spawn_run()
 * of that. */
int prof_spawn_read(char *const *argv, double timeout_s,
		    int (*on_line)(void *arg, char *line, size_t len,
				   int complete),
		    void *arg, struct prof_spawn_result *res,
		    struct prof_err *err);

/*
 * The first file called name in a folder of $PATH (an empty entry is the
 * current folder) that ok() accepts (0; NULL: executable, access(2) X_OK),
 * its path copied into out. 0, or -1 where none is.
 */
int prof_path_search(const char *name, int (*ok)(const char *path),
		     char *out, size_t n);

/* The last non-empty line of text, copied into buf. */
void prof_last_line(const char *text, char *buf, size_t n);

/* A new private directory under $TMPDIR (or /tmp). Returns 0 or -1. */
int prof_tmpdir_new(const char *prefix, char *out, size_t n,
		    struct prof_err *err);

/* Remove a directory tree. Returns 0 or -1. */
int prof_tmpdir_remove(const char *path);

/* Milliseconds on CLOCK_MONOTONIC. */
double prof_now_ms(void);

#endif /* PROF_SPAWN_H */
