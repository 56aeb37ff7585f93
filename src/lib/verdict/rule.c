/* rule.c: the rules, pure functions of a row's two sides: time (the seed's
 * rule, on wall, own or CPU time), instruction counts and memory metrics. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/contend.h"
#include "verdict/channels.h"
#include "verdict/internal.h"
#include "verdict/verdict.h"

/* A side's statistics; on an instruction row its median is the row's
 * count (prof_stats_count_index()), as every output shows it, and so on a
 * memory row: bytes and allocations are whole numbers, never the mean of
 * two middle samples. */
int
prof_cmp_row_stats(const struct prof_cmp_row *r, struct prof_cmp_side *side)
{
	return (r->instructions || r->memory ? prof_stats_counts :
				  prof_stats_compute)(side->v, side->n,
						      &side->st);
}

int
prof_cmp_same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

/* A checksum for a reason: its first 12 digits, or "unknown". */
void
prof_cmp_short_sum(const char *s, char *buf, size_t n)
{
	snprintf(buf, n, "%.12s", s ? s : "unknown");
}

/* The time rule's ratio of row r: 1 + T, T its threshold_pct / 100
 * (prof_cmp_judge() gives a time row its threshold first). */
static double
band_of(const struct prof_cmp_row *r)
{
	return 1 + r->threshold_pct / 100;
}

/* How much faster a median ratio (current / baseline) below 1 is, in %:
 * the mirror of slower's (ratio - 1) x 100, so that one threshold reads
 * the same both ways (baseline / current = 1.20 is 20% faster). */
static double
faster_pct(double ratio)
{
	return (1 / ratio - 1) * 100;
}

/* The reason of a stable row: which condition of warning or improved it
 * missed (slower and faster say whether the median passed the ratio). */
static void
judge_stable(struct prof_cmp_row *r, size_t n, int slower, int faster,
	     int over_floor)
{
	double up = (r->ratio - 1) * 100, down = faster_pct(r->ratio);

	if (!slower && !faster) {
		if (r->delta_ms > 0)
			snprintf(r->reason, sizeof(r->reason),
				 "median %.1f%% slower (%+.3f ms), within the "
				 "%g%% threshold",
				 up, r->delta_ms, r->threshold_pct);
		else if (r->delta_ms < 0)
			snprintf(r->reason, sizeof(r->reason),
				 "median %.1f%% faster (%+.3f ms), within the "
				 "%g%% threshold",
				 down, r->delta_ms, r->threshold_pct);
		else
			snprintf(r->reason, sizeof(r->reason),
				 "median unchanged");
	} else if (!over_floor) {
		snprintf(r->reason, sizeof(r->reason),
			 "median %.1f%% %s but %+.3f ms is under the floor of "
			 "%g ms",
			 up > 0 ? up : down, up > 0 ? "slower" : "faster",
			 r->delta_ms, r->warning_floor_ms);
	} else if (up > 0) {
		snprintf(r->reason, sizeof(r->reason),
			 "median %.1f%% slower (%+.3f ms >= floor %g ms), more "
			 "than the %g%% threshold, but only %zu of %zu samples "
			 "above the baseline median (%zu needed)",
			 up, r->delta_ms, r->warning_floor_ms, r->threshold_pct,
			 r->above, n, r->needed);
	} else {
		snprintf(r->reason, sizeof(r->reason),
			 "median %.1f%% faster (%+.3f ms, floor %g ms), more "
			 "than the %g%% threshold, but only %zu of %zu samples "
			 "below the baseline median (%zu needed)",
			 down, r->delta_ms, r->warning_floor_ms,
			 r->threshold_pct, r->below, n, r->needed);
	}
}

/*
 * An instruction row whose sides may be compared: the same build on the
 * same input executes the same instructions, so one run says it, and any
 * growth past the threshold is a warning.
 */
static int judge_count_of(struct prof_cmp_row *r, double cm, double bm);

/* Whether index at is among those of side d. */
static int
has_index(const struct prof_cmp_side *d, long at)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->at[i] == at)
			return 1;
	return 0;
}

/*
 * The count of side d over the calls whose index the other side o also
 * has (prof_stats_count_index() of those), into *count; the number of
 * such calls, or 0 when the sides share no index or say none. -1 when
 * out of memory.
 */
static long
common_count(const struct prof_cmp_side *d, const struct prof_cmp_side *o,
	     double *count)
{
	struct prof_stats st;
	double *v;
	size_t i, k = 0;

	if (!d->at || !o->at || !d->n)
		return 0;
	v = malloc(d->n * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < d->n; i++)
		if (has_index(o, d->at[i]))
			v[k++] = d->v[i];
	if (k && prof_stats_counts(v, k, &st) < 0) {
		free(v);
		return -1;
	}
	free(v);
	if (k)
		*count = st.median;
	return (long)k;
}

/*
 * A count row is judged on the calls both sides made, index by index,
 * when one side made calls the other did not (2 calls against 3): the
 * same call of the same build counts the same, another call may not.
 * Else on every call: the row's count (prof_stats_count_index()).
 */
int
prof_cmp_judge_count(struct prof_cmp_row *r)
{
	double cm = r->cur.st.median, bm = r->base.st.median;
	long kc, kb;

	kc = common_count(&r->cur, &r->base, &cm);
	kb = common_count(&r->base, &r->cur, &bm);
	if (kc < 0 || kb < 0)
		return -1;
	if (!kc || !kb) {
		cm = r->cur.st.median;
		bm = r->base.st.median;
	}
	r->delta = cm - bm;
	judge_count_of(r, cm, bm);
	if (kc && kb && ((size_t)kc != r->cur.n || (size_t)kb != r->base.n))
		prof_cmp_reason_add(r,
			   "; compared on the call indexes both sides have "
			   "(%ld of %zu calls, %ld of %zu in the baseline)",
			   kc, r->cur.n, kb, r->base.n);
	return 0;
}

/* The count rule on the current count cm against the baseline's bm. The
 * reason writes both counts grouped, as every page writes a count
 * (prof_fmt_count(): "58,054,805"). */
static int
judge_count_of(struct prof_cmp_row *r, double cm, double bm)
{
	char b[32], c[32];
	const char *how;
	double pct;

	r->ratio = cm / bm;
	pct = (r->ratio - 1) * 100;
	prof_fmt_count(b, sizeof(b), (long long)llround(bm), 0);
	prof_fmt_count(c, sizeof(c), (long long)llround(cm), 0);
	/* Counts are integers: compared without the ratio's rounding, so
	 * exactly the threshold is not more than it, either way. */
	if (cm * 100 > bm * (100 + r->threshold_pct)) {
		r->status = PROF_CMP_WARNING;
		how = "more than";
	} else if (cm * 100 < bm * (100 - r->threshold_pct)) {
		r->status = PROF_CMP_IMPROVED;
		how = "fewer by more than";
	} else {
		r->status = PROF_CMP_STABLE;
		how = "within";
	}
	snprintf(r->reason, sizeof(r->reason),
		 "instructions %s -> %s (%+.2f%%), %s the %g%% threshold", b,
		 c, pct, how, r->threshold_pct);
	return 0;
}

/*
 * The values of v[0..n) that a look judges: the uncontended ones when
 * clean (cont NULL: all are), else all; into out. Their number.
 */
size_t
prof_cmp_pick(const double *v, const unsigned char *cont, size_t n, int clean,
     double *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!clean || !cont || !cont[i])
			out[k++] = v[i];
	return k;
}

/* Whether any of the first n calls waited in the machine's queue. */
int
prof_cmp_queued(const unsigned char *cont, size_t n)
{
	size_t i;

	for (i = 0; cont && i < n; i++)
		if (cont[i] == PROF_CONTEND_QUEUED)
			return 1;
	return 0;
}

static void
seed_rule(const double *v, size_t n, double cm, double bm, double floor_ms,
	  double band, struct seed_rule *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->needed = (3 * n + 3) / 4;	/* ceil(0.75 n) */
	for (i = 0; i < n; i++) {
		if (v[i] > bm)
			s->above++;
		else if (v[i] < bm)
			s->below++;
	}
	/* Durations are kept to the nanosecond: compare the delta with the
	 * floor there, so 0.3 - 0.2 still reaches a 0.1 ms floor. In doubles:
	 * llround() of a value beyond int64 is undefined. */
	s->slower = cm / bm > band;
	s->faster = cm <= bm / band;
	s->over_floor = round(fabs(cm - bm) * 1e6) >= round(floor_ms * 1e6);
	s->status = s->slower && s->over_floor && s->above >= s->needed ?
			    PROF_CMP_WARNING :
		    /* The mirror: the baseline at least band times the
		     * median, the gain at least the floor, most values
		     * below the baseline's. */
		    s->faster && s->over_floor && s->below >= s->needed ?
			    PROF_CMP_IMPROVED :
			    PROF_CMP_STABLE;
}

/*
 * The seed's rule on the speed of cur[0..nc) against base[0..nb): ratio
 * and delta of the medians, the samples above and below the baseline
 * median, the Mann-Whitney p beside it; status and reason, and what the
 * rule saw into *out (NULL: not asked). Returns 0, or -1 when out of
 * memory.
 */
int
prof_cmp_judge_speed(struct prof_cmp_row *r, const double *cur, size_t nc,
	    const double *base, size_t nb, struct seed_rule *out)
{
	struct prof_stats sc, sb;
	struct seed_rule sr;
	double pct, p;

	if (prof_stats_compute(cur, nc, &sc) < 0 ||
	    prof_stats_compute(base, nb, &sb) < 0)
		return -1;
	r->above = r->below = 0;
	r->needed = (3 * nc + 3) / 4;	/* ceil(0.75 n) */
	r->ratio = sc.median / sb.median;
	r->delta_ms = sc.median - sb.median;
	if (!isfinite(r->ratio) || !isfinite(r->delta_ms) ||
	    !isfinite(r->warning_floor_ms) || !(sb.median > 0)) {
		/* The readers refuse such times; a caller that did not
		 * check gets no verdict rather than a wrong one. */
		r->status = PROF_CMP_INCOMPARABLE;
		snprintf(r->reason, sizeof(r->reason),
			 "median %g ms against baseline %g ms cannot be judged",
			 sc.median, sb.median);
		r->ratio = r->delta_ms = NAN;
		return 0;
	}
	seed_rule(cur, nc, sc.median, sb.median, r->warning_floor_ms,
		  band_of(r), &sr);
	if (out)
		*out = sr;
	r->above = sr.above;
	r->below = sr.below;
	p = prof_stats_mann_whitney(cur, nc, base, nb);
	r->p_value = p < 0 ? NAN : p;
	r->status = sr.status;
	if (sr.status == PROF_CMP_WARNING || sr.status == PROF_CMP_IMPROVED) {
		/* The two are mirrors: slower, samples above; faster, below. */
		int up = sr.status == PROF_CMP_WARNING;

		pct = up ? (r->ratio - 1) * 100 : faster_pct(r->ratio);
		snprintf(
		    r->reason, sizeof(r->reason),
		    "median %.1f%% %s (%+.3f ms%sfloor %g ms), more "
		    "than the %g%% threshold, %zu of %zu samples %s the "
		    "baseline median",
		    pct, up ? "slower" : "faster", r->delta_ms,
		    up ? " >= " : ", ", r->warning_floor_ms, r->threshold_pct,
		    up ? r->above : r->below, nc, up ? "above" : "below");
		return 0;
	}
	judge_stable(r, nc, sr.slower, sr.faster, sr.over_floor);
	return 0;
}

void
prof_cmp_reason_prefix(struct prof_cmp_row *r, const char *fmt, ...)
{
	char seen[sizeof(r->reason)];
	size_t k, n;
	va_list ap;

	memcpy(seen, r->reason, sizeof(seen));
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
	k = strlen(r->reason);
	n = strnlen(seen, sizeof(r->reason) - k - 1);
	memcpy(r->reason + k, seen, n);
	r->reason[k + n] = '\0';
}

void
prof_cmp_reason_add(struct prof_cmp_row *r, const char *fmt, ...)
{
	size_t len = strlen(r->reason);
	va_list ap;

	if (len + 1 >= sizeof(r->reason))
		return;
	va_start(ap, fmt);
	vsnprintf(r->reason + len, sizeof(r->reason) - len, fmt, ap);
	va_end(ap);
}

/* The share (%) of the first n calls' wall time that their run-queue
 * delay took: 1 - sum(own) / sum(wall). */
double
prof_cmp_queue_pct(const double *wall, const double *own, size_t n)
{
	double w = 0, o = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		w += wall[i];
		o += own[i];
	}
	return w > 0 ? (1 - o / w) * 100 : 0;
}

/*
 * A row judged on its calls' own time (wall minus run-queue delay) says
 * so where the queue took a part of either side's time worth a word
 * (PROF_CMP_QUEUE_NOTE_PCT), and how much: "own time (the queue took
 * 38.1% of the current calls' wall time, 0.4% of the baseline's): ...".
 * nc and nb: the calls of each side judged.
 */
void
prof_cmp_own_note(struct prof_cmp_row *r, size_t nc, size_t nb)
{
	double qc = prof_cmp_queue_pct(r->cur.v, r->cur.own, nc);
	double qb = prof_cmp_queue_pct(r->base.v, r->base.own, nb);

	if (qc < PROF_CMP_QUEUE_NOTE_PCT && qb < PROF_CMP_QUEUE_NOTE_PCT)
		return;
	prof_cmp_reason_prefix(r,
		      "own time (the queue took %.1f%% of the current calls' "
		      "wall time, %.1f%% of the baseline's): ",
		      qc, qb);
}

/*
 * A baseline row whose calls waited in the machine's queue, their delay
 * unknown: the seed's rule's warning or improved on wall time stands only
 * where the same rule on the calls' CPU times says the same, as an A/B
 * look's does (seq.h); else the row is unsettled. The CPU time of
 * calls on more threads is theirs together: the queue adds none to it
 * either. Returns 0, or -1 when out of memory.
 */
int
prof_cmp_judge_queue(struct prof_cmp_row *r)
{
	const struct prof_cmp_side *c = &r->cur, *b = &r->base;
	struct prof_stats sc, sb;
	struct seed_rule sr;

	if ((r->status != PROF_CMP_WARNING &&
	     r->status != PROF_CMP_IMPROVED) ||
	    c->cpu_known != 1 ||
	    b->cpu_known != 1 ||
	    !(prof_cmp_queued(c->cont, c->n) || prof_cmp_queued(b->cont, b->n)))
		return 0;
	if (prof_stats_compute(c->cpu, c->n, &sc) < 0 ||
	    prof_stats_compute(b->cpu, b->n, &sb) < 0)
		return -1;
	if (sb.median > 0) {
		seed_rule(c->cpu, c->n, sc.median, sb.median,
			  r->warning_floor_ms, band_of(r), &sr);
		if (sr.status == r->status)
			return 0;
	}
	r->status = PROF_CMP_UNSETTLED;
	prof_cmp_reason_prefix(r, "not settled: ");
	if (sb.median > 0)
		prof_cmp_reason_add(r,
			   ", but the CPU time's median %.3f ms against %.3f "
			   "ms (%+.1f%%, %+.3f ms) does not say so: calls "
			   "waited for a core",
			   sc.median, sb.median,
			   (sc.median / sb.median - 1) * 100,
			   sc.median - sb.median);
	else
		prof_cmp_reason_add(r,
			   ", but the CPU time's median %.3f ms against %.3f "
			   "ms does not say so: calls waited for a core",
			   sc.median, sb.median);
	return 0;
}

/* A time row whose current samples were mostly contended says so. */
void
prof_cmp_contended_note(struct prof_cmp_row *r)
{
	if (r->instructions || !r->cur.n || 2 * r->cur.contended <= r->cur.n)
		return;
	prof_cmp_reason_add(r,
		   "; %zu of %zu current samples contended (their calls did "
		   "not run for part of their time): the machine may have "
		   "been busy",
		   r->cur.contended, r->cur.n);
}

/* A pair of a memory side: call index and value. */
struct at_value {
	long at;
	double v;
};

static int
cmp_at(const void *a, const void *b)
{
	const struct at_value *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

/* Whether the values of each call index of a memory side agree
 * (verdict.h); sets nondet, nd_index, nd_lo and nd_hi. Returns 0, or -1
 * when out of memory. */
int
prof_cmp_check_det(struct prof_cmp_side *d)
{
	struct at_value *p;
	size_t i, j;

	d->nondet = d->det_checked = 0;
	d->nd_index = -1;
	d->nd_lo = d->nd_hi = NAN;
	if (d->n < 2 || !d->at)
		return 0;
	p = malloc(d->n * sizeof(*p));
	if (!p)
		return -1;
	for (i = 0; i < d->n; i++) {
		p[i].at = d->at[i];
		p[i].v = d->v[i];
	}
	qsort(p, d->n, sizeof(*p), cmp_at);
	for (i = 0; i < d->n; i = j) {
		for (j = i + 1; j < d->n && p[j].at == p[i].at; j++)
			;
		if (j - i >= 2)
			d->det_checked = 1;
		if (p[j - 1].v != p[i].v) {
			d->nondet = 1;
			d->nd_index = p[i].at;
			d->nd_lo = p[i].v;
			d->nd_hi = p[j - 1].v;
			break;
		}
	}
	free(p);
	return 0;
}

/* A memory value in a reason, digits grouped. */
static const char *
mem_num(char *buf, size_t n, double v, int sign)
{
	return prof_fmt_count(buf, n, (long long)llround(v), sign);
}

/* An exact memory row: a threshold in percent and a floor in its unit,
 * compared on the integers themselves. */
/* The unit after a value in a reason, " bytes"; none where the name
 * says it ("allocations 1 -> 2"). */
static void
unit_after(const struct prof_cmp_metric *m, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s", strcmp(m->name, m->unit) ? " " : "",
		 strcmp(m->name, m->unit) ? m->unit : "");
}

/* A memory row's numbers in words: the baseline's median (from), the
 * current one (to), the delta (dv), the metric's floor (fl), and the unit
 * after a number (ut, unit_after()). */
struct mem_words {
	char from[32], to[32], dv[32], fl[32], ut[48];
};

static void
mem_words(const struct prof_cmp_row *r, const struct prof_cmp_metric *m,
	  struct mem_words *w)
{
	unit_after(m, w->ut, sizeof(w->ut));
	mem_num(w->from, sizeof(w->from), r->base.st.median, 0);
	mem_num(w->to, sizeof(w->to), r->cur.st.median, 0);
	mem_num(w->dv, sizeof(w->dv), r->delta, 1);
	mem_num(w->fl, sizeof(w->fl), m->floor, 0);
}

static void
judge_mem_exact(struct prof_cmp_row *r, const struct prof_cmp_metric *m)
{
	double c = r->cur.st.median, b = r->base.st.median;
	int over_floor = fabs(r->delta) >= m->floor, over;
	struct mem_words w;
	char pct[32];

	mem_words(r, m, &w);
	if (b > 0)
		snprintf(pct, sizeof(pct), "%+.2f%%", (r->ratio - 1) * 100);
	else
		snprintf(pct, sizeof(pct), "from 0");
	over = c * 100 > b * (100 + m->threshold_pct) && over_floor;
	if (over || (c * 100 < b * (100 - m->threshold_pct) && over_floor)) {
		r->status = over ? PROF_CMP_WARNING : PROF_CMP_IMPROVED;
		snprintf(r->reason, sizeof(r->reason),
			 "%s %s -> %s%s (%s, %s), %s than the %g%% "
			 "threshold and the floor of %s %s",
			 m->name, w.from, w.to, w.ut, pct, w.dv,
			 over ? "more" : "less by more", m->threshold_pct, w.fl,
			 m->unit);
	} else if (c == b) {
		r->status = PROF_CMP_STABLE;
		snprintf(r->reason, sizeof(r->reason), "%s unchanged: %s %s",
			 m->name, w.to, m->unit);
	} else if (!over_floor) {
		r->status = PROF_CMP_STABLE;
		snprintf(r->reason, sizeof(r->reason),
			 "%s %s -> %s%s (%s) but %s is under the floor of %s "
			 "%s",
			 m->name, w.from, w.to, w.ut, pct, w.dv, w.fl, m->unit);
	} else {
		r->status = PROF_CMP_STABLE;
		snprintf(r->reason, sizeof(r->reason),
			 "%s %s -> %s%s (%s, %s), within the %g%% threshold",
			 m->name, w.from, w.to, w.ut, pct, w.dv,
			 m->threshold_pct);
	}
}

/* A memory row judged by ratio, floor and the share of samples: the RSS
 * peak, or an exact metric that was not deterministic. */
static void
judge_mem_ratio(struct prof_cmp_row *r, const struct prof_cmp_metric *m)
{
	double c = r->cur.st.median, b = r->base.st.median, p;
	int slower, faster, over_floor;
	struct mem_words w;
	char ratio[32];
	size_t i;

	r->above = r->below = 0;
	for (i = 0; i < r->cur.n; i++) {
		if (r->cur.v[i] > b)
			r->above++;
		else if (r->cur.v[i] < b)
			r->below++;
	}
	p = prof_stats_mann_whitney(r->cur.v, r->cur.n, r->base.v, r->base.n);
	r->p_value = p < 0 ? NAN : p;
	slower = b > 0 ? r->ratio > PROF_CMP_RATIO : c > 0;
	faster = c <= b / PROF_CMP_RATIO && c < b;
	over_floor = fabs(r->delta) >= m->floor;
	mem_words(r, m, &w);
	if (b > 0)
		snprintf(ratio, sizeof(ratio), "ratio %.3f", r->ratio);
	else
		snprintf(ratio, sizeof(ratio), "from 0");
	if (slower && over_floor && r->above >= r->needed) {
		r->status = PROF_CMP_WARNING;
		prof_cmp_reason_add(r,
			   "%s %s -> %s%s (%s, %s >= floor %s), %zu of %zu "
			   "samples above the baseline median",
			   m->name, w.from, w.to, w.ut, ratio, w.dv, w.fl,
			   r->above, r->cur.n);
	} else if (faster && over_floor && r->below >= r->needed) {
		r->status = PROF_CMP_IMPROVED;
		prof_cmp_reason_add(r,
			   "%s %s -> %s%s (%s, %s, floor %s), %zu of %zu "
			   "samples below the baseline median",
			   m->name, w.from, w.to, w.ut, ratio, w.dv, w.fl,
			   r->below, r->cur.n);
	} else if (!slower && !faster) {
		r->status = PROF_CMP_STABLE;
		prof_cmp_reason_add(
		    r, "%s %s -> %s%s (%s), within the %.0f%% ratio", m->name,
		    w.from, w.to, w.ut, ratio, (PROF_CMP_RATIO - 1) * 100);
	} else if (!over_floor) {
		r->status = PROF_CMP_STABLE;
		prof_cmp_reason_add(r,
			   "%s %s -> %s%s (%s) but %s is under the floor of "
			   "%s %s",
			   m->name, w.from, w.to, w.ut, ratio, w.dv, w.fl,
			   m->unit);
	} else {
		r->status = PROF_CMP_STABLE;
		prof_cmp_reason_add(r,
			   "%s %s -> %s%s (%s, %s) but only %zu of %zu "
			   "samples %s the baseline median (%zu needed)",
			   m->name, w.from, w.to, w.ut, ratio, w.dv,
			   slower ? r->above : r->below, r->cur.n,
			   slower ? "above" : "below", r->needed);
	}
}

/* A memory row whose sides may be compared (verdict.h). */
int
prof_cmp_judge_memory(struct prof_cmp_row *r)
{
	const struct prof_cmp_metric *m = &prof_cmp_metrics[r->memory];
	const struct prof_cmp_side *nd;
	char lo[32], hi[32];

	r->delta = r->cur.st.median - r->base.st.median;
	r->ratio = r->base.st.median > 0 ?
			   r->cur.st.median / r->base.st.median :
			   NAN;
	nd = r->cur.nondet ? &r->cur : r->base.nondet ? &r->base : NULL;
	if (m->exact && !nd) {
		judge_mem_exact(r, m);
		return 0;
	}
	if (nd) {
		mem_num(lo, sizeof(lo), nd->nd_lo, 0);
		mem_num(hi, sizeof(hi), nd->nd_hi, 0);
		prof_cmp_reason_add(r,
			   "not deterministic: call %ld of the %s side gave "
			   "%s to %s %s, so judged by ratio, not exactly: ",
			   nd->nd_index, nd == &r->cur ? "current" : "baseline",
			   lo, hi, m->unit);
	}
	judge_mem_ratio(r, m);
	return 0;
}
