/* write.c: the comparison objects of judged rows, as comparisons.json holds
 * them (the one writer of its format; verdict/check.c checks it). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "verdict/internal.h"
#include "verdict/verdict.h"

/* A number, or null for NAN. */
static struct json_object *
num(double v)
{
	return isfinite(v) ? prof_json_double(v) : NULL;
}

static struct json_object *
str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *
side_json(const struct prof_cmp_side *s, int known)
{
	struct json_object *o = json_object_new_object();
	int has = s->st.n > 0;

	if (!o)
		return NULL;
	json_object_object_add(o, "n", json_object_new_int64((int64_t)s->n));
	json_object_object_add(o, "min", has ? num(s->st.min) : NULL);
	json_object_object_add(o, "median", has ? num(s->st.median) : NULL);
	json_object_object_add(o, "p90", has ? num(s->st.p90) : NULL);
	json_object_object_add(o, "max", has ? num(s->st.max) : NULL);
	json_object_object_add(o, "errors", json_object_new_int64(s->errors));
	json_object_object_add(o, "workload_version",
			       known ? json_object_new_int64(s->version) :
				       NULL);
	json_object_object_add(o, "fixture_checksum",
			       known ? str_or_null(s->fixture_checksum) : NULL);
	json_object_object_add(o, "output_checksum",
			       known ? str_or_null(s->output_checksum) : NULL);
	if (s->output_other)
		json_object_object_add(o, "output_checksum_other",
				       json_object_new_string(s->output_other));
	return o;
}

/* How many of each side's aggregated samples were contended. */
static struct json_object *
contended_json(const struct prof_cmp_row *r)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(
	    o, "current", json_object_new_int64((int64_t)r->cur.contended));
	json_object_object_add(
	    o, "baseline",
	    r->matched ? json_object_new_int64((int64_t)r->base.contended)
		       : NULL);
	return o;
}

/* Which time a judged time row was judged on: "duration_ms" (wall),
 * "own_ms" (wall minus run-queue delay) or "cpu_ms". */
static const char *
judged_on(const struct prof_cmp_row *r)
{
	if (r->ab && r->look.cpu)
		return "cpu_ms";
	return r->own ? "own_ms" : "duration_ms";
}

/* The share (%) of each side's wall time the run-queue delay took, where
 * every call of the side said its delay (else null). */
static struct json_object *
queue_json(const struct prof_cmp_row *r)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(
	    o, "current",
	    r->cur.own_known == 1 && r->cur.n
		? num(round(prof_cmp_queue_pct(r->cur.v, r->cur.own, r->cur.n) *
			    1e3) /
		      1e3)
		: NULL);
	json_object_object_add(o, "baseline",
			       r->matched && r->base.own_known == 1 &&
					       r->base.n ?
				       num(round(prof_cmp_queue_pct(r->base.v,
							   r->base.own,
							   r->base.n) * 1e3) /
					   1e3) :
				       NULL);
	return o;
}

/* How an interleaved row's sampling ended (verdict.h). */
static struct json_object *
ab_json(const struct prof_cmp_row *r)
{
	const struct prof_cmp_look *l = &r->look;
	struct json_object *o = json_object_new_object();
	int bounded = l->lo > 0 && isfinite(l->hi);

	if (!o)
		return NULL;
	json_object_object_add(o, "repeat",
			       json_object_new_int64(r->cur.ab_first));
	json_object_object_add(o, "max_repeat",
			       json_object_new_int64(r->cur.ab_max));
	json_object_object_add(o, "samples_a_side",
			       json_object_new_int64((int64_t)l->n));
	json_object_object_add(o, "settled",
			       json_object_new_boolean(l->state !=
						       PROF_CMP_LOOK_OPEN));
	json_object_object_add(o, "uncontended_only",
			       json_object_new_boolean(l->clean));
	json_object_object_add(o, "judged_on",
			       json_object_new_string(l->cpu ? "cpu_ms" :
						      l->own ? "own_ms" :
							       "duration_ms"));
	json_object_object_add(o, "wall_ratio_low",
			       l->cpu ? num(l->wall_lo) : NULL);
	json_object_object_add(o, "wall_ratio_high",
			       l->cpu ? num(l->wall_hi) : NULL);
	json_object_object_add(o, "judged_current",
			       json_object_new_int64((int64_t)l->n_cur));
	json_object_object_add(o, "judged_baseline",
			       json_object_new_int64((int64_t)l->n_base));
	json_object_object_add(o, "ratio_low", bounded ? num(l->lo) : NULL);
	json_object_object_add(o, "ratio_high", bounded ? num(l->hi) : NULL);
	json_object_object_add(o, "confidence", num(l->level));
	return o;
}

/* Whether a memory row was judged exactly (its rule "exact"). */
static int
mem_exact(const struct prof_cmp_row *r)
{
	return r->memory && prof_cmp_metrics[r->memory].exact &&
	       !r->cur.nondet && !(r->matched && r->base.nondet);
}

/* A side's "deterministic": true when its values of each call index
 * agree, false when one index's do not, null when no index has two
 * values (nothing to check: one run of one worker). */
static struct json_object *
det_json(const struct prof_cmp_side *d)
{
	return d->det_checked ? json_object_new_boolean(!d->nondet) : NULL;
}

static struct json_object *
spread_json(const struct prof_cmp_side *d)
{
	struct json_object *o;

	if (!d->nondet)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	json_object_object_add(o, "index", json_object_new_int64(d->nd_index));
	json_object_object_add(o, "min", num(d->nd_lo));
	json_object_object_add(o, "max", num(d->nd_hi));
	return o;
}

/* The fields of a memory row (verdict.h). */
static void
mem_json(struct json_object *o, const struct prof_cmp_row *r, int judged)
{
	const struct prof_cmp_metric *m = &prof_cmp_metrics[r->memory];
	struct json_object *det = json_object_new_object();
	struct json_object *spread = NULL;

	json_object_object_add(o, "metric", json_object_new_string(m->key));
	json_object_object_add(o, "unit", json_object_new_string(m->unit));
	json_object_object_add(o, "rule", json_object_new_string(
						  mem_exact(r) ? "exact" :
								 "ratio"));
	json_object_object_add(o, "threshold_pct",
			       mem_exact(r) ? prof_json_double(
						      m->threshold_pct) :
					      NULL);
	json_object_object_add(o, "floor", prof_json_double(m->floor));
	json_object_object_add(o, "delta", judged ? num(r->delta) : NULL);
	if (det) {
		json_object_object_add(det, "current", det_json(&r->cur));
		json_object_object_add(det, "baseline",
				       r->matched ? det_json(&r->base) : NULL);
	}
	json_object_object_add(o, "deterministic", m->exact ? det : NULL);
	if (!m->exact)
		json_object_put(det);
	if (r->cur.nondet || (r->matched && r->base.nondet)) {
		spread = json_object_new_object();
		if (spread) {
			json_object_object_add(spread, "current",
					       spread_json(&r->cur));
			json_object_object_add(spread, "baseline",
					       r->matched ?
						       spread_json(&r->base) :
						       NULL);
		}
	}
	json_object_object_add(o, "spread", spread);
}

static struct json_object *
row_json(const struct prof_cmp_row *r, const char *run_id, const char *drift,
	 struct json_object *base_segments)
{
	struct json_object *o = json_object_new_object();
	int judged = r->status == PROF_CMP_STABLE ||
		     r->status == PROF_CMP_WARNING ||
		     r->status == PROF_CMP_IMPROVED ||
		     r->status == PROF_CMP_UNSETTLED;
	int exact = mem_exact(r);

	if (!o)
		return NULL;
	json_object_object_add(o, "run_id", str_or_null(run_id));
	json_object_object_add(o, "workload",
			       json_object_new_string(r->workload));
	json_object_object_add(o, "backend",
			       json_object_new_string(r->backend));
	json_object_object_add(o, "category", str_or_null(r->category));
	json_object_object_add(o, "segment",
			       json_object_new_string(r->segment));
	json_object_object_add(o, "workload_version",
			       json_object_new_int64(r->cur.version));
	json_object_object_add(o, "fixture_checksum",
			       str_or_null(r->cur.fixture_checksum));
	json_object_object_add(o, "warning_floor_ms",
			       prof_json_double(r->warning_floor_ms));
	json_object_object_add(o, "phase",
			       json_object_new_string(r->memory ? "memory" :
						      r->instructions ?
							      "instructions" :
							      "timing"));
	if (r->memory)
		mem_json(o, r, judged);
	if (r->instructions || !r->memory) {
		json_object_object_add(o, "threshold_pct",
				       prof_json_double(r->threshold_pct));
	}
	if (r->instructions) {
		json_object_object_add(
			o, "delta_instructions",
			judged ? prof_json_double(r->delta) : NULL);
	}
	json_object_object_add(o, "status",
			       json_object_new_string(
				       prof_cmp_status_name(r->status)));
	json_object_object_add(o, "reason", json_object_new_string(r->reason));
	json_object_object_add(o, "delta_ms", num(r->delta_ms));
	json_object_object_add(o, "delta_pct",
			       num(round((r->ratio - 1) * 1e8) / 1e6));
	json_object_object_add(o, "ratio", num(r->ratio));
	json_object_object_add(o, "p_value", num(r->p_value));
	json_object_object_add(o, "above_baseline_median",
			       judged && !r->instructions && !exact ?
				       json_object_new_int64(
					       (int64_t)r->above) :
				       NULL);
	json_object_object_add(o, "below_baseline_median",
			       judged && !r->instructions && !exact ?
				       json_object_new_int64(
					       (int64_t)r->below) :
				       NULL);
	json_object_object_add(o, "needed_above",
			       r->instructions || exact ? NULL :
				       json_object_new_int64(
					       (int64_t)r->needed));
	json_object_object_add(o, "errors",
			       json_object_new_int64(r->cur.errors));
	json_object_object_add(o, "drift",
			       drift[0] ? json_object_new_string(drift) : NULL);
	json_object_object_add(o, "interleaved", r->ab ? ab_json(r) : NULL);
	if (!r->instructions && !r->memory) {
		json_object_object_add(o, "contended", contended_json(r));
		json_object_object_add(o, "judged_on",
				       judged ? json_object_new_string(
							judged_on(r)) :
						NULL);
		json_object_object_add(o, "queue_pct", queue_json(r));
	}
	if (r->status == PROF_CMP_NEW && base_segments)
		json_object_object_add(o, "baseline_segments",
				       json_object_get(base_segments));
	json_object_object_add(o, "current", side_json(&r->cur, 1));
	json_object_object_add(o, "baseline", side_json(&r->base, r->matched));
	return o;
}

struct json_object *
prof_cmp_row_json(const struct prof_cmp *c, size_t k)
{
	struct json_object *o = NULL;
	struct prof_cmp_row r;
	const char *drift;
	char *buf;

	if (prof_cmp_row_get(c, k, &r, &buf) == 0) {
		drift = r.shard && c->shard_drift ?
				prof_json_str(c->shard_drift, r.shard) :
				NULL;
		o = row_json(&r, c->run_id, drift ? drift : c->drift,
			     c->base_segments);
	}
	free(buf);
	return o;
}

struct json_object *
prof_cmp_json(const struct prof_cmp *c)
{
	struct json_object *a = json_object_new_array();
	size_t k;

	if (!a)
		return NULL;
	for (k = 0; k < c->n; k++) {
		struct json_object *o = prof_cmp_row_json(c, k);

		if (!o) {
			json_object_put(a);
			return NULL;
		}
		json_object_array_add(a, o);
	}
	return a;
}
