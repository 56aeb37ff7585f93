/* channels.c: time and instructions read together (channels.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "channels.h"

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

/*
 * What a memory metric counts, in words: its name in a change ("heap
 * peak"), and the amount it measures, more and less of it ("more
 * allocations", "fewer allocations"). A metric this file does not know is
 * "memory".
 */
struct mem_words {
	const char *key, *name, *more, *less, *noun;
};

static const struct mem_words MEM_WORDS[] = {
	{"host_peak_bytes", "heap peak", "more memory", "less memory",
	 "memory"},
	{"host_allocs", "allocations", "more allocations", "fewer allocations",
	 "allocations"},
	{"host_allocated_bytes", "bytes allocated", "more bytes allocated",
	 "fewer bytes allocated", "allocated bytes"},
	{"rss_peak_bytes", "RSS peak", "more memory", "less memory", "memory"},
	{NULL, "memory", "more memory", "less memory", "memory"},
};

static const struct mem_words *
mem_words(const char *key)
{
	const struct mem_words *w;

	for (w = MEM_WORDS; w->key; w++)
		if (key && !strcmp(key, w->key))
			break;
	return w;
}

int
prof_channels_memory(struct json_object *t, struct json_object *m,
		     const char *em, char *buf, size_t n)
{
	const char *ts = t ? prof_json_str(t, "status") : NULL;
	const char *ms = m ? prof_json_str(m, "status") : NULL;
	const struct mem_words *w = mem_words(m ? prof_json_str(m, "metric") :
						  NULL);
	char meaning[256];
	double pct = m ? row_pct(m) : NAN;
	char tw[64], mw[80];

	if (n)
		buf[0] = '\0';
	if (!judged_status(ts) || !ms ||
	    (strcmp(ms, "warning") && strcmp(ms, "improved")) ||
	    !strcmp(ts, ms))
		return 0;
	change_words(t, 1, em, tw, sizeof(tw));
	if (isfinite(pct))
		snprintf(mw, sizeof(mw), "%+.*f%% (%s%s%s)",
			 fabs(pct) < 10 ? 1 : 0, pct, em, ms, em);
	else
		snprintf(mw, sizeof(mw), "from 0 (%s%s%s)", em, ms, em);
	/* "more allocations in the same time": what the memory channel saw,
	 * beside what time did not. */
	if (!strcmp(ms, "warning") && !strcmp(ts, "improved"))
		snprintf(meaning, sizeof(meaning),
			 "faster but %s %s: time bought with %s",
			 strcmp(w->noun, "memory") ? "with" : "holding",
			 w->more, w->noun);
	else if (!strcmp(ms, "warning"))
		snprintf(meaning, sizeof(meaning),
			 "%s in the same time, which another machine, "
			 "allocator or a larger input may not forgive",
			 w->more);
	else if (!strcmp(ts, "warning"))
		snprintf(meaning, sizeof(meaning),
			 "%s but slower: %s bought with time", w->less,
			 w->noun);
	else
		snprintf(meaning, sizeof(meaning), "%s in the same time",
			 w->less);
	/* Time's status first: "time **stable** +2.9%". */
	if (!strcmp(ts, "improved"))
		snprintf(buf, n, "time %s, %s %s: %s", tw, w->name, mw,
			 meaning);
	else
		snprintf(buf, n, "time %s%s%s %+.1f%%, %s %s: %s", em, ts, em,
			 row_pct(t), w->name, mw, meaning);
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
