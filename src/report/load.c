/* load.c: a run for its summary: the results streamed into the view, the
 * comparisons (prof-diff's, or made here) and the pass over the samples
 * (report-int.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/grow.h"
#include "base/json.h"
#include "cli/cli.h"
#include "model/sample.h"
#include "report-int.h"

/* An error sample's line of the summary, kept until it is written. */
static void
take_error(struct report *r, struct json_object *s)
{
	FILE *md = r->errors_md;

	fprintf(md, "- ");
	prof_md_write(md, prof_sample_str(s, "workload"), PROF_MD_CODE);
	fprintf(md, " (");
	prof_md_write(md, prof_sample_str(s, "backend"), PROF_MD_TEXT);
	fprintf(md, ", phase %s, %s #%.0f): ", prof_sample_str(s, "phase"),
		prof_sample_str(s, "kind"), prof_json_numf(s, "index"));
	prof_md_write(md, prof_sample_str(s, "reason"), PROF_MD_TEXT);
	fputc('\n', md);
}

/* The keys of the rows of one sample of the results, which the
 * comparisons must hold exactly. */
static int
take_key(void *arg, struct json_object *s, struct prof_err *err)
{
	struct report *r = arg;

	return prof_cmp_rows_sample(&r->keys, s,
				    prof_json_str(s, "segment_id"), err);
}

/* One sample of the results, as the view is loaded. */
static int
take(void *arg, struct json_object *s, struct prof_err *err)
{
	struct report *r = arg;
	const char *eid = prof_json_str(s, "env_id");

	if (prof_sample_is(s, "outcome", "error")) {
		r->errors++;
		take_error(r, s);
	}
	if (prof_json_str(s, "checksum_reason") &&
	    !prof_json_str(s, "checksum") && !r->unchecked++)
		snprintf(r->unchecked_why, sizeof(r->unchecked_why), "%s",
			 prof_json_str(s, "checksum_reason"));
	if (prof_htab_get(&r->env_index, eid, strlen(eid)) < 0) {
		if (PROF_GROW(r->envs, r->n_envs + 1, r->cap_envs) < 0)
			return prof_err_set(err, "out of memory");
		r->envs[r->n_envs] = strdup(eid);
		if (!r->envs[r->n_envs] ||
		    prof_htab_put(&r->env_index, eid, strlen(eid),
				  (long)r->n_envs) < 0)
			return prof_err_set(err, "out of memory");
		r->n_envs++;
	}
	if (rep_take_artifacts(r, s) < 0)
		return prof_err_set(err, "out of memory");
	/* The rows: when judged their keys only, which the comparisons must
	 * hold exactly (of a regular file, in a walk of their own). */
	if (r->judged && r->keys_apart)
		return 0;
	if (r->judged)
		return take_key(r, s, err);
	return prof_cmp_take(&r->cmp, s, prof_json_str(s, "segment_id"), err);
}

static const char *
segment_of(void *view, const char *id)
{
	return prof_runview_segment(view, id);
}

/* The comparisons prof-diff wrote, each checked as it is read. A regular
 * file is checked in a pass of its own, and the results' row keys go
 * before the comparisons are kept: the two tables are never in memory
 * together (a third of the peak of 200,000 rows). Stdin or a pipe is
 * read once, checked as it is kept. */
int
rep_load_comparisons(struct report *r, const char *comparisons)
{
	const char *run_id = prof_json_str(r->meta, "run_id");
	struct prof_err err = {0};
	struct stat sb;
	int twice = strcmp(comparisons, "-") && stat(comparisons, &sb) == 0 &&
		    S_ISREG(sb.st_mode);

	if (twice && prof_cmpview_load(NULL, comparisons, run_id, &r->keys,
				       &err) < 0)
		goto fail;
	if (twice)
		prof_cmp_rows_free(&r->keys);
	if (prof_cmpview_load(&r->rows, comparisons, run_id,
			      twice ? NULL : &r->keys, &err) < 0)
		goto fail;
	r->judged = 1;
	return 0;
fail:
	prof_err_file(&err, comparisons);
	cli_err(&err);
	return -1;
}

/* Once the comparisons are there, the results' own rows are not needed. */
void
rep_drop_cmp(struct report *r)
{
	prof_cmp_free(&r->cmp);
	memset(&r->cmp, 0, sizeof(r->cmp));
	prof_cmp_rows_free(&r->keys);
}

/* Read the results once: the view's rows, and every sample through
 * take(). */
int
rep_load_results(struct report *r, const char *path, int judged)
{
	const struct prof_runbrief *rows;
	struct prof_err err = {0};
	struct stat sb;

	r->errors_md = tmpfile();
	r->artifacts_md = tmpfile();
	if (!r->errors_md || !r->artifacts_md) {
		cli_say("cannot make a temporary file: %s", strerror(errno));
		return -1;
	}
	if (judged)
		prof_cmp_rows_begin(&r->keys);
	/* A regular file is walked again for the rows' keys, once the
	 * view's walk has let go of what it kept while walking: the two are
	 * never in memory together. */
	r->keys_apart = judged && strcmp(path, "-") && stat(path, &sb) == 0 &&
			S_ISREG(sb.st_mode);
	if (prof_runview_load_brief(&r->view, path, take, r, &err) < 0 ||
	    (r->keys_apart &&
	     prof_runview_each(&r->view, take_key, r, &err) < 0)) {
		cli_err(&err);
		return -1;
	}
	r->meta = r->view.meta;
	r->mem_used = calloc(prof_runview_briefs(&r->view, &rows) + 1, 1);
	if (!r->mem_used) {
		cli_say("out of memory");
		return -1;
	}
	if (judged ? prof_cmp_rows_close(&r->keys, segment_of, &r->view,
					 &err) < 0 :
		     prof_cmp_close(&r->cmp, segment_of, &r->view, &err) < 0 ||
			     prof_cmp_set_run(&r->cmp,
					      prof_json_str(r->meta,
							    "run_id")) < 0 ||
			     prof_cmpview_from(&r->rows, &r->cmp, &err) < 0) {
		cli_err(&err);
		return -1;
	}
	return 0;
}

void
rep_report_free(struct report *r)
{
	size_t i;

	prof_strv_free(r->envs, r->n_envs);
	for (i = 0; i < r->n_profiles; i++) {
		free(r->profiles[i].workload);
		free(r->profiles[i].backend);
		free(r->profiles[i].binary);
		free(r->profiles[i].artifact);
		prof_strv_free(r->profiles[i].shown, r->profiles[i].n_shown);
		free(r->profiles[i].why);
	}
	free(r->profiles);
	free(r->mem_used);
	prof_htab_free(&r->env_index);
	if (r->errors_md)
		fclose(r->errors_md);
	if (r->artifacts_md)
		fclose(r->artifacts_md);
	prof_cmp_free(&r->cmp);
	prof_cmp_rows_free(&r->keys);
	prof_cmpview_free(&r->rows);
	prof_cmpview_free(&r->mem_rows);
	prof_runview_free(&r->view);
}
