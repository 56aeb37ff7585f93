/* history-import.c: prof-history import: every results file under the
 * folders, in one transaction (history-int.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "cli/cli.h"
#include "cli/runfiles.h"
#include "history-int.h"
#include "prof/sum.h"

/* The SHA-256 of a regular file's bytes, in hex (sum.h's raw bytes, as
 * sha256sum gives it): 0, 1 when path is not a regular file (import skips
 * it), -1 with errno, or when a signal came (history_txn_signalled()). */
static int
file_sha256(const char *path, char hex[PROF_SUM_HEX])
{
	unsigned char buf[65536];
	struct prof_sum sum;
	struct stat sb;
	ssize_t k = 0;
	int fd, rc, e;

	/* Non-blocking: a file that became a FIFO since the walk. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0) {
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		return 1;
	}
	if (prof_sum_init(&sum) < 0) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	/* A signal during import stops a long file (the import then ends). */
	while (!history_txn_signalled() &&
	       (k = read(fd, buf, sizeof(buf))) > 0)
		prof_sum_raw(&sum, buf, (size_t)k);
	rc = history_txn_signalled() || k < 0 ? -1 : 0;
	e = errno;
	prof_sum_final(&sum, hex);
	close(fd);
	errno = e;
	return rc;
}

/*
 * The verdicts of a run file of import from the comparisons.json beside
 * it, when the file is a run folder's results.json and there is one:
 * 0 with *verdicts (NULL when there is none), -1 with err.
 */
static int
folder_verdicts(const char *path, const struct prof_runview *v,
		struct json_object **cmp, struct prof_runverdict **verdicts,
		struct prof_err *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const struct prof_runrow *rows;
	char cpath[4096];
	size_t nr;
	struct stat sb;

	*cmp = NULL;
	*verdicts = NULL;
	if (strcmp(base, "results.json") ||
	    snprintf(cpath, sizeof(cpath), "%.*scomparisons.json",
		     (int)(base - path), path) >= (int)sizeof(cpath) ||
	    stat(cpath, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;	/* not a regular file: skipped, and said */
	nr = prof_runview_rows(v, &rows);
	*cmp = prof_json_load(cpath, err);
	if (!*cmp)
		return -1;
	*verdicts = calloc(nr ? nr : 1, sizeof(**verdicts));
	if (!*verdicts)
		return prof_err_set(err, "out of memory");
	if (prof_runview_verdicts(v, *cmp, *verdicts, err) < 0) {
		prof_err_file(err, cpath);
		return -1;
	}
	return 0;
}

/* Whether a load failed because the file is another JSON document, not
 * because it is a bad results file. */
static int
not_results(const struct prof_err *err)
{
	return err->line == 0 &&
	       (!strcmp(err->path, ".") || !strcmp(err->path, ".schema"));
}

/* What an import found: the runs added, from how many results files,
 * how many already there, sides of an A/B and other JSON files skipped,
 * and the symbolic links the walk followed (again_links: to what was
 * read already). */
struct import {
	size_t added, results, same, ab, skipped, followed, again_links;
};

/* import's last line. */
static void
say_imported(const char *db, const struct import *n)
{
	char safe[512], abw[128] = "", lw[160] = "";

	if (n->ab)
		snprintf(abw, sizeof(abw),
			 "; %zu side%s of an interleaved A/B left out", n->ab,
			 n->ab == 1 ? "" : "s");
	if (n->followed || n->again_links)
		snprintf(lw, sizeof(lw), "; %zu symbolic link%s followed",
			 n->followed, n->followed == 1 ? "" : "s");
	if (n->again_links)
		snprintf(lw + strlen(lw), sizeof(lw) - strlen(lw),
			 ", %zu to what was read already",
			 n->again_links);
	cli_say("imported %zu run%s into '%s' from %zu results file%s "
		"(%zu already there%s; %zu other JSON file%s skipped%s)",
		n->added, n->added == 1 ? "" : "s",
		cli_safe(db, safe, sizeof(safe)), n->results,
		n->results == 1 ? "" : "s", n->same, abw, n->skipped,
		n->skipped == 1 ? "" : "s", lw);
}

/* import_file()'s answers besides 0 (the next file). */
#define FILE_FAILED (-1)
#define FILE_SIGNAL (-2)

/*
 * One file into h's open transaction, counted in n: 0, FILE_FAILED with
 * err, or FILE_SIGNAL when a signal came while it was read. A file whose
 * bytes an import has read before is not parsed again: a folder that
 * grows by a run a day costs the new run, not the whole record.
 */
static int
import_file(struct prof_history *h, const char *path, struct import *n,
	    struct prof_err *err)
{
	struct prof_runview v = {0};
	struct json_object *cmp = NULL;
	struct prof_runverdict *verdicts = NULL;
	char sha[PROF_SUM_HEX];
	int one, hashed, seen, rc = FILE_FAILED;

	hashed = file_sha256(path, sha);
	if (history_txn_signalled())
		return FILE_SIGNAL;
	if (hashed == 1) {
		/* No longer a regular file since the walk. */
		cli_run_file_skipped(path);
		return 0;
	}
	if (hashed < 0) {
		prof_err_at(err, path, 0, 0, "%s", strerror(errno));
		return FILE_FAILED;
	}
	seen = prof_history_file(h, sha, NULL, err);
	if (seen < 0)
		return FILE_FAILED;
	if (seen == 1) {
		n->results++;
		n->same++;
		return 0;
	}
	if (seen == 2) {
		n->skipped++;
		return 0;
	}
	if (prof_runview_load(&v, path, 0, err) < 0) {
		if (not_results(err)) {
			n->skipped++;
			rc = prof_history_file(h, sha, "", err) < 0 ?
				     FILE_FAILED : 0;
		}
		goto out;
	}
	n->results++;
	if (v.ab_sides) {
		/* A side of an A/B is not a run (--help). */
		n->ab++;
		rc = 0;
		goto out;
	}
	if (folder_verdicts(path, &v, &cmp, &verdicts, err) < 0 ||
	    (!verdicts &&
	     history_kept_verdicts(&v, path, &verdicts, err) < 0) ||
	    prof_history_add_judged(h, &v, verdicts, &one, err) < 0 ||
	    prof_history_file(h, sha, prof_runview_str(&v, "run_id"),
			      err) < 0)
		goto out;
	if (one == PROF_HISTORY_ADDED)
		n->added++;
	else
		n->same++;
	rc = 0;
out:
	prof_runview_free(&v);
	free(verdicts);
	json_object_put(cmp);
	return rc;
}

int
history_cmd_import(const struct history_opts *o, int nd, char **dirs)
{
	struct prof_history *h = NULL;
	struct prof_err err = {0};
	struct cli_paths found = {0};
	struct import n = {0};
	size_t i, followed = 0, again_links = 0;
	int rc = PROF_EXIT_FAILURE, k, c, tries = 0, conflicts = 0;
	char safe[512];

	history_txn_trap(o->db);
	if (cli_run_files(nd, dirs, &found, &followed, &again_links) < 0)
		goto out;
again:
	n = (struct import){.followed = followed, .again_links = again_links};
	h = history_txn_begin(o);
	if (!h)
		goto out;
	/* One file in memory at a time; all in one transaction. */
	for (i = 0; i < found.n; i++) {
		if (history_txn_signalled()) {
			history_txn_abandon(h, &err, o->db);
			goto out;
		}
		memset(&err, 0, sizeof(err));
		k = import_file(h, found.paths[i], &n, &err);
		if (k == FILE_SIGNAL) {
			history_txn_abandon(h, &err, o->db);
			goto out;
		}
		if (k == FILE_FAILED)
			goto failed;
	}
	c = history_txn_commit(h, o->db, &err);
	if (c == -2 && !tries++) {
		/* Another process made the history meanwhile: into that. */
		prof_history_close(h);
		h = NULL;
		goto again;
	}
	if (c == -3) {
		if (history_txn_again(h, &err, o->db, &conflicts) < 0)
			goto out;
		prof_history_close(h);
		h = NULL;
		goto again;
	}
	if (c == -2)
		history_txn_raced(o->db);
	if (c < 0)
		goto out;
	say_imported(o->db, &n);
	rc = PROF_EXIT_OK;
	goto out;
failed:
	k = history_txn_again(h, &err, o->db, &conflicts);
	if (k > 0) {
		prof_history_close(h);
		h = NULL;
		goto again;
	}
	if (k < 0)
		goto out;
	history_txn_abandon(h, &err, o->db);
	if (!history_txn_signalled())
		cli_say("nothing was added to '%s'",
			cli_safe(o->db, safe, sizeof(safe)));
out:
	prof_history_close(h);
	cli_paths_free(&found);
	return cli_finish(rc);
}
