/* read.c: a comparison object read into a typed verdict (read.h). */
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

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return -1;
	return json_object_get_int64(v);
}

static void
side(struct json_object *o, const char *key, struct prof_verdict_side *s)
{
	struct json_object *d = json_object_object_get(o, key);

	s->n = whole(d, "n");
	if (s->n < 0)
		s->n = 0;
	s->min = prof_json_numf(d, "min");
	s->median = prof_json_numf(d, "median");
	s->p90 = prof_json_numf(d, "p90");
	s->max = prof_json_numf(d, "max");
	s->workload_version = whole(d, "workload_version");
	s->fixture_checksum = prof_json_str(d, "fixture_checksum");
	s->output_checksum = prof_json_str(d, "output_checksum");
	s->output_other = prof_json_str(d, "output_checksum_other");
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
	v->delta_ms = prof_json_numf(o, "delta_ms");
	v->delta_pct = prof_json_numf(o, "delta_pct");
	v->ratio = prof_json_numf(o, "ratio");
	v->p_value = prof_json_numf(o, "p_value");
	v->threshold_pct = prof_json_numf(o, "threshold_pct");
	v->delta = prof_json_numf(o, "delta");
	v->floor = prof_json_numf(o, "floor");
	v->judged_on = prof_json_str(o, "judged_on");
	v->drift = prof_json_str(o, "drift");
	v->above = whole(o, "above_baseline_median");
	v->below = whole(o, "below_baseline_median");
	v->needed = whole(o, "needed_above");
	side(o, "current", &v->cur);
	side(o, "baseline", &v->base);
	return rc;
}
