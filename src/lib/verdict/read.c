/* read.c: a comparison object read into a typed verdict (read.h): the
 * one place that knows comparisons.json's keys on the reading side, as
 * write.c is on the writing side (and prof-why's, for what it adds). */
#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "verdict/read.h"
#include "verdict/table.h"

/* The integer at key, or -1 for null, absent or not an integer. */
static long long
whole(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return -1;
	return json_object_get_int64(v);
}

/* The boolean at key: 1, 0, or -1 for null or absent. */
static int
boolean(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return -1;
	return json_object_get_boolean(v);
}

/* The array at key, or NULL. */
static struct json_object *
array(struct json_object *o, const char *key)
{
	struct json_object *a = prof_json_get(o, key);

	return json_object_is_type(a, json_type_array) ? a : NULL;
}

static size_t
length(struct json_object *a)
{
	return a ? json_object_array_length(a) : 0;
}

/* The keys of what a memory site or profile counts (enum
 * prof_verdict_mem_count), as prof-why writes them. */
static const char *const mem_keys[PROF_VERDICT_MEM_COUNTS] = {
	"bytes_before",	   "bytes_after",    "allocs_before",
	"allocs_after",	   "max_live_before", "max_live_after",
};

static void
side(struct json_object *o, const char *key, struct prof_verdict_side *s)
{
	struct json_object *d = prof_json_get(o, key);
	struct json_object *sp;

	s->n = whole(d, "n");
	if (s->n < 0)
		s->n = 0;
	s->min = prof_json_numf(d, "min");
	s->median = prof_json_numf(d, "median");
	s->p90 = prof_json_numf(d, "p90");
	s->max = prof_json_numf(d, "max");
	s->errors = whole(d, "errors");
	s->workload_version = whole(d, "workload_version");
	s->fixture_checksum = prof_json_str(d, "fixture_checksum");
	s->output_checksum = prof_json_str(d, "output_checksum");
	s->output_other = prof_json_str(d, "output_checksum_other");
	s->contended = whole(prof_json_get(o, "contended"), key);
	s->queue_pct = prof_json_numf(prof_json_get(o, "queue_pct"), key);
	s->deterministic = boolean(prof_json_get(o, "deterministic"), key);
	sp = prof_json_get(prof_json_get(o, "spread"), key);
	s->spread.known = json_object_is_type(sp, json_type_object);
	s->spread.index = whole(sp, "index");
	s->spread.min = prof_json_numf(sp, "min");
	s->spread.max = prof_json_numf(sp, "max");
}

static void
ab(struct json_object *o, struct prof_verdict_ab *a)
{
	struct json_object *d = prof_json_get(o, "interleaved");

	a->present = json_object_is_type(d, json_type_object);
	if (!a->present)
		return;
	a->repeat = whole(d, "repeat");
	a->max_repeat = whole(d, "max_repeat");
	a->samples_a_side = whole(d, "samples_a_side");
	a->judged_current = whole(d, "judged_current");
	a->judged_baseline = whole(d, "judged_baseline");
	a->settled = boolean(d, "settled") == 1;
	a->uncontended_only = boolean(d, "uncontended_only") == 1;
	a->judged_on = prof_json_str(d, "judged_on");
	a->wall_ratio_low = prof_json_numf(d, "wall_ratio_low");
	a->wall_ratio_high = prof_json_numf(d, "wall_ratio_high");
	a->ratio_low = prof_json_numf(d, "ratio_low");
	a->ratio_high = prof_json_numf(d, "ratio_high");
	a->confidence = prof_json_numf(d, "confidence");
}

/* prof-why's explanation under fkey, with its files under akey. */
static void
why(struct json_object *o, const char *fkey, const char *akey,
    struct prof_verdict_why *w)
{
	struct json_object *a = prof_json_get(o, akey);

	w->key = fkey;
	w->fns_ = array(o, fkey);
	w->present = w->fns_ != NULL;
	w->n = length(w->fns_);
	w->has_artifacts = json_object_is_type(a, json_type_object);
	w->before = prof_json_str(a, "before");
	w->after = prof_json_str(a, "after");
	w->listing = prof_json_str(a, "listing");
	w->unit = prof_json_str(a, "unit");
	w->total_before = whole(a, "total_before");
	w->total_after = whole(a, "total_after");
}

static void
sites(struct json_object *o, struct prof_verdict_sites *s)
{
	struct json_object *a = prof_json_get(o, "memory_sites_artifacts");
	int k;

	s->sites_ = array(o, "memory_sites");
	s->n = length(s->sites_);
	s->note = prof_json_str(o, "memory_sites_note");
	s->has_artifacts = json_object_is_type(a, json_type_object);
	s->before = prof_json_str(a, "before");
	s->after = prof_json_str(a, "after");
	s->by = prof_json_str(a, "by");
	s->scope_before = prof_json_str(a, "scope_before");
	s->scope_after = prof_json_str(a, "scope_after");
	for (k = 0; k < PROF_VERDICT_MEM_COUNTS; k++)
		s->total[k] = whole(a, mem_keys[k]);
}

int
prof_verdict_read_key(struct json_object *o, struct prof_verdict *v)
{
	const char *phase;
	int rc = 0;

	memset(v, 0, sizeof(*v));
	if (!json_object_is_type(o, json_type_object))
		return -1;
	v->run_id = prof_json_str(o, "run_id");
	v->workload = prof_json_str(o, "workload");
	v->backend = prof_json_str(o, "backend");
	v->category = prof_json_str(o, "category");
	v->segment = prof_json_str(o, "segment");
	phase = prof_json_str(o, "phase");
	if (!phase || !strcmp(phase, "timing"))
		v->phase = PROF_VERDICT_TIME;
	else if (!strcmp(phase, "instructions"))
		v->phase = PROF_VERDICT_COUNT;
	else if (!strcmp(phase, "memory"))
		v->phase = PROF_VERDICT_MEMORY;
	else
		rc = -1;
	if (v->phase == PROF_VERDICT_MEMORY) {
		v->metric = prof_cmp_metric_find(prof_json_str(o, "metric"));
		if (!v->metric)
			rc = -1;
	}
	return rc;
}

int
prof_verdict_read(struct json_object *o, struct prof_verdict *v)
{
	int rc = prof_verdict_read_key(o, v);

	if (!json_object_is_type(o, json_type_object))
		return -1;
	v->status_name = prof_json_str(o, "status");
	if (prof_cmp_status_of(v->status_name, &v->status) < 0)
		rc = -1;
	v->reason = prof_json_str(o, "reason");
	v->workload_version = whole(o, "workload_version");
	v->fixture_checksum = prof_json_str(o, "fixture_checksum");
	v->warning_floor_ms = prof_json_numf(o, "warning_floor_ms");
	v->delta_ms = prof_json_numf(o, "delta_ms");
	v->delta_pct = prof_json_numf(o, "delta_pct");
	v->ratio = prof_json_numf(o, "ratio");
	v->p_value = prof_json_numf(o, "p_value");
	v->threshold_pct = prof_json_numf(o, "threshold_pct");
	v->delta = prof_json_numf(o, "delta");
	v->delta_instructions = prof_json_numf(o, "delta_instructions");
	v->floor = prof_json_numf(o, "floor");
	v->unit = prof_json_str(o, "unit");
	v->rule = prof_json_str(o, "rule");
	v->judged_on = prof_json_str(o, "judged_on");
	v->drift = prof_json_str(o, "drift");
	v->above = whole(o, "above_baseline_median");
	v->below = whole(o, "below_baseline_median");
	v->needed = whole(o, "needed_above");
	v->errors = whole(o, "errors");
	v->segs_ = array(o, "baseline_segments");
	v->has_baseline_segments = v->segs_ != NULL;
	v->n_baseline_segments = length(v->segs_);
	ab(o, &v->ab);
	side(o, "current", &v->cur);
	side(o, "baseline", &v->base);
	why(o, "functions", "functions_artifacts",
	    &v->why[PROF_VERDICT_WHY_COUNT]);
	why(o, "time_functions", "time_artifacts",
	    &v->why[PROF_VERDICT_WHY_TIME]);
	sites(o, &v->sites);
	return rc;
}

int
prof_verdict_fn(const struct prof_verdict *v, enum prof_verdict_why_kind kind,
		size_t i, struct prof_verdict_fn *f)
{
	struct json_object *o;

	memset(f, 0, sizeof(*f));
	if ((unsigned)kind >= PROF_VERDICT_WHY_N || i >= v->why[kind].n)
		return -1;
	o = json_object_array_get_idx(v->why[kind].fns_, i);
	f->name = prof_json_str(o, "name");
	f->file = prof_json_str(o, "file");
	f->file_before = prof_json_str(o, "file_before");
	f->state = prof_json_str(o, "state");
	f->self_before = whole(o, "self_before");
	f->self_after = whole(o, "self_after");
	f->incl_before = whole(o, "inclusive_before");
	f->incl_after = whole(o, "inclusive_after");
	f->share = prof_json_numf(o, "share");
	f->incl_share = prof_json_numf(o, "inclusive_share");
	return 0;
}

int
prof_verdict_site(const struct prof_verdict *v, size_t i,
		  struct prof_verdict_site *s)
{
	struct json_object *o;
	int k;

	memset(s, 0, sizeof(*s));
	if (i >= v->sites.n)
		return -1;
	o = json_object_array_get_idx(v->sites.sites_, i);
	s->name = prof_json_str(o, "name");
	s->file = prof_json_str(o, "file");
	s->state = prof_json_str(o, "state");
	for (k = 0; k < PROF_VERDICT_MEM_COUNTS; k++)
		s->v[k] = whole(o, mem_keys[k]);
	s->share = prof_json_numf(o, "share");
	return 0;
}

const char *
prof_verdict_baseline_segment(const struct prof_verdict *v, size_t i)
{
	if (i >= v->n_baseline_segments)
		return NULL;
	return json_object_get_string(
		json_object_array_get_idx(v->segs_, i));
}

long long
prof_verdict_count(long long v)
{
	return v < 0 ? 0 : v;
}
