/* judge.c: one row judged: which rule its channel and its sides ask for
 * (prof_cmp_judge()), the interleaved A/B verdict among them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "model/contend.h"
#include "verdict/internal.h"
#include "verdict/verdict.h"

/* Whether a time row is judged by the A/B rule: both sides interleaved
 * samples of one plan (the same --repeat and --max-repeat), in round
 * order. */
static int
ab_row(const struct prof_cmp_row *r)
{
	const struct prof_cmp_side *c = &r->cur, *b = &r->base;

	return !r->instructions && c->ab_first && c->ab_first == b->ab_first &&
	       c->ab_max == b->ab_max && !c->ab_unordered && !b->ab_unordered;
}

/*
 * Whether the fastest samples of a look that settled beyond the threshold
 * (want: warning or improved) say otherwise: the minima's ratio within the
 * band's. Asked only where the minima speak for calls that had a core: on
 * the uncontended samples, on own time (the queue taken out), or where
 * none was contended (or none is known to be); among mostly contended
 * calls the fastest is noise too. 1 with the row unsettled, else 0.
 */
static int
minima_differ(struct prof_cmp_row *r, const double *cv, size_t nc,
	      const double *bv, size_t nb, double band,
	      enum prof_cmp_status want, const char *words)
{
	const struct prof_cmp_look *l = &r->look;
	double cmin = INFINITY, bmin = INFINITY, min_ratio;
	size_t i;

	for (i = 0; i < nc; i++)
		cmin = cv[i] < cmin ? cv[i] : cmin;
	for (i = 0; i < nb; i++)
		bmin = bv[i] < bmin ? bv[i] : bmin;
	min_ratio = cmin / bmin;
	if (!(l->clean || l->own ||
	      (!l->cpu && !r->cur.contended && !r->base.contended)))
		return 0;
	if (want == PROF_CMP_WARNING ? min_ratio > band :
				       min_ratio <= 1 / band)
		return 0;
	r->status = PROF_CMP_UNSETTLED;
	prof_cmp_reason_prefix(r, "not settled: ");
	prof_cmp_reason_add(r,
			    ", but the fastest samples differ by %+.1f%% "
			    "(min %.3f ms against %.3f ms): the load moved "
			    "the median, not the code; %s",
			    (min_ratio - 1) * 100, cmin, bmin, words);
	return 1;
}

/*
 * An interleaved row (seq.h): its looks replayed as prof-time took
 * them, up to the first that settled or the last; the seed's rule on the
 * samples of that look, confirmed by the look and by the minima; stable
 * where the look settled within the threshold; else unsettled.
 */
static int
judge_ab(struct prof_cmp_row *r)
{
	const struct prof_cmp_side *c = &r->cur, *b = &r->base;
	size_t n = c->n < b->n ? c->n : b->n, nc, nb;
	/* The looks ask for one thread's CPU time (seq.h). */
	int own = c->own_known == 1 && b->own_known == 1;
	struct prof_cmp_calls cc = {
		c->v, c->cont,
		c->cpu_known == 1 && !c->cpu_multi ? c->cpu : NULL,
		own ? c->own : NULL};
	struct prof_cmp_calls bc = {
		b->v, b->cont,
		b->cpu_known == 1 && !b->cpu_multi ? b->cpu : NULL,
		own ? b->own : NULL};
	struct prof_cmp_seq q;
	struct prof_cmp_look *l = &r->look;
	double *cv = NULL, *bv = NULL, band;
	enum prof_cmp_status rule, want;
	struct seed_rule sr;
	char words[160];
	int rc = -1;

	r->ab = 1;
	prof_cmp_seq_init(&q, c->ab_first, c->ab_max);
	prof_cmp_seq_threshold(&q, r->threshold_pct);
	band = q.band;
	if (prof_cmp_last_look(&q, &cc, &bc, n, r->warning_floor_ms, l) < 0)
		return -1;
	cv = malloc((n ? n : 1) * sizeof(*cv));
	bv = malloc((n ? n : 1) * sizeof(*bv));
	if (!cv || !bv)
		goto out;
	prof_cmp_looked_at(l, &cc, &bc, cv, &nc, bv, &nb);
	if (prof_cmp_judge_speed(r, cv, nc, bv, nb, &sr) < 0)
		goto out;
	if (l->cpu)
		prof_cmp_reason_prefix(r, "CPU time ");
	r->own = l->own;
	if (l->own)
		prof_cmp_own_note(r, l->n, l->n);
	rc = 0;
	if (r->status == PROF_CMP_INCOMPARABLE)
		goto out;
	/* The p of the look's samples, the ones judged. */
	prof_cmp_look_words(l, words, sizeof(words));
	rule = r->status;
	if (l->state == PROF_CMP_LOOK_OPEN) {
		r->status = PROF_CMP_UNSETTLED;
		prof_cmp_reason_prefix(r,
				       "not settled after %zu samples a side "
				       "(p = %.3g): ",
				       l->n, r->p_value);
		prof_cmp_reason_add(r, "; %s", words);
		goto out;
	}
	if (l->state != PROF_CMP_LOOK_SLOWER &&
	    l->state != PROF_CMP_LOOK_FASTER) {
		/* Settled within the threshold (or under the floor): the
		 * interval says the change does not matter, whatever the
		 * medians said. */
		if (rule != PROF_CMP_STABLE) {
			r->status = PROF_CMP_STABLE;
			prof_cmp_reason_add(
			    r, ", but the interval does not confirm it");
		}
		goto settled;
	}
	want = l->state == PROF_CMP_LOOK_SLOWER ? PROF_CMP_WARNING :
						  PROF_CMP_IMPROVED;
	if (rule != want) {
		/* A change under the floor does not matter either way. */
		if (rule == PROF_CMP_STABLE && !sr.over_floor)
			goto settled;
		r->status = PROF_CMP_UNSETTLED;
		prof_cmp_reason_prefix(r, "not settled: ");
		prof_cmp_reason_add(r,
				    ", but the interval lies beyond the %g%% "
				    "threshold",
				    r->threshold_pct);
		prof_cmp_reason_add(r, "; %s", words);
		goto out;
	}
	if (minima_differ(r, cv, nc, bv, nb, band, want, words))
		goto out;
settled:
	if (q.looks > 1)
		prof_cmp_reason_add(r, "; settled after %zu rounds: %s", l->n,
				    words);
	else
		prof_cmp_reason_add(r, "; settled: %s", words);
out:
	free(cv);
	free(bv);
	return rc;
}

/* The reason of a row the baseline has none of (status new). */
static void
new_reason(struct prof_cmp_row *r)
{
	if (r->base_other_segments)
		snprintf(r->reason, sizeof(r->reason),
			 "no baseline row for this segment (the "
			 "baseline has this workload in %d other "
			 "segment%s)",
			 r->base_other_segments,
			 r->base_other_segments == 1 ? "" : "s");
	else if (r->instructions)
		snprintf(r->reason, sizeof(r->reason),
			 "no baseline row for this segment (the "
			 "baseline has no instruction counts of this "
			 "workload)");
	else if (r->memory)
		snprintf(r->reason, sizeof(r->reason),
			 "no baseline row for this segment (the "
			 "baseline has no memory samples with %s of "
			 "this workload)",
			 prof_cmp_metrics[r->memory].key);
	else
		snprintf(r->reason, sizeof(r->reason),
			 "no baseline row for this segment (the "
			 "workload is not in the baseline)");
}

/*
 * Whether a matched row's sides cannot be compared (another version,
 * fixture or output, or no successful samples): 1 with the reason, the
 * status incomparable; else 0.
 */
static int
unlike(struct prof_cmp_row *r)
{
	char a[16], b[16];

	r->status = PROF_CMP_INCOMPARABLE;
	if (r->cur.version != r->base.version) {
		snprintf(r->reason, sizeof(r->reason),
			 "workload version %lld != baseline %lld",
			 r->cur.version, r->base.version);
		return 1;
	}
	if (!prof_cmp_same_str(r->cur.fixture_checksum,
			       r->base.fixture_checksum)) {
		prof_cmp_short_sum(r->cur.fixture_checksum, a, sizeof(a));
		prof_cmp_short_sum(r->base.fixture_checksum, b, sizeof(b));
		/* A command's fixture names its arguments: say which. */
		if (r->cur.fixture && r->base.fixture &&
		    strcmp(r->cur.fixture, r->base.fixture))
			snprintf(r->reason, sizeof(r->reason),
				 "fixture checksum %s != baseline %s: fixture "
				 "'%.200s' != baseline '%.200s'",
				 a, b, r->cur.fixture, r->base.fixture);
		else
			snprintf(r->reason, sizeof(r->reason),
				 "fixture checksum %s != baseline %s", a, b);
		return 1;
	}
	/* The same work on both sides, or no verdict on its speed. */
	if (r->cur.output_other || r->base.output_other) {
		const struct prof_cmp_side *d =
			r->cur.output_other ? &r->cur : &r->base;

		prof_cmp_short_sum(d->output_checksum, a, sizeof(a));
		prof_cmp_short_sum(d->output_other, b, sizeof(b));
		snprintf(r->reason, sizeof(r->reason),
			 "output checksums %s and %s differ between calls of "
			 "the %s side",
			 a, b, d == &r->cur ? "current" : "baseline");
		return 1;
	}
	if (r->cur.output_checksum && r->base.output_checksum &&
	    strcmp(r->cur.output_checksum, r->base.output_checksum)) {
		prof_cmp_short_sum(r->cur.output_checksum, a, sizeof(a));
		prof_cmp_short_sum(r->base.output_checksum, b, sizeof(b));
		snprintf(r->reason, sizeof(r->reason),
			 "output checksum %s != baseline %s: the two sides "
			 "computed different outputs",
			 a, b);
		return 1;
	}
	if (r->cur.n == 0) {
		snprintf(r->reason, sizeof(r->reason),
			 "no successful warm samples in this run (%ld "
			 "errored)",
			 r->cur.errors);
		return 1;
	}
	if (r->base.n == 0) {
		snprintf(r->reason, sizeof(r->reason),
			 "the baseline row has no successful warm samples");
		return 1;
	}
	return 0;
}

int
prof_cmp_judge(struct prof_cmp_row *r)
{
	int rc;

	r->delta_ms = r->ratio = r->p_value = r->delta = NAN;
	r->ab = 0;
	memset(&r->look, 0, sizeof(r->look));
	/* A time row's threshold: its own, else its path's default. */
	if (!r->instructions && !r->memory &&
	    !(r->threshold_pct > 0 &&
	      r->threshold_pct <= PROF_CMP_THRESHOLD_MAX))
		r->threshold_pct = r->matched && ab_row(r) ?
					   PROF_CMP_AB_THRESHOLD :
					   PROF_CMP_TIME_THRESHOLD;
	r->above = r->below = 0;
	r->needed = (3 * r->cur.n + 3) / 4;	/* ceil(0.75 n) */
	r->reason[0] = '\0';
	if (prof_cmp_row_stats(r, &r->cur) < 0 ||
	    prof_cmp_row_stats(r, &r->base) < 0)
		return -1;
	/* Only what is exact is asked to repeat itself, whatever the
	 * status: a new row's side is checked too
	 * (prof_cmp_judge_memory() then goes by it). */
	r->cur.nondet = r->base.nondet = 0;
	r->cur.det_checked = r->base.det_checked = 0;
	if (r->memory && prof_cmp_metrics[r->memory].exact &&
	    (prof_cmp_check_det(&r->cur) < 0 ||
	     prof_cmp_check_det(&r->base) < 0))
		return -1;
	if (!r->matched) {
		r->status = PROF_CMP_NEW;
		new_reason(r);
		return 0;
	}
	if (unlike(r))
		return 0;
	/* A call may allocate nothing: 0 is a memory value. */
	if (r->memory)
		return prof_cmp_judge_memory(r);
	if (!(r->base.st.median > 0)) {
		snprintf(r->reason, sizeof(r->reason),
			 r->instructions ?
				 "baseline median %g instructions is not "
				 "positive" :
				 "baseline median %g ms is not positive",
			 r->base.st.median);
		return 0;
	}
	if (r->instructions)
		return prof_cmp_judge_count(r);
	r->own = 0;
	if (ab_row(r)) {
		rc = judge_ab(r);
	} else if (r->cur.own_known == 1 && r->base.own_known == 1) {
		/* Every call's delay known: the code's own time, and no
		 * queue left in it to check by the CPU times. */
		rc = prof_cmp_judge_speed(r, r->cur.own, r->cur.n,
					  r->base.own, r->base.n, NULL);
		r->own = 1;
		if (rc == 0 && r->status != PROF_CMP_INCOMPARABLE)
			prof_cmp_own_note(r, r->cur.n, r->base.n);
	} else if ((rc = prof_cmp_judge_speed(r, r->cur.v, r->cur.n,
					      r->base.v, r->base.n,
					      NULL)) == 0) {
		rc = prof_cmp_judge_queue(r);
	}
	if (rc == 0)
		prof_cmp_contended_note(r);
	return rc;
}
