/* channels.h: a workload's time and instruction channels read together,
 * in one text that summary.md and report.html both print. */
#ifndef PROF_CHANNELS_H
#define PROF_CHANNELS_H

#include <stddef.h>

struct prof_verdict;

/*
 * Whether a time row t and an instruction row c (prof-diff's comparisons
 * of one workload x backend, as verdicts: verdict/read.h; NULL: none)
 * disagree: both judged (stable, warning or improved) with different
 * statuses. When they do, buf holds
 * the two facts and what they can mean, in plain words, each status word
 * between em ("**" for Markdown, "" for plain text): "time **improved**
 * 56%, instructions +82% (**warning**): more instructions per cycle (for
 * example fewer dependencies between them); trust time for speed, counts
 * for the amount of work". More instructions is never read as more time.
 * Returns 1 and the text (cut to n bytes), or 0 with buf empty when the
 * channels agree or either row is missing or not judged.
 */
int prof_channels_time_count(const struct prof_verdict *t,
			     const struct prof_verdict *c, const char *em,
			     char *buf, size_t n);

/*
 * Whether a time row t and a memory row m (verdicts of prof-diff's
 * comparisons of one workload x backend x segment) disagree: both judged,
 * m warning or improved, and t not the same. When they do, buf holds
 * both facts and what they can mean, status words between em: "time
 * **stable** +2.9%, heap peak +100% (**warning**): more memory in the
 * same time, which another machine, allocator or a larger input may not
 * forgive". The words are the metric's: "allocations +50% (**warning**):
 * more allocations in the same time", "fewer bytes allocated in the same
 * time", "faster but with more allocations: time bought with
 * allocations": the words of the metric's row of prof_cmp_metrics[]
 * (name, more, less, noun). Returns 1, or 0 with buf empty (also where m
 * is no memory row).
 */
int prof_channels_time_memory(const struct prof_verdict *t,
			      const struct prof_verdict *m, const char *em,
			      char *buf, size_t n);

/*
 * An instruction count as every page prints it, digits grouped by commas:
 * 1234567 as "1,234,567", or "+1,234,567" when sign is set and v > 0 (a
 * negative v always has its "-"). Cut to n bytes; returns buf.
 */
char *prof_fmt_count(char *buf, size_t n, long long v, int sign);

#endif /* PROF_CHANNELS_H */
