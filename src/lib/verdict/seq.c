/* seq.c: the sequential test of interleaved A/B sampling: its looks, when
 * prof-time stops, and the look prof-diff judges. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/stats.h"
#include "model/contend.h"
#include "verdict/internal.h"
#include "verdict/verdict.h"

/* The look in words: "ratio 1.27 to 1.33 (99.3%) on the 9 and 11
 * uncontended samples". */
void
prof_cmp_look_words(const struct prof_cmp_look *l, char *buf, size_t n)
{
	char lo[32], hi[32], on[96] = "";

	if (l->lo > 0 && isfinite(l->hi)) {
		snprintf(lo, sizeof(lo), "%.3f", l->lo);
		snprintf(hi, sizeof(hi), "%.3f", l->hi);
	} else {
		snprintf(lo, sizeof(lo), "0");
		snprintf(hi, sizeof(hi), "inf");
	}
	if (l->clean)
		snprintf(on, sizeof(on),
			 " on the %zu and %zu uncontended samples", l->n_cur,
			 l->n_base);
	if (l->cpu)
		snprintf(on, sizeof(on),
			 ", wall time %.3f to %.3f: the same side of 1",
			 l->wall_lo, l->wall_hi);
	if (l->load_open && l->cpu_lo > 0 && isfinite(l->cpu_hi))
		snprintf(on, sizeof(on),
			 ", but CPU time %.3f to %.3f: calls waited for a core",
			 l->cpu_lo, l->cpu_hi);
	else if (l->load_open)
		snprintf(on, sizeof(on),
			 ", but CPU time 0 to inf: calls waited for a core");
	snprintf(buf, n, "%sratio %s to %s (%.1f%%)%s",
		 l->cpu ? "CPU time " : "", lo, hi, l->level * 100, on);
}

/*
 * The look an interleaved row is judged on: its looks at n samples a side
 * replayed as prof-time took them, up to the first that settled or the
 * last; where a side that errored ended the rounds between two looks, the
 * look at the n there are. Returns 0, or -1 when out of memory.
 */
int
prof_cmp_last_look(const struct prof_cmp_seq *q,
		   const struct prof_cmp_calls *cc,
		   const struct prof_cmp_calls *bc, size_t n, double floor_ms,
		   struct prof_cmp_look *l)
{
	long look, last = 0;

	memset(l, 0, sizeof(*l));
	for (look = q->first; look && (size_t)look <= n;
	     look = prof_cmp_seq_next(q, look)) {
		last = look;
		if (prof_cmp_seq_look(q, cc, bc, (size_t)look, floor_ms, l) < 0)
			return -1;
		if (l->state != PROF_CMP_LOOK_OPEN)
			break;
	}
	if ((size_t)last != n && l->state == PROF_CMP_LOOK_OPEN &&
	    prof_cmp_seq_look(q, cc, bc, n, floor_ms, l) < 0)
		return -1;
	return 0;
}

/* The samples look l settled on (the uncontended, all, or the CPU times
 * of all), of each side, into cv[*nc] and bv[*nb] (room for l->n each). */
void
prof_cmp_looked_at(const struct prof_cmp_look *l,
		   const struct prof_cmp_calls *cc,
		   const struct prof_cmp_calls *bc, double *cv, size_t *nc,
		   double *bv, size_t *nb)
{
	*nc = prof_cmp_pick(l->cpu   ? cc->cpu
			    : l->own ? cc->own
				     : cc->wall,
			    cc->cont, l->n, l->clean, cv);
	*nb = prof_cmp_pick(l->cpu   ? bc->cpu
			    : l->own ? bc->own
				     : bc->wall,
			    bc->cont, l->n, l->clean, bv);
}

int
prof_cmp_seq_judged(const struct prof_cmp_seq *q,
		    const struct prof_cmp_calls *cur,
		    const struct prof_cmp_calls *base, size_t n,
		    double floor_ms, struct prof_cmp_look *l, double *ratio,
		    double *cur_ms, double *base_ms)
{
	double *cv, *bv;
	struct prof_stats sc, sb;
	size_t nc, nb;
	int rc = -1;

	*ratio = *cur_ms = *base_ms = NAN;
	if (prof_cmp_last_look(q, cur, base, n, floor_ms, l) < 0)
		return -1;
	cv = malloc((n ? n : 1) * sizeof(*cv));
	bv = malloc((n ? n : 1) * sizeof(*bv));
	if (!cv || !bv)
		goto out;
	prof_cmp_looked_at(l, cur, base, cv, &nc, bv, &nb);
	if (prof_stats_compute(cv, nc, &sc) < 0 ||
	    prof_stats_compute(bv, nb, &sb) < 0)
		goto out;
	/* prof_cmp_judge_speed()'s ratio, which a row's "ratio" is, and the
	 * medians it is the ratio of. */
	if (nc)
		*cur_ms = sc.median;
	if (nb)
		*base_ms = sb.median;
	if (nc && nb && sb.median > 0 && isfinite(sc.median / sb.median))
		*ratio = sc.median / sb.median;
	rc = 0;
out:
	free(cv);
	free(bv);
	return rc;
}

void
prof_cmp_seq_init(struct prof_cmp_seq *q, long first, long max)
{
	long n;

	q->first = first > 0 ? first : 1;
	q->max = max > q->first ? max : q->first;
	q->step = (q->first + 1) / 2 > 2 ? (q->first + 1) / 2 : 2;
	q->band = 1 + PROF_CMP_AB_THRESHOLD / 100;
	q->looks = 1;
	for (n = q->first; n < q->max; n = prof_cmp_seq_next(q, n))
		q->looks++;
}

void
prof_cmp_seq_threshold(struct prof_cmp_seq *q, double pct)
{
	if (!(pct > 0) || !(pct <= PROF_CMP_THRESHOLD_MAX))
		pct = PROF_CMP_AB_THRESHOLD;
	q->band = 1 + pct / 100;
}

long
prof_cmp_seq_next(const struct prof_cmp_seq *q, long n)
{
	if (n >= q->max)
		return 0;
	return n + q->step < q->max ? n + q->step : q->max;
}

/* The interval of the ratio a / b at level, from the logarithms; 0 and
 * INFINITY when unbounded or a value is not positive. */
static int
ratio_ci(const double *a, size_t na, const double *b, size_t nb,
	 double alpha, double *lo, double *hi)
{
	double *la = malloc((na + nb + 1) * sizeof(*la)), *lb, l, h;
	size_t i;
	int rc = 0;

	*lo = 0;
	*hi = INFINITY;
	if (!la)
		return -1;
	lb = la + na;
	for (i = 0; i < na; i++)
		la[i] = a[i] > 0 ? log(a[i]) : NAN;
	for (i = 0; i < nb; i++)
		lb[i] = b[i] > 0 ? log(b[i]) : NAN;
	for (i = 0; i < na + nb; i++)
		if (!isfinite(la[i]))
			goto out;	/* no ratio to bound */
	if (prof_stats_shift_ci(la, na, lb, nb, alpha, &l, &h) < 0) {
		rc = -1;
		goto out;
	}
	*lo = isfinite(l) ? exp(l) : 0;
	*hi = isfinite(h) ? exp(h) : INFINITY;
out:
	free(la);
	return rc;
}

/* The interval of the ratio of paired a_i / b_i at level, from the
 * logarithms of the pairs' ratios; 0 and INFINITY when unbounded or a
 * value is not positive. */
static int
paired_ratio_ci(const double *a, const double *b, size_t n, double alpha,
		double *lo, double *hi)
{
	double *d = malloc((n ? n : 1) * sizeof(*d)), l, h;
	size_t i;
	int rc = 0;

	*lo = 0;
	*hi = INFINITY;
	if (!d)
		return -1;
	for (i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0))
			goto out;	/* no ratio to bound */
		d[i] = log(a[i]) - log(b[i]);
	}
	if (prof_stats_paired_ci(d, n, alpha, &l, &h) < 0) {
		rc = -1;
		goto out;
	}
	*lo = isfinite(l) ? exp(l) : 0;
	*hi = isfinite(h) ? exp(h) : INFINITY;
out:
	free(d);
	return rc;
}

/* The interval of the ratio of all n rounds: paired, or, where too few
 * pairs bound it and sides is set, the sides'. */
static int
all_ci(const double *a, const double *b, size_t n, double alpha, int sides,
       double *lo, double *hi)
{
	/* Each call against the other side's call of its round: a load
	 * that drifts falls on both of a pair. */
	if (paired_ratio_ci(a, b, n, alpha, lo, hi) < 0)
		return -1;
	/* Too few pairs for the confidence (6 at 95%: it depends on n
	 * alone): the sides' interval, which 4 a side can give. */
	if (sides && !(*lo > 0 && isfinite(*hi)))
		return ratio_ci(a, n, b, n, alpha, lo, hi);
	return 0;
}

/* What an interval says (seq.h), bm the baseline median, band the
 * threshold's ratio. */
static enum prof_cmp_look_state
look_state(double lo, double hi, double bm, double floor_ms, double band)
{
	/* The change in ms at the interval's ends, against the floor. */
	double up = isfinite(hi) ? bm * (hi - 1) : INFINITY;
	double down = lo > 0 ? bm * (1 - lo) : INFINITY;

	if (lo > band)
		return PROF_CMP_LOOK_SLOWER;
	if (hi < 1 / band)
		return PROF_CMP_LOOK_FASTER;
	if (lo > 1 / band && hi < band)
		return PROF_CMP_LOOK_WITHIN;
	if (up < floor_ms && down < floor_ms)
		return PROF_CMP_LOOK_FLOOR;
	return PROF_CMP_LOOK_OPEN;
}

int
prof_cmp_seq_look(const struct prof_cmp_seq *q,
		  const struct prof_cmp_calls *cur,
		  const struct prof_cmp_calls *base, size_t n, double floor_ms,
		  struct prof_cmp_look *out)
{
	double *a = NULL, *b = NULL, alpha, lo, hi;
	enum prof_cmp_look_state cs;
	struct prof_stats st;
	size_t na, nb;
	int rc = -1;
	/* Every call's delay known: the looks take the code's own time,
	 * the queue out of each call (seq.h). */
	int own = cur->own && base->own;
	const double *cw = own ? cur->own : cur->wall;
	const double *bw = own ? base->own : base->wall;

	memset(out, 0, sizeof(*out));
	out->own = own;
	out->n = n;
	out->hi = INFINITY;
	out->p = NAN;
	alpha = PROF_CMP_SEQ_ALPHA / (q->looks > 0 ? q->looks : 1);
	out->level = 1 - alpha;
	if (n == 0)
		return 0;
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	if (!a || !b)
		goto out;
	/* The uncontended samples, when they alone bound the interval. */
	if (cur->cont || base->cont) {
		na = prof_cmp_pick(cw, cur->cont, n, 1, a);
		nb = prof_cmp_pick(bw, base->cont, n, 1, b);
		if (na && nb &&
		    ratio_ci(a, na, b, nb, alpha, &out->lo, &out->hi) < 0)
			goto out;
		/* (None contended: the look is on all samples.) */
		if (na && nb && (na < n || nb < n) && out->lo > 0 &&
		    isfinite(out->hi))
			out->clean = 1;
	}
	if (!out->clean) {
		na = prof_cmp_pick(cw, NULL, n, 0, a);
		nb = prof_cmp_pick(bw, NULL, n, 0, b);
		/* Calls that waited in the queue with no CPU time to check
		 * their wall time by: the pairs alone, which share the
		 * load of their round (seq.h). Own times hold no
		 * queue. */
		if (all_ci(a, b, n, alpha,
			   own || (cur->cpu && base->cpu) ||
				   !(prof_cmp_queued(cur->cont, n) ||
				     prof_cmp_queued(base->cont, n)),
			   &out->lo, &out->hi) < 0)
			goto out;
	}
	out->n_cur = na;
	out->n_base = nb;
	out->p = prof_stats_mann_whitney(a, na, b, nb);
	if (out->p < 0)
		out->p = NAN;
	if (prof_stats_compute(b, nb, &st) < 0)
		goto out;
	out->state = look_state(out->lo, out->hi, st.median, floor_ms,
				q->band);
	rc = 0;
	/* The CPU times' checks are for wall times the queue is in. */
	if (own)
		goto out;
	/*
	 * A wall-time verdict on calls that waited in the queue stands
	 * only where their CPU time says the same (seq.h).
	 */
	if (!out->clean && cur->cpu && base->cpu &&
	    (out->state == PROF_CMP_LOOK_SLOWER ||
	     out->state == PROF_CMP_LOOK_FASTER) &&
	    (prof_cmp_queued(cur->cont, n) || prof_cmp_queued(base->cont, n))) {
		if (all_ci(cur->cpu, base->cpu, n, alpha, 1, &lo, &hi) < 0 ||
		    prof_stats_compute(base->cpu, n, &st) < 0) {
			rc = -1;
			goto out;
		}
		if (look_state(lo, hi, st.median, floor_ms, q->band) !=
		    out->state) {
			out->state = PROF_CMP_LOOK_OPEN;
			out->load_open = 1;
			out->cpu_lo = lo;
			out->cpu_hi = hi;
		}
		goto out;
	}
	/*
	 * Calls that mostly waited, on one thread each: their wall time
	 * holds the machine's queue beside the code's cost, and their CPU
	 * time the cost. The CPU time settles the look when it lies beyond
	 * a rule's ratio and the wall time's interval lies on the same
	 * side of 1: both say slower (or faster), the CPU time how much.
	 */
	if (out->clean || out->state != PROF_CMP_LOOK_OPEN || !cur->cpu ||
	    !base->cpu)
		goto out;
	if (all_ci(cur->cpu, base->cpu, n, alpha, 1, &lo, &hi) < 0 ||
	    prof_stats_compute(base->cpu, n, &st) < 0) {
		rc = -1;
		goto out;
	}
	cs = look_state(lo, hi, st.median, floor_ms, q->band);
	if ((cs == PROF_CMP_LOOK_SLOWER && out->lo > 1) ||
	    (cs == PROF_CMP_LOOK_FASTER && out->hi < 1)) {
		out->cpu = 1;
		out->wall_lo = out->lo;
		out->wall_hi = out->hi;
		out->lo = lo;
		out->hi = hi;
		out->state = cs;
	}
out:
	free(a);
	free(b);
	return rc;
}

int
prof_cmp_seq_stop(const struct prof_cmp_seq *q,
		  const struct prof_cmp_calls *cur,
		  const struct prof_cmp_calls *base, size_t n, double floor_ms,
		  char *why, size_t why_n)
{
	struct prof_cmp_look l;

	why[0] = '\0';
	if (q->looks < 2 || n == 0)
		return 1;	/* nothing to wait for */
	if (prof_cmp_seq_look(q, cur, base, n, floor_ms, &l) < 0)
		return -1;
	prof_cmp_look_words(&l, why, why_n);
	return l.state != PROF_CMP_LOOK_OPEN;
}
