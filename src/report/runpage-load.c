/* runpage-load.c: what report.html reads, and nothing else does: the
 * rows drawn whole, the baseline (given, or the run folder's), the
 * history and, one at a time as the writers ask, a row's trend and the
 * two call graphs of a flame graph. The writers open no file: what is
 * too large to hold for every row at once (a trend, two call graphs) is
 * read here when its block is written, and let go after it. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "model/callgrind.h"
#include "why/why.h"
#include "runpage-int.h"

/* Links go from the page's folder to the run folder's artifacts. */
static void
link_prefix(struct page *p)
{
	const char *out = p->in->output, *slash = strrchr(out, '/');
	char dir[4096];

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - out) : 1,
		 slash ? out : ".");
	if (!strcmp(dir, p->in->run_dir) || !p->in->run_dir[0])
		p->prefix[0] = '\0';
	else
		snprintf(p->prefix, sizeof(p->prefix), "%s/", p->in->run_dir);
}

/*
 * The run folder's baseline.json, where no baseline is given and the
 * run was compared (make compare writes its reference side there): its
 * samples are drawn where they are those a row was judged against
 * (rp_time_baseline_of()). A file that cannot be read is left out, as a
 * missing one: the comparisons' statistics are drawn instead.
 */
static void
load_found(struct page *p, const char *path)
{
	struct prof_err lerr = {0};
	const struct prof_runrow *rows;

	if (prof_runview_load_only(&p->base, path,
				   p->summarise ? rp_drawn_wb : NULL, p,
				   rp_extras_take, &p->bx, &lerr) < 0 ||
	    rp_extras_map(&p->bx, &p->base, prof_runview_rows(&p->base, &rows),
			  &lerr) < 0) {
		prof_runview_free(&p->base);
		rp_extras_free(&p->bx);
		memset(&p->bx, 0, sizeof(p->bx));
		p->bx.p = p;
		return;
	}
	p->has_base = p->found_base = 1;
	p->bn = (long)prof_runview_rows(&p->base, &p->brows);
}

int
rp_page_load(struct page *p, struct prof_err *err)
{
	const struct prof_runpage_in *in = p->in;
	struct stat sb;
	char found[4200];

	/* The rows drawn, whole: of a summarised page, those of the blocks
	 * tally() chose only (runpage.c, before this). */
	p->has_whole = 1;
	p->wx.p = p->bx.p = p;
	if (prof_runview_load_only(&p->whole, prof_runview_path(p->cur),
				   p->summarise ? rp_drawn_wb : NULL, p,
				   rp_extras_take, &p->wx, err) < 0)
		return -1;
	if (strcmp(p->whole.digest, p->cur->digest))
		return prof_err_at(err, prof_runview_path(p->cur), 0, 0,
				   "changed while it was read");
	p->n = (long)prof_runview_rows(&p->whole, &p->rows);
	if (rp_extras_map(&p->wx, &p->whole, (size_t)p->n, err) < 0)
		return -1;
	if (!in->baseline && p->cmp && in->run_dir && in->run_dir[0] &&
	    snprintf(found, sizeof(found), "%s/baseline.json",
		     in->run_dir) < (int)sizeof(found) &&
	    stat(found, &sb) == 0 && S_ISREG(sb.st_mode))
		load_found(p, found);
	else if (in->baseline && stat(in->baseline, &sb) == 0) {
		p->has_base = 1;
		/* Of a summarised page, the baseline rows it draws only. */
		if (prof_runview_load_only(&p->base, in->baseline,
					   p->summarise ? rp_drawn_wb : NULL,
					   p, rp_extras_take, &p->bx,
					   err) < 0)
			return -1;
		p->bn = (long)prof_runview_rows(&p->base, &p->brows);
		if (rp_extras_map(&p->bx, &p->base, (size_t)p->bn, err) < 0)
			return -1;
	}
	if (in->history) {
		p->hist = prof_history_open(in->history, 0, err);
		if (!p->hist ||
		    (in->project && prof_history_many_projects(p->hist) &&
		     prof_history_project(p->hist, in->project, err) < 0))
			return -1;
	}
	if (rp_index_rows(p, err) < 0)
		return -1;
	link_prefix(p);
	return 0;
}

void
rp_page_free(struct page *p)
{
	prof_history_close(p->hist);
	prof_htab_free(&p->base_index);
	prof_htab_free(&p->drawn_index);
	rp_extras_free(&p->wx);
	rp_extras_free(&p->bx);
	if (p->has_base)
		prof_runview_free(&p->base);
	if (p->has_whole)
		prof_runview_free(&p->whole);
}

int
rp_trend_of(struct page *p, const struct prof_runrow *r,
	    struct json_object **all, struct json_object **changes,
	    struct prof_err *err)
{
	struct prof_history_filter f = {r->workload, r->backend, r->segment_id};

	*changes = NULL;
	*all = prof_history_trend(p->hist, &f, err);
	if (!*all)
		return -1;
	*changes = prof_history_changes(p->hist, &f, NULL, err);
	return *changes ? 0 : -1;
}

/* An artifact path of the comparisons (relative to their folder). */
static void
cmp_path(struct page *p, const char *a, char *out, size_t n)
{
	const char *c = p->in->comparisons_path ? p->in->comparisons_path : "",
		   *slash = strrchr(c, '/');

	if (a[0] == '/' || !slash)
		snprintf(out, n, "%s", a);
	else
		snprintf(out, n, "%.*s/%s", (int)(slash - c), c, a);
}

int
rp_graphs_of(struct page *p, const struct prof_verdict_why *w, int per_call,
	     struct prof_callgrind_profile *before,
	     struct prof_callgrind_profile *after, struct prof_err *err)
{
	char pb[4096], pa[4096];

	cmp_path(p, w->before ? w->before : "", pb, sizeof(pb));
	cmp_path(p, w->after ? w->after : "", pa, sizeof(pa));
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
