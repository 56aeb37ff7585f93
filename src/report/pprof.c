/* pprof.c: summary.md's CPU profiles (pprof's listings of the .prof
 * artifacts) and the artifacts' list (report-int.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/json.h"
#include "base/spawn.h"
#include "cli/cli.h"
#include "model/sample.h"
#include "report-int.h"

/* pprof's --text output, kept line by line. */
struct lines {
	char **v;
	size_t n, cap;
};

static int
keep_line(void *arg, char *line, size_t len, int complete)
{
	struct lines *l = arg;
	char *copy;

	(void)complete;
	if (l->n >= 400)
		return 0;	/* more than the summary shows */
	if (PROF_GROW(l->v, l->n + 1, l->cap) < 0)
		return 1;
	copy = strndup(line, len);
	if (!copy)
		return 1;
	l->v[l->n++] = copy;
	return 0;
}

static void
lines_free(struct lines *l)
{
	prof_strv_free(l->v, l->n);
}

/* Whether file, links resolved, is inside the folder dir. */
static int
inside(const char *dir, const char *file)
{
	char *d = realpath(dir, NULL), *f = realpath(file, NULL);
	size_t n;
	int in = 0;

	if (d && f) {
		n = strlen(d);
		in = !strncmp(d, f, n) && (f[n] == '/' || (n == 1 && d[0] == '/'));
	}
	free(d);
	free(f);
	return in;
}

/*
 * Run pprof --text on a profile and keep its lines. Returns 0, or -1 with
 * why filled (a missing file or binary, a failed pprof).
 */
static int
read_profile(struct report *r, const char *binary, const char *file,
	     struct lines *l, char *why, size_t n)
{
	/* "--": no value of a results file is ever taken for an option. */
	char *argv[] = {(char *)r->pprof, "--text", "--", (char *)binary,
			(char *)file, NULL};
	struct prof_spawn sp = {
		.argv = argv,
		.timeout_s = 120,
		.stdout_fd = PROF_SPAWN_PIPE,
		.on_line = keep_line,
		.arg = l,
		.stderr_fd = -1,
	};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	int rc = -1;

	if (access(file, R_OK) != 0) {
		snprintf(why, n, "%s: %s", file, strerror(errno));
		return -1;
	}
	if (!binary) {
		snprintf(why, n, "the sample has no metrics.binary");
		return -1;
	}
	if (binary[0] != '/') {
		char safe[256];

		snprintf(why, n, "metrics.binary '%s' is not an absolute path",
			 cli_safe(binary, safe, sizeof(safe)));
		return -1;
	}
	if (!inside(r->run_dir, file)) {
		snprintf(why, n, "%s leads outside the run folder", file);
		return -1;
	}
	if (prof_spawn_run(&sp, &res, &err) < 0) {
		prof_err_str(&err, why, n);
		return -1;
	}
	if (prof_spawn_ok(&res))
		rc = 0;
	else
		prof_spawn_describe(&res, r->pprof, sp.timeout_s, why, n);
	prof_spawn_free(&res);
	return rc;
}

/* One .prof artifact's listing read into p: the lines the summary shows,
 * or why there are none (said on stderr too). 0, or -1 out of memory. */
static int
load_profile(struct report *r, struct profile *p)
{
	char file[4096], why[4400] = "the path is too long";
	struct lines l = {0};
	size_t i, start = 0;
	int rc = -1;

	/* The readers refused absolute paths and "..": it is relative. */
	if (snprintf(file, sizeof(file), "%s/%s", r->run_dir, p->artifact) >=
		    (int)sizeof(file) ||
	    read_profile(r, p->binary, file, &l, why, sizeof(why)) < 0) {
		cli_say("warning: no CPU profile from '%s': %s", p->artifact,
			why);
		p->why = strdup(why);
		rc = p->why ? 0 : -1;
		goto out;
	}
	for (i = 0; i < l.n; i++)
		if (!strncmp(l.v[i], "Total:", 6)) {
			start = i;
			break;
		}
	/* The "Total:" line and the top functions, handed over. */
	for (i = start; i < l.n && p->n_shown <= TOP_FUNCTIONS; i++) {
		if (PROF_GROW(p->shown, p->n_shown + 1, p->cap_shown) < 0)
			goto out;
		p->shown[p->n_shown++] = l.v[i];
		l.v[i] = NULL;
	}
	rc = 0;
out:
	lines_free(&l);
	return rc;
}

/* One .prof artifact: its top functions, or why there are none. */
static void
write_profile(struct report *r, const struct profile *p)
{
	FILE *md = r->md;
	size_t i;

	fprintf(md, "### ");
	prof_md_write(md, p->workload, PROF_MD_CODE);
	fprintf(md, " (");
	prof_md_write(md, p->backend, PROF_MD_TEXT);
	fprintf(md, "): ");
	prof_md_write(md, p->artifact, PROF_MD_CODE);
	fprintf(md, "\n\n");
	if (p->why) {
		fprintf(md, "No profile: ");
		prof_md_write(md, p->why, PROF_MD_TEXT);
		fprintf(md, ".\n\n");
		return;
	}
	/* Indented, not fenced: no line of pprof's can end the block. */
	for (i = 0; i < p->n_shown; i++) {
		fputs("    ", md);
		prof_md_write(md, p->shown[i], PROF_MD_BLOCK);
		fputc('\n', md);
	}
	fputc('\n', md);
}

static int
is_prof(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && !strcmp(path + n - 5, ".prof");
}

static char *
dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* A sample's artifacts: a line each for the list, and the .prof files of
 * a profile sample for their top functions. */
int
rep_take_artifacts(struct report *r, struct json_object *s)
{
	struct json_object *arts = prof_json_get(s, "artifacts");
	int profile = prof_sample_is(s, "phase", "profile");
	size_t j, n = arts ? json_object_array_length(arts) : 0;

	for (j = 0; j < n; j++) {
		const char *a = json_object_get_string(
			json_object_array_get_idx(arts, j));
		struct profile *p;

		fprintf(r->artifacts_md, "- ");
		prof_md_write(r->artifacts_md, a, PROF_MD_CODE);
		fputc('\n', r->artifacts_md);
		r->artifacts++;
		if (!profile || !is_prof(a))
			continue;
		if (PROF_GROW(r->profiles, r->n_profiles + 1,
			      r->cap_profiles) < 0)
			return -1;
		p = &r->profiles[r->n_profiles++];
		memset(p, 0, sizeof(*p));
		p->workload = dup_or_null(prof_sample_str(s, "workload"));
		p->backend = dup_or_null(prof_sample_str(s, "backend"));
		p->binary = dup_or_null(prof_json_str(prof_json_get(s, "metrics"),
						      "binary"));
		p->artifact = strdup(a);
		if (!p->workload || !p->backend || !p->artifact)
			return -1;
	}
	return 0;
}

int
rep_load_profiles(struct report *r)
{
	size_t i;

	for (i = 0; i < r->n_profiles; i++)
		if (load_profile(r, &r->profiles[i]) < 0)
			return -1;
	return 0;
}

void
rep_write_profiles(struct report *r)
{
	size_t i;

	for (i = 0; i < r->n_profiles; i++) {
		if (!i)
			fprintf(r->md,
				"## CPU profile\n\nThe top %d functions of "
				"each profile, by samples in the function "
				"itself (google-pprof --text).\n\n",
				TOP_FUNCTIONS);
		write_profile(r, &r->profiles[i]);
	}
}

void
rep_write_artifacts(struct report *r)
{
	if (!r->artifacts)
		return;
	fprintf(r->md, "## Artifacts\n\nRelative to the run folder:\n\n");
	rep_copy_spool(r->artifacts_md, r->md);
	fputc('\n', r->md);
}
