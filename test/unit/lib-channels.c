/* lib-channels.c: time read beside instructions and memory (channels.h):
 * when two judged rows disagree, the two facts in words, status words
 * between the caller's emphasis; and counts with their digits grouped. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "channels.h"
#include "tap.h"
#include "verdict/read.h"

static struct json_object *
row(const char *status, double ratio, const char *metric)
{
	struct json_object *r = json_object_new_object();

	json_object_object_add(r, "status", json_object_new_string(status));
	json_object_object_add(r, "ratio", json_object_new_double(ratio));
	/* A memory row says its phase, as prof-diff writes it. */
	if (metric) {
		json_object_object_add(r, "phase",
				       json_object_new_string("memory"));
		json_object_object_add(r, "metric",
				       json_object_new_string(metric));
	}
	return r;
}

/* Whether s starts with prefix; prints s when not. */
static int
starts(const char *s, const char *prefix, const char *name)
{
	int c = !strncmp(s, prefix, strlen(prefix));

	if (!ok(c, name))
		fprintf(stderr, "#   got '%s'\n#  want '%s...'\n", s, prefix);
	return c;
}

/* The rows' text is the same read as verdicts first (the summary's
 * readers) as of their objects (the page's). */
static void
same_as_verdicts(struct json_object *t, struct json_object *o, int memory,
		 const char *name)
{
	struct prof_verdict tv, ov;
	char a[512], b[512];

	prof_verdict_read(t, &tv);
	prof_verdict_read(o, &ov);
	if (memory) {
		prof_channels_memory(t, o, "**", a, sizeof(a));
		prof_channels_time_memory(&tv, &ov, "**", b, sizeof(b));
	} else {
		prof_channels_disagree(t, o, "**", a, sizeof(a));
		prof_channels_time_count(&tv, &ov, "**", b, sizeof(b));
	}
	ok(a[0] && !strcmp(a, b), name);
}

static void
test_disagree(void)
{
	struct json_object *t = row("improved", 0.44, NULL);
	struct json_object *c = row("warning", 1.82, NULL);
	struct json_object *same = row("improved", 0.9, NULL);
	struct json_object *fresh = row("new", 1, NULL);
	char buf[512];

	ok(prof_channels_disagree(t, c, "**", buf, sizeof(buf)) == 1,
	   "time improved, instructions warning: they disagree");
	starts(buf,
	       "time **improved** 56%, instructions +82% (**warning**): more "
	       "instructions per cycle",
	       "the two facts, then what they can mean");
	ok(strstr(buf, "; trust time for speed, counts for the amount of "
		       "work") != NULL,
	   "and which channel to trust for what");
	prof_channels_disagree(t, c, "", buf, sizeof(buf));
	starts(buf, "time improved 56%, instructions +82% (warning)",
	       "plain text without emphasis");
	ok(prof_channels_disagree(t, same, "**", buf, sizeof(buf)) == 0 &&
	       buf[0] == '\0',
	   "the same status: no text");
	ok(prof_channels_disagree(t, fresh, "**", buf, sizeof(buf)) == 0 &&
	       prof_channels_disagree(NULL, c, "**", buf, sizeof(buf)) == 0,
	   "a row not judged, or missing: no text");
	same_as_verdicts(t, c, 0,
			 "time and instructions as verdicts: the same words");
	json_object_put(t);
	json_object_put(c);
	json_object_put(same);
	json_object_put(fresh);
}

static void
test_memory(void)
{
	struct json_object *t = row("stable", 1.029, NULL);
	struct json_object *m = row("warning", 2, "host_peak_bytes");
	struct json_object *mt = row("stable", 1.5, "host_peak_bytes");
	char buf[512];

	ok(prof_channels_memory(t, m, "**", buf, sizeof(buf)) == 1,
	   "time stable, heap peak warning: they disagree");
	is_str(buf,
	       "time **stable** +2.9%, heap peak +100% (**warning**): more "
	       "memory in the same time, which another machine, allocator or "
	       "a larger input may not forgive",
	       "the memory row under its reader's name");
	ok(prof_channels_memory(t, mt, "**", buf, sizeof(buf)) == 0 &&
	       buf[0] == '\0',
	   "memory stable: nothing to say");
	same_as_verdicts(t, m, 1,
			 "time and memory as verdicts: the same words");
	json_object_put(t);
	json_object_put(m);
	json_object_put(mt);
}

static void
test_count(void)
{
	char buf[64], tiny[4];

	is_str(prof_fmt_count(buf, sizeof(buf), 1234567, 0), "1,234,567",
	       "digits grouped by commas");
	is_str(prof_fmt_count(buf, sizeof(buf), 1234567, 1), "+1,234,567",
	       "with sign, a positive count has its +");
	is_str(prof_fmt_count(buf, sizeof(buf), 0, 1), "0", "0 has no sign");
	is_str(prof_fmt_count(buf, sizeof(buf), -999, 0), "-999",
	       "a negative count always has its -");
	is_str(prof_fmt_count(buf, sizeof(buf), LLONG_MIN, 0),
	       "-9,223,372,036,854,775,808", "the most negative count whole");
	is_str(prof_fmt_count(tiny, sizeof(tiny), 123456, 0), "12",
	       "cut to the buffer, never past it");
}

int
main(void)
{
	plan(17);
	test_disagree();
	test_memory();
	test_count();
	return done();
}
