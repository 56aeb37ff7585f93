/* history-read.c: prof-history's readers and keepers: list, trend and
 * changes (JSON, or a table on a terminal), migrate, prune, export-runs
 * (history-int.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/json.h"
#include "base/out.h"
#include "cli/cli.h"
#include "cli/git.h"
#include "history-int.h"
#include "history/export.h"
#include "report/terminal.h"

static int
print_json(struct json_object *o)
{
	struct prof_err err = {0};
	int rc = prof_out_json("-", o, &err);

	json_object_put(o);
	return cli_finish(rc < 0 ? PROF_EXIT_FAILURE : PROF_EXIT_OK);
}

/* Each change point's "bisect": the make bisect line between its two
 * runs' commits (with CHANNEL=memory for a change of a memory metric),
 * or null when one is not known (or a commit or the workload id is not
 * one a shell line may hold as it is). */
static void
add_bisect_lines(struct json_object *a)
{
	size_t i, n = json_object_array_length(a);

	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(a, i);
		const char *b = prof_json_str(c, "commit_before");
		const char *f = prof_json_str(c, "commit_after");
		const char *w = prof_json_str(c, "workload");
		const char *ch = prof_json_str(c, "channel");
		char line[1024];

		if (!b || !f || !w || !b[0] || !f[0] || !strcmp(b, f) ||
		    !strcmp(b, "unknown") || !strcmp(f, "unknown") ||
		    strspn(b, "0123456789abcdef") != strlen(b) ||
		    strspn(f, "0123456789abcdef") != strlen(f) ||
		    strspn(w, "abcdefghijklmnopqrstuvwxyz"
			      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
			    strlen(w)) {
			json_object_object_add(c, "bisect", NULL);
			continue;
		}
		/* A memory change is found by memory runs (make bisect
		 * CHANNEL=memory), a time change by the instruction counts
		 * the default channel takes. */
		snprintf(line, sizeof(line),
			 "make bisect GOOD=%s BAD=%s W=%s%s", b, f, w,
			 ch && !strcmp(ch, "memory") ? " CHANNEL=memory" :
						      "");
		json_object_object_add(c, "bisect",
				       json_object_new_string(line));
	}
}

int
history_cmd_read(const struct history_opts *o, const char *cmd)
{
	struct prof_err err = {0};
	struct prof_history *h = history_open(o, 0);
	struct json_object *a = NULL;

	if (!h)
		return PROF_EXIT_FAILURE;
	if (!strcmp(cmd, "list")) {
		a = prof_history_list(h, &err);
	} else if (!strcmp(cmd, "trend")) {
		a = prof_history_trend(h, &o->f, &err);
	} else {
		a = prof_history_changes(h, &o->f, o->since, &err);
		if (!a && o->since) {
			/* Not a commit prefix there: a revision git names? */
			char full[128];
			struct prof_err gerr = {0};

			if (cli_git_commit(o->since, full) == 0 &&
			    strcmp(full, o->since))
				a = prof_history_changes(h, &o->f, full, &gerr);
		}
	}
	prof_history_close(h);
	if (!a) {
		cli_err(&err);
		return PROF_EXIT_FAILURE;
	}
	if (!strcmp(cmd, "changes"))
		add_bisect_lines(a);
	if (o->json || !isatty(STDOUT_FILENO))
		return print_json(a);
	return cli_finish(prof_terminal_table(cmd, a));
}

/* migrate: open (making the history when missing: a first transaction,
 * empty) and say the version it is at. */
int
history_cmd_migrate(const struct history_opts *o)
{
	struct prof_err err = {0};
	struct prof_history *h = history_open(o, 1);
	char safe[512];
	int rc = PROF_EXIT_FAILURE;

	if (!h)
		return rc;
	if (prof_history_begin(h, &err) < 0 ||
	    prof_history_commit(h, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	cli_say("'%s' is at history schema version %d",
		cli_safe(o->db, safe, sizeof(safe)), prof_history_version(h));
	rc = PROF_EXIT_OK;
out:
	prof_history_close(h);
	return cli_finish(rc);
}

int
history_cmd_prune(const struct history_opts *o)
{
	struct prof_err err = {0};
	struct prof_history *h = history_open(o, 0);
	long long n = 0;
	char safe[512];
	int rc = PROF_EXIT_FAILURE;

	if (!h)
		return rc;
	if (prof_history_prune(h, o->before, &n, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	cli_say("pruned %lld run%s from before %s out of '%s'", n,
		n == 1 ? "" : "s", o->before,
		cli_safe(o->db, safe, sizeof(safe)));
	rc = PROF_EXIT_OK;
out:
	prof_history_close(h);
	return cli_finish(rc);
}

int
history_cmd_export(const struct history_opts *o, const char *dir)
{
	struct prof_err err = {0};
	struct prof_history *h;
	long long runs = 0;
	struct stat sb;
	char safe[512], dsafe[512];
	int rc = PROF_EXIT_FAILURE;
	DIR *d;
	struct dirent *e;

	/* Never into a run (prof_in_run()), before anything is read. */
	if (cli_not_in_run(dir, "export-runs never writes into a run"))
		return PROF_EXIT_FAILURE;
	/* The history first: one that cannot be read leaves no folder. */
	h = history_open(o, 0);
	if (!h)
		return rc;
	/* A folder of its own: nothing there is replaced. */
	if (mkdir(dir, 0777) != 0) {
		int why = errno;

		if (why != EEXIST || stat(dir, &sb) != 0 ||
		    !S_ISDIR(sb.st_mode)) {
			cli_say("cannot make the folder '%s': %s",
				cli_safe(dir, safe, sizeof(safe)),
				why == EEXIST ? "not a folder" :
						strerror(why));
			goto out;
		}
		d = opendir(dir);
		if (!d) {
			cli_say("cannot read '%s': %s",
				cli_safe(dir, safe, sizeof(safe)),
				strerror(errno));
			goto out;
		}
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				break;
		closedir(d);
		if (e) {
			cli_say("'%s' is not empty (export-runs writes into a "
				"new or empty folder)",
				cli_safe(dir, safe, sizeof(safe)));
			goto out;
		}
	}
	if (prof_history_export_runs(h, dir, &runs, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	cli_say("exported %lld run%s of '%s' into '%s'", runs,
		runs == 1 ? "" : "s", cli_safe(o->db, safe, sizeof(safe)),
		cli_safe(dir, dsafe, sizeof(dsafe)));
	rc = PROF_EXIT_OK;
out:
	prof_history_close(h);
	return cli_finish(rc);
}
