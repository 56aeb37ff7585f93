/* channels.c: time and instructions read together (channels.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verdict/channels.h"
#include "verdict/read.h"

/* Whether a row's status is a judgement of speed or work (not new or
 * incomparable); NULL: no row. */
static int
judged(const struct prof_verdict *v)
{
	return v && (v->status == PROF_CMP_STABLE ||
		     v->status == PROF_CMP_WARNING ||
		     v->status == PROF_CMP_IMPROVED);
}

/* The percentage change of a row's median, from its ratio. */
static double
row_pct(const struct prof_verdict *v)
{
	return isfinite(v->ratio) ? (v->ratio - 1) * 100 : NAN;
}

/* A row's change and status in words: "**improved** 56%" for time that
 * improved, else "+82% (**warning**)". */
static void
change_words(const struct prof_verdict *v, int time, const char *em,
	     char *buf, size_t n)
{
	const char *st = v->status_name;
	double pct = row_pct(v);
	int digits = fabs(pct) < 10 ? 1 : 0;

	if (time && v->status == PROF_CMP_IMPROVED)
		snprintf(buf, n, "%simproved%s %.*f%%", em, em, digits, -pct);
	else
		snprintf(buf, n, "%+.*f%% (%s%s%s)", digits, pct, em, st, em);
}

/*
 * What a disagreement between time (ts) and instructions (cs) can mean,
 * in plain facts: fewer or more instructions are not less or more time,
 * so neither channel is read as the other.
 */
static const char *
disagreement_meaning(enum prof_cmp_status ts, enum prof_cmp_status cs,
		     double tpct, double cpct)
{
	int t_up = ts == PROF_CMP_WARNING ||
		   (ts == PROF_CMP_STABLE && tpct > 0);
	int c_up = cs == PROF_CMP_WARNING ||
		   (cs == PROF_CMP_STABLE && cpct > 0);

	if (ts == PROF_CMP_WARNING && cs == PROF_CMP_STABLE)
		return "the same amount of work took longer: the machine "
		       "(noise, drift; run it again or interleaved with make "
		       "compare) or a slowdown that costs no instructions "
		       "(cache misses, locks, I/O)";
	if (ts == PROF_CMP_IMPROVED && cs == PROF_CMP_STABLE)
		return "the same amount of work in less time: better use of "
		       "the machine (caches, instructions that run in "
		       "parallel) or a calmer machine than the baseline's";
	if (ts == PROF_CMP_STABLE && cs == PROF_CMP_IMPROVED)
		return "less work in about the same time: the instructions "
		       "saved were not the ones the time waited on, or the "
		       "gain is under the time's noise or floor";
	if (ts == PROF_CMP_STABLE && cs == PROF_CMP_WARNING)
		return "more work in about the same time: more instructions "
		       "per cycle, or a cost under the time's noise or floor "
		       "that may show on another machine";
	if (t_up && !c_up)
		return "fewer instructions took longer: slower instructions "
		       "(cache misses, longer dependency chains, divisions) "
		       "or the machine";
	if (!t_up && c_up)
		return "more instructions per cycle (for example fewer "
		       "dependencies between them)";
	return "the two channels moved apart";
}

int
prof_channels_time_memory(const struct prof_verdict *t,
			  const struct prof_verdict *m, const char *em,
			  char *buf, size_t n)
{
	const struct prof_cmp_metric *w;
	const char *ts, *ms;
	char meaning[256];
	char tw[64], mw[80];
	double pct;

	if (n)
		buf[0] = '\0';
	if (!judged(t) || !m || m->metric == PROF_CMP_MEM_NONE ||
	    (m->status != PROF_CMP_WARNING && m->status != PROF_CMP_IMPROVED) ||
	    t->status == m->status)
		return 0;
	ts = t->status_name;
	ms = m->status_name;
	/* The metric's own words, from the table (verdict/table.h). */
	w = &prof_cmp_metrics[m->metric];
	pct = row_pct(m);
	change_words(t, 1, em, tw, sizeof(tw));
	if (isfinite(pct))
		snprintf(mw, sizeof(mw), "%+.*f%% (%s%s%s)",
			 fabs(pct) < 10 ? 1 : 0, pct, em, ms, em);
	else
		snprintf(mw, sizeof(mw), "from 0 (%s%s%s)", em, ms, em);
	/* "more allocations in the same time": what the memory channel saw,
	 * beside what time did not. */
	if (m->status == PROF_CMP_WARNING && t->status == PROF_CMP_IMPROVED)
		snprintf(meaning, sizeof(meaning),
			 "faster but %s %s: time bought with %s",
			 strcmp(w->noun, "memory") ? "with" : "holding",
			 w->more, w->noun);
	else if (m->status == PROF_CMP_WARNING)
		snprintf(meaning, sizeof(meaning),
			 "%s in the same time, which another machine, "
			 "allocator or a larger input may not forgive",
			 w->more);
	else if (t->status == PROF_CMP_WARNING)
		snprintf(meaning, sizeof(meaning),
			 "%s but slower: %s bought with time", w->less,
			 w->noun);
	else
		snprintf(meaning, sizeof(meaning), "%s in the same time",
			 w->less);
	/* Time's status first: "time **stable** +2.9%". */
	if (t->status == PROF_CMP_IMPROVED)
		snprintf(buf, n, "time %s, %s %s: %s", tw, w->name, mw,
			 meaning);
	else
		snprintf(buf, n, "time %s%s%s %+.1f%%, %s %s: %s", em, ts, em,
			 row_pct(t), w->name, mw, meaning);
	return 1;
}

int
prof_channels_time_count(const struct prof_verdict *t,
			 const struct prof_verdict *c, const char *em,
			 char *buf, size_t n)
{
	char tw[64], cw[64];

	if (n)
		buf[0] = '\0';
	if (!judged(t) || !judged(c) || t->status == c->status)
		return 0;
	change_words(t, 1, em, tw, sizeof(tw));
	change_words(c, 0, em, cw, sizeof(cw));
	snprintf(buf, n, "time %s, instructions %s: %s; trust time for "
			 "speed, counts for the amount of work",
		 tw, cw,
		 disagreement_meaning(t->status, c->status, row_pct(t),
				      row_pct(c)));
	return 1;
}

char *
prof_fmt_count(char *buf, size_t n, long long v, int sign)
{
	char d[32];
	unsigned long long x = v < 0 ? 0ULL - (unsigned long long)v :
				       (unsigned long long)v;
	int len = snprintf(d, sizeof(d), "%llu", x), i;
	size_t j = 0;

	if (!n)
		return buf;
	if ((v < 0 || (sign && v > 0)) && j + 1 < n)
		buf[j++] = v < 0 ? '-' : '+';
	for (i = 0; i < len && j + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = d[i];
	}
	buf[j] = '\0';
	return buf;
}
