/* internal.h: what the files of src/lib/verdict/ share among themselves and
 * no reader outside it calls; each is defined in the file named above it. */
#ifndef PROF_VERDICT_INTERNAL_H
#define PROF_VERDICT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "verdict/verdict.h"

struct json_object;

/* What the seed's rule says of values v[0..n) of median cm against a
 * baseline median bm (prof_cmp_judge_speed(); prof_cmp_judge_queue() asks it of
 * the CPU times). */
struct seed_rule {
	enum prof_cmp_status status;	/* warning, improved or stable */
	size_t above, below, needed;	/* of v against bm; ceil(0.75 n) */
	int slower, faster, over_floor;	/* what the medians say */
};

/*
 * The name a baseline group is found by: the workload id, and for counts
 * the id with a mark no id has, so that a count row only ever meets the
 * baseline's counts.
 */
const char *prof_cmp_class_of(char *buf, size_t n, const char *w, int cls);

/* Which kind of row an entry is (class_mark()). */
int prof_cmp_entry_class(const struct prof_cmp_entry *e);

/* The first place in ord (sorted by cmp_groups()) whose group is not
 * before workload w and segment seg (NULL: w alone), or with after the
 * first that is after them. */
size_t prof_cmp_group_bound(const struct prof_cmp *c, const uint32_t *ord,
			    const char *w, const char *seg, int after);

/* The memory metrics a sample gives rows to: each that it holds a number
 * of; every one its backend has for a memory sample that is an error (its
 * rows count the error; a timing sample's counts in its time row only):
 * the device peak on a GPU backend only, as a CPU call never has one. */
int prof_cmp_mem_takes(struct json_object *s, enum prof_cmp_mem m);

/* Whether s may give memory rows at all (a "memory" of its own, or the
 * memory phase): where not, no metric takes it, and the metrics' loop of
 * a timing sample is spared. */
int prof_cmp_mem_any(struct json_object *s);

/* Whether s belongs to a row at all (errors and cold samples do). */
int prof_cmp_rowed(struct json_object *s);

void prof_cmp_taken_free(struct prof_cmp_taken *t);

/* The side of a judged row made from a taken one, its arrays borrowed. */
void prof_cmp_taken_side(const struct prof_cmp_taken *t,
			 struct prof_cmp_side *d);

/* Whether the values of each call index of a memory side agree
 * (verdict.h); sets nondet, nd_index, nd_lo and nd_hi. Returns 0, or -1
 * when out of memory. */
int prof_cmp_check_det(struct prof_cmp_side *d);

/* A time row whose current samples were mostly contended says so. */
void prof_cmp_contended_note(struct prof_cmp_row *r);

/*
 * A count row is judged on the calls both sides made, index by index,
 * when one side made calls the other did not (2 calls against 3): the
 * same call of the same build counts the same, another call may not.
 * Else on every call: the row's count (prof_stats_count_index()).
 */
int prof_cmp_judge_count(struct prof_cmp_row *r);

/* A memory row whose sides may be compared (verdict.h). */
int prof_cmp_judge_memory(struct prof_cmp_row *r);

/*
 * A baseline row whose calls waited in the machine's queue, their delay
 * unknown: the seed's rule's warning or improved on wall time stands only
 * where the same rule on the calls' CPU times says the same, as an A/B
 * look's does (seq.h); else the row is unsettled. The CPU time of
 * calls on more threads is theirs together: the queue adds none to it
 * either. Returns 0, or -1 when out of memory.
 */
int prof_cmp_judge_queue(struct prof_cmp_row *r);

/*
 * The seed's rule on the speed of cur[0..nc) against base[0..nb): ratio
 * and delta of the medians, the samples above and below the baseline
 * median, the Mann-Whitney p beside it; status and reason, and what the
 * rule saw into *out (NULL: not asked). Returns 0, or -1 when out of
 * memory.
 */
int prof_cmp_judge_speed(struct prof_cmp_row *r, const double *cur, size_t nc,
	    const double *base, size_t nb, struct seed_rule *out);

/*
 * A row judged on its calls' own time (wall minus run-queue delay) says
 * so where the queue took a part of either side's time worth a word
 * (PROF_CMP_QUEUE_NOTE_PCT), and how much: "own time (the queue took
 * 38.1% of the current calls' wall time, 0.4% of the baseline's): ...".
 * nc and nb: the calls of each side judged.
 */
void prof_cmp_own_note(struct prof_cmp_row *r, size_t nc, size_t nb);

/*
 * The values of v[0..n) that a look judges: the uncontended ones when
 * clean (cont NULL: all are), else all; into out. Their number.
 */
size_t prof_cmp_pick(const double *v, const unsigned char *cont, size_t n,
		     int clean, double *out);

/* The share (%) of the first n calls' wall time that their run-queue
 * delay took: 1 - sum(own) / sum(wall). */
double prof_cmp_queue_pct(const double *wall, const double *own, size_t n);

/* Whether any of the first n calls waited in the machine's queue. */
int prof_cmp_queued(const unsigned char *cont, size_t n);

void prof_cmp_reason_add(struct prof_cmp_row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void prof_cmp_reason_prefix(struct prof_cmp_row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A side's statistics; on an instruction row its median is the row's
 * count (prof_stats_count_index()), as every output shows it, and so on a
 * memory row: bytes and allocations are whole numbers, never the mean of
 * two middle samples. */
int prof_cmp_row_stats(const struct prof_cmp_row *r,
		       struct prof_cmp_side *side);

int prof_cmp_same_str(const char *a, const char *b);

/* A checksum for a reason: its first 12 digits, or "unknown". */
void prof_cmp_short_sum(const char *s, char *buf, size_t n);

/*
 * The look an interleaved row is judged on: its looks at n samples a side
 * replayed as prof-time took them, up to the first that settled or the
 * last; where a side that errored ended the rounds between two looks, the
 * look at the n there are. Returns 0, or -1 when out of memory.
 */
int prof_cmp_last_look(const struct prof_cmp_seq *q,
		       const struct prof_cmp_calls *cc,
		       const struct prof_cmp_calls *bc, size_t n,
		       double floor_ms, struct prof_cmp_look *l);

/* The look in words: "ratio 1.27 to 1.33 (99.3%) on the 9 and 11
 * uncontended samples". */
void prof_cmp_look_words(const struct prof_cmp_look *l, char *buf, size_t n);

/* The samples look l settled on (the uncontended, all, or the CPU times
 * of all), of each side, into cv[*nc] and bv[*nb] (room for l->n each). */
void prof_cmp_looked_at(const struct prof_cmp_look *l,
			const struct prof_cmp_calls *cc,
			const struct prof_cmp_calls *bc, double *cv, size_t *nc,
			double *bv, size_t *nb);

/*
 * Row k of a closed c into *r: its statistics, and once the groups were
 * matched (prof_cmp_judge_groups()) judged against its group: the last
 * one of its workload and segment key, and how many others its workload
 * has. *r borrows c's strings and the values of c, or of *buf, which a
 * spilled row is read into (the caller frees it). Returns 0, or -1 when
 * out of memory or a spilled row cannot be read back.
 */
int prof_cmp_row_get(const struct prof_cmp *c, size_t k, struct prof_cmp_row *r,
	char **buf);

#endif /* PROF_VERDICT_INTERNAL_H */
