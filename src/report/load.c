/*
 * load.c: the one loader of a run (load.h), for every page of it: the
 * results streamed into the view, the comparisons (prof-diff's, or made
 * here) and the pass over the samples for the summary, the compact table
 * and the annotations (struct report); then what
 * report.html draws (struct rep_drawn): the rows drawn whole, the
 * baseline, the history and, one at a time as the page's blocks are
 * written, a row's trend and a flame graph's two call graphs. What is too
 * large to hold for every row at once (a trend, two call graphs) is read
 * when its block is written, and let go after it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/grow.h"
#include "base/json.h"
#include "cli/cli.h"
#include "model/callgrind.h"
#include "model/sample.h"
#include "why/why.h"
#include "report-int.h"
#include "runpage.h"

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
	rep_drawn_free(&r->drawn);
	prof_runview_free(&r->view);
}

/* What report.html draws. */

/* rep_row_key()'s key in buf (n bytes) where it fits, else allocated;
 * NULL when out of memory. A caller frees it where it is not buf. */
static char *
row_key(char *buf, size_t n, const char *w, const char *b, const char *s,
	size_t *len)
{
	size_t lw = strlen(w), lb = strlen(b), ls = strlen(s);
	char *k = lw + lb + ls + 3 <= n ? buf : malloc(lw + lb + ls + 3);

	if (!k)
		return NULL;
	memcpy(k, w, lw + 1);
	memcpy(k + lw + 1, b, lb + 1);
	memcpy(k + lw + lb + 2, s, ls + 1);
	*len = lw + lb + ls + 2;
	return k;
}

char *
rep_row_key(const char *w, const char *b, const char *s, size_t *len)
{
	return row_key(NULL, 0, w, b, s, len);
}

/* The key of a sample's row or block is made on the stack: the walks ask
 * once a sample. */
#define KEY_ROOM 512

int
rep_block_drawn(const struct prof_htab *drawn, const char *w, const char *b)
{
	char buf[KEY_ROOM], *key;
	size_t len;
	long k;

	if (!drawn)
		return 1;
	key = row_key(buf, sizeof(buf), w ? w : "", b ? b : "", "", &len);
	k = key ? prof_htab_get(drawn, key, len) : 0;
	if (key != buf)
		free(key);
	return k >= 0;
}

/* Whether the rows of w and b are loaded (prof_runview_load_only()'s
 * keep: of the blocks drawn). */
static int
keep_drawn(void *arg, const char *w, const char *b)
{
	return rep_block_drawn(arg, w, b);
}

/* Take sample s's own time or its want of a delay into its row's extra
 * (prof_runview_load_only()'s callback: it sees every sample). */
static int
extras_take(void *arg, struct json_object *s, struct prof_err *err)
{
	struct rep_extras *x = arg;
	const char *w = prof_json_str(s, "workload");
	const char *b = prof_json_str(s, "backend");
	const char *sid = prof_json_str(s, "segment_id");
	struct rep_extra *e;
	char buf[KEY_ROOM], *key;
	size_t len;
	long k;
	double own;

	if (!prof_runview_aggregated(s) || !rep_block_drawn(x->drawn, w, b))
		return 0;
	key = row_key(buf, sizeof(buf), w ? w : "", b ? b : "",
		      sid ? sid : "", &len);
	if (!key)
		return prof_err_set(err, "out of memory");
	k = prof_htab_get(&x->index, key, len);
	/* A row's first sample: its extra keeps the key (NUL-ended, for
	 * extras_map()). */
	if (k < 0) {
		char *kept = key == buf ? malloc(len + 1) : key;

		if (!kept || PROF_GROW(x->e, x->n + 1, x->cap) < 0 ||
		    prof_htab_put(&x->index, key, len, (long)x->n) < 0) {
			free(kept);
			return prof_err_set(err, "out of memory");
		}
		if (kept != key)
			memcpy(kept, key, len + 1);
		k = (long)x->n;
		memset(&x->e[x->n], 0, sizeof(x->e[x->n]));
		x->e[x->n].key = kept;
		x->e[x->n].len = len;
		x->n++;
	} else if (key != buf) {
		free(key);
	}
	e = &x->e[k];
	if (PROF_GROW(e->cont, e->n_cont + 1, e->cap_cont) < 0)
		return prof_err_set(err, "out of memory");
	/* json-c's boolean of no member is false. */
	e->cont[e->n_cont++] =
		json_object_get_boolean(prof_json_get(s, "contended"));
	own = prof_sample_own_ms(s);
	if (!prof_sample_run_delay(s, NULL) || isnan(own)) {
		e->no_delay++;
		return 0;
	}
	if (PROF_GROW(e->own, e->n_own + 1, e->cap_own) < 0)
		return prof_err_set(err, "out of memory");
	e->own[e->n_own++] = own;
	return 0;
}

/* Each row of v (n of them) to its extra, once v is loaded (the
 * segment ids resolve only then). Returns 0 or -1. */
static int
extras_map(struct rep_extras *x, const struct prof_runview *v, size_t n,
	   struct prof_err *err)
{
	size_t i;

	x->of_row = malloc((n + 1) * sizeof(*x->of_row));
	if (!x->of_row)
		return prof_err_set(err, "out of memory");
	for (i = 0; i < n; i++)
		x->of_row[i] = -1;
	for (i = 0; i < x->n; i++) {
		const char *w = x->e[i].key, *b = w + strlen(w) + 1;
		const char *sid = b + strlen(b) + 1;
		long r = prof_runview_row(v, w, b,
					  prof_runview_segment(v, sid));

		if (r >= 0 && (size_t)r < n)
			x->of_row[r] = (long)i;
	}
	return 0;
}

const struct rep_extra *
rep_extra_of(const struct rep_extras *x, long k)
{
	long i = x->of_row && k >= 0 ? x->of_row[k] : -1;

	return i < 0 ? NULL : &x->e[i];
}

static void
extras_free(struct rep_extras *x)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		free(x->e[i].key);
		free(x->e[i].own);
		free(x->e[i].cont);
	}
	free(x->e);
	free(x->of_row);
	prof_htab_free(&x->index);
}

/* One side's rows of the blocks drawn (NULL: all), whole, into v, and
 * their extras into x. Returns 0 or -1; free both, also on failure. */
static int
load_side(struct prof_runview *v, struct rep_extras *x, const char *path,
	  const struct prof_htab *drawn, struct prof_err *err)
{
	const struct prof_runrow *rows;
	int rc;

	/* The choice is the page's: kept while the walk asks, no longer. */
	x->drawn = drawn;
	rc = prof_runview_load_only(v, path, drawn ? keep_drawn : NULL,
				    (void *)drawn, extras_take, x, err);
	x->drawn = NULL;
	if (rc < 0)
		return -1;
	return extras_map(x, v, prof_runview_rows(v, &rows), err);
}

/*
 * The run folder's baseline.json, where no baseline is given and the
 * run was compared (make compare writes its reference side there): its
 * samples are drawn where they are those a row was judged against
 * (rp_time_baseline_of()). A file that cannot be read is left out, as a
 * missing one: the comparisons' statistics are drawn instead.
 */
static void
load_found(struct rep_drawn *d, const char *path,
	   const struct prof_htab *drawn)
{
	struct prof_err lerr = {0};

	if (load_side(&d->base, &d->bx, path, drawn, &lerr) < 0) {
		prof_runview_free(&d->base);
		extras_free(&d->bx);
		memset(&d->bx, 0, sizeof(d->bx));
		return;
	}
	d->has_base = d->found_base = 1;
	d->bn = (long)prof_runview_rows(&d->base, &d->brows);
}

/* The baseline's rows by key, once: the page finds each row's in
 * constant time (a search per row made it quadratic), the first of equal
 * keys kept, as a search from the start would find. The comparisons
 * have their own index (cmpview.h; time and counts apart: a hand-made
 * count may share its time row's segment). */
static int
index_base(struct rep_drawn *d, struct prof_err *err)
{
	long k;

	for (k = 0; k < d->bn; k++) {
		const struct prof_runrow *r = &d->brows[k];
		size_t len;
		char *key = rep_row_key(r->workload, r->backend, r->segment,
					&len);
		int ok = key && (prof_htab_get(&d->base_index, key, len) >= 0 ||
				 prof_htab_put(&d->base_index, key, len,
					       k) == 0);

		free(key);
		if (!ok)
			return prof_err_set(err, "out of memory");
	}
	return 0;
}

int
rep_load_drawn(struct rep_drawn *d, const struct prof_runpage_in *in,
	       const struct prof_htab *drawn, struct prof_err *err)
{
	const char *path = prof_runview_path(in->cur);
	struct stat sb;
	char found[4200];

	d->comparisons_path = in->comparisons_path;
	/* The rows drawn, whole: of a summarised page, those of the blocks
	 * it chose only. */
	d->has_whole = 1;
	if (load_side(&d->whole, &d->wx, path, drawn, err) < 0)
		return -1;
	if (strcmp(d->whole.digest, in->cur->digest))
		return prof_err_at(err, path, 0, 0, "changed while it was read");
	d->n = (long)prof_runview_rows(&d->whole, &d->rows);
	if (!in->baseline && in->cmp && in->run_dir && in->run_dir[0] &&
	    snprintf(found, sizeof(found), "%s/baseline.json",
		     in->run_dir) < (int)sizeof(found) &&
	    stat(found, &sb) == 0 && S_ISREG(sb.st_mode))
		load_found(d, found, drawn);
	else if (in->baseline && stat(in->baseline, &sb) == 0) {
		d->has_base = 1;
		/* Of a summarised page, the baseline rows it draws only. */
		if (load_side(&d->base, &d->bx, in->baseline, drawn, err) < 0)
			return -1;
		d->bn = (long)prof_runview_rows(&d->base, &d->brows);
	}
	if (in->history) {
		d->hist = prof_history_open(in->history, 0, err);
		if (!d->hist ||
		    (in->project && prof_history_many_projects(d->hist) &&
		     prof_history_project(d->hist, in->project, err) < 0))
			return -1;
	}
	return index_base(d, err);
}

void
rep_drawn_free(struct rep_drawn *d)
{
	prof_history_close(d->hist);
	prof_htab_free(&d->base_index);
	extras_free(&d->wx);
	extras_free(&d->bx);
	if (d->has_base)
		prof_runview_free(&d->base);
	if (d->has_whole)
		prof_runview_free(&d->whole);
}

int
rep_trend_of(const struct rep_drawn *d, const struct prof_runrow *r,
	     struct json_object **all, struct json_object **changes,
	     struct prof_err *err)
{
	struct prof_history_filter f = {r->workload, r->backend, r->segment_id};

	*changes = NULL;
	*all = prof_history_trend(d->hist, &f, err);
	if (!*all)
		return -1;
	*changes = prof_history_changes(d->hist, &f, NULL, err);
	return *changes ? 0 : -1;
}

/* An artifact path of the comparisons (relative to their folder). */
static void
cmp_path(const struct rep_drawn *d, const char *a, char *out, size_t n)
{
	const char *c = d->comparisons_path ? d->comparisons_path : "",
		   *slash = strrchr(c, '/');

	if (a[0] == '/' || !slash)
		snprintf(out, n, "%s", a);
	else
		snprintf(out, n, "%.*s/%s", (int)(slash - c), c, a);
}

int
rep_graphs_of(const struct rep_drawn *d, const struct prof_verdict_why *w,
	      int per_call, struct prof_callgrind_profile *before,
	      struct prof_callgrind_profile *after, struct prof_err *err)
{
	char pb[4096], pa[4096];

	cmp_path(d, w->before ? w->before : "", pb, sizeof(pb));
	cmp_path(d, w->after ? w->after : "", pa, sizeof(pa));
	/* C++ names demangled as prof-why's tables have them (c++filt; as
	 * they are when it cannot be run); CPU samples per call, as its
	 * time_functions are: the sides may cover different numbers of calls,
	 * and raw samples would colour a frame by that */
	if (prof_callgrind_load(pb, before, err) < 0 ||
	    prof_callgrind_load(pa, after, err) < 0 ||
	    prof_why_demangle(before, "c++filt", err) < 0 ||
	    prof_why_demangle(after, "c++filt", err) < 0 ||
	    (per_call && (prof_callgrind_per_call(before, pb, err) < 0 ||
			  prof_callgrind_per_call(after, pa, err) < 0)))
		return -1;
	return 0;
}
