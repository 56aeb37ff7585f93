/* channels.c: time and instructions read together (channels.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "channels.h"
#include "json.h"

/* Whether a status is a judgement of speed or work (not new or
 * incomparable). */
static int
judged_status(const char *st)
{
	return st && (!strcmp(st, "stable") || !strcmp(st, "warning") ||
		      !strcmp(st, "improved"));
}

/* The percentage change of a row's median, from its ratio. */
static double
row_pct(struct json_object *row)
{
	double ratio = prof_json_numf(row, "ratio");

	return isfinite(ratio) ? (ratio - 1) * 100 : NAN;
}

/* A row's change and status in words: "**improved** 56%" for time that
 * improved, else "+82% (**warning**)". */
static void
change_words(struct json_object *row, int time, const char *em, char *buf,
	     size_t n)
{
	const char *st = prof_json_str(row, "status");
	double pct = row_pct(row);
	int digits = fabs(pct) < 10 ? 1 : 0;

	if (time && !strcmp(st, "improved"))
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
disagreement_meaning(const char *ts, const char *cs, double tpct, double cpct)
{
	int t_up = !strcmp(ts, "warning") ||
		   (!strcmp(ts, "stable") && tpct > 0);
	int c_up = !strcmp(cs, "warning") ||
		   (!strcmp(cs, "stable") && cpct > 0);

	if (!strcmp(ts, "warning") && !strcmp(cs, "stable"))
		return "the same amount of work took longer: the machine "
		       "(noise, drift; run it again or interleaved with make "
		       "compare) or a slowdown that costs no instructions "
		       "(cache misses, locks, I/O)";
	if (!strcmp(ts, "improved") && !strcmp(cs, "stable"))
		return "the same amount of work in less time: better use of "
		       "the machine (caches, instructions that run in "
		       "parallel) or a calmer machine than the baseline's";
	if (!strcmp(ts, "stable") && !strcmp(cs, "improved"))
		return "less work in about the same time: the instructions "
		       "saved were not the ones the time waited on, or the "
		       "gain is under the time's noise or floor";
	if (!strcmp(ts, "stable") && !strcmp(cs, "warning"))
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
prof_channels_memory(struct json_object *t, struct json_object *m,
		     const char *em, char *buf, size_t n)
{
	const char *ts = t ? prof_json_str(t, "status") : NULL;
	const char *ms = m ? prof_json_str(m, "status") : NULL;
	const char *name = m ? prof_json_str(m, "metric") : NULL;
	const char *meaning;
	double pct = m ? row_pct(m) : NAN;
	char tw[64], mw[80];

	if (n)
		buf[0] = '\0';
	if (!judged_status(ts) || !ms ||
	    (strcmp(ms, "warning") && strcmp(ms, "improved")) ||
	    !strcmp(ts, ms))
		return 0;
	if (!strcmp(name ? name : "", "host_peak_bytes"))
		name = "heap peak";
	else if (!strcmp(name ? name : "", "host_allocs"))
		name = "allocations";
	else if (!strcmp(name ? name : "", "host_allocated_bytes"))
		name = "bytes allocated";
	else if (!strcmp(name ? name : "", "rss_peak_bytes"))
		name = "RSS peak";
	change_words(t, 1, em, tw, sizeof(tw));
	if (isfinite(pct))
		snprintf(mw, sizeof(mw), "%+.*f%% (%s%s%s)",
			 fabs(pct) < 10 ? 1 : 0, pct, em, ms, em);
	else
		snprintf(mw, sizeof(mw), "from 0 (%s%s%s)", em, ms, em);
	if (!strcmp(ms, "warning"))
		meaning = !strcmp(ts, "improved") ?
				  "faster but holding more memory: time "
				  "bought with memory" :
				  "more memory in the same time, which "
				  "another machine, allocator or a larger "
				  "input may not forgive";
	else
		meaning = !strcmp(ts, "warning") ?
				  "less memory but slower: memory bought with "
				  "time" :
				  "less memory in the same time";
	/* Time's status first: "time **stable** +2.9%". */
	if (!strcmp(ts, "improved"))
		snprintf(buf, n, "time %s, %s %s: %s", tw,
			 name ? name : "memory", mw, meaning);
	else
		snprintf(buf, n, "time %s%s%s %+.1f%%, %s %s: %s", em, ts, em,
			 row_pct(t), name ? name : "memory", mw, meaning);
	return 1;
}

int
prof_channels_disagree(struct json_object *t, struct json_object *c,
		       const char *em, char *buf, size_t n)
{
	const char *ts = t ? prof_json_str(t, "status") : NULL;
	const char *cs = c ? prof_json_str(c, "status") : NULL;
	char tw[64], cw[64];

	if (n)
		buf[0] = '\0';
	if (!judged_status(ts) || !judged_status(cs) || !strcmp(ts, cs))
		return 0;
	change_words(t, 1, em, tw, sizeof(tw));
	change_words(c, 0, em, cw, sizeof(cw));
	snprintf(buf, n, "time %s, instructions %s: %s; trust time for "
			 "speed, counts for the amount of work",
		 tw, cw, disagreement_meaning(ts, cs, row_pct(t), row_pct(c)));
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
