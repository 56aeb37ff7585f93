/* history-txn.c: prof-history's history opened for its project, and the
 * transaction of add and import with its signals (history-int.h). */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "base/afile.h"
#include "cli/cli.h"
#include "cli/project.h"
#include "history-int.h"

struct prof_history *
history_open(const struct history_opts *o, int create)
{
	struct prof_err err = {0};
	struct prof_history *h = prof_history_open(o->db, create, &err);
	char name[4096];

	if (!h) {
		cli_err(&err);
		return NULL;
	}
	if (!o->project && !prof_history_many_projects(h))
		return h;
	if (cli_project_default(o->project, name, sizeof(name)) < 0) {
		prof_history_close(h);
		return NULL;
	}
	if (prof_history_project(h, name, &err) < 0) {
		cli_err(&err);
		prof_history_close(h);
		return NULL;
	}
	return h;
}

/* Where the signals stand (history-int.h): before the transaction, in
 * it, after its commit. */
enum { SIG_EARLY, SIG_TXN, SIG_DONE };
static volatile sig_atomic_t sig_phase, sig_got;
static struct prof_history *sig_history;
static char sig_db[1024];

static void
put_str(const char *s)
{
	ssize_t k = write(STDERR_FILENO, s, strlen(s));

	(void)k;
}

static const char *
sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" :
							    "SIGHUP";
}

/* Async-signal-safe: write(), _exit() and sqlite3_interrupt(), which
 * only sets a flag (SQLite's own shell calls it from its handler). */
static void
on_signal(int sig)
{
	if (sig_phase == SIG_TXN) {
		sig_got = sig;
		prof_history_interrupt(sig_history);
		return;
	}
	/* A history being made (prof_history_open) is not left half made. */
	prof_afile_unlink_all();
	put_str(cli_name);
	put_str(": interrupted by ");
	put_str(sig_name(sig));
	put_str(sig_phase == SIG_DONE ? "; the runs were stored in '" :
					"; nothing was added to '");
	put_str(sig_db);
	put_str(sig_phase == SIG_DONE ? "' before it\n" : "'\n");
	_exit(PROF_EXIT_FAILURE);
}

static const int trapped[] = {SIGINT, SIGTERM, SIGHUP};

void
history_txn_trap(const char *db)
{
	struct sigaction sa;
	size_t i;

	cli_safe(db, sig_db, sizeof(sig_db));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(trapped) / sizeof(*trapped); i++)
		sigaction(trapped[i], &sa, NULL);
}

int
history_txn_signalled(void)
{
	return sig_got;
}

static void
block_signals(int block)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(trapped) / sizeof(*trapped); i++)
		sigaddset(&set, trapped[i]);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

struct prof_history *
history_txn_begin(const struct history_opts *o)
{
	struct prof_err err = {0};
	struct prof_history *h = history_open(o, 1);

	if (!h)
		return NULL;
	if (prof_history_begin(h, &err) < 0) {
		cli_err(&err);
		prof_history_close(h);
		return NULL;
	}
	sig_history = h;
	sig_phase = SIG_TXN;
	return h;
}

int
history_txn_commit(struct prof_history *h, const char *db,
		   struct prof_err *errp)
{
	struct prof_err err = {0};
	char safe[512];
	int rc = -1;

	block_signals(1);
	if (sig_got) {
		prof_history_rollback(h);
		cli_say("interrupted by %s; nothing was added to '%s'",
			sig_name(sig_got), cli_safe(db, safe, sizeof(safe)));
	} else if (prof_history_commit(h, &err) < 0) {
		if (prof_history_raced(h)) {
			rc = -2;
		} else if (prof_history_conflict(h)) {
			rc = -3;
			*errp = err;
		} else {
			cli_err(&err);
			cli_say("nothing was added to '%s'",
				cli_safe(db, safe, sizeof(safe)));
		}
	} else {
		rc = 0;
	}
	sig_phase = rc == 0 ? SIG_DONE : SIG_EARLY;
	block_signals(0);
	return rc;
}

int
history_txn_again(struct prof_history *h, const struct prof_err *err,
		  const char *db, int *conflicts)
{
	int why = sig_got ? 0 : prof_history_conflict(h);
	char buf[2048], safe[2048], dbs[512];

	if (!why)
		return 0;
	block_signals(1);
	prof_history_rollback(h);
	sig_phase = SIG_EARLY;
	block_signals(0);
	cli_safe(prof_err_str(err, buf, sizeof(buf)), safe, sizeof(safe));
	if (++*conflicts >= PROF_HISTORY_TRIES) {
		cli_say("%s", safe);
		cli_say("nothing was added to '%s': %d tries, each ended by "
			"another writer's transaction (the last by %s)",
			cli_safe(db, dbs, sizeof(dbs)), *conflicts,
			why == PROF_HISTORY_DEADLOCK ?
				"a deadlock, SQLSTATE 40P01" :
				"a serialization failure, SQLSTATE 40001");
		return -1;
	}
	cli_say("%s; rolled back, trying again (%d of %d)", safe,
		*conflicts + 1, PROF_HISTORY_TRIES);
	prof_history_backoff(*conflicts);
	return 1;
}

void
history_txn_raced(const char *db)
{
	char safe[512];

	cli_say("nothing was added to '%s': another process made it while "
		"this one did, twice", cli_safe(db, safe, sizeof(safe)));
}

void
history_txn_abandon(struct prof_history *h, const struct prof_err *err,
		    const char *db)
{
	char safe[512];

	block_signals(1);
	prof_history_rollback(h);
	if (sig_got)
		cli_say("interrupted by %s; nothing was added to '%s'",
			sig_name(sig_got), cli_safe(db, safe, sizeof(safe)));
	else
		cli_err(err);
	sig_phase = SIG_EARLY;
	block_signals(0);
}
