/* compare.c: grouping samples into rows and judging them against a baseline. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/id.h"
#include "base/json.h"
#include "channels.h"
#include "compare.h"
#include "model/contend.h"
#include "model/sample.h"

int
prof_cmp_aggregated(struct json_object *s)
{
	return (prof_sample_is(s, "phase", "timing") ||
		prof_sample_is(s, "phase", "browser")) &&
	       prof_sample_is(s, "kind", "warm") &&
	       prof_sample_is(s, "outcome", "success") &&
	       isfinite(prof_sample_num(s, "duration_ms"));
}

int
prof_cmp_counted(struct json_object *s)
{
	struct json_object *v = NULL;

	return prof_sample_is(s, "phase", "instructions") &&
	       prof_sample_is(s, "kind", "warm") &&
	       prof_sample_is(s, "outcome", "success") &&
	       json_object_object_get_ex(s, "instructions", &v) &&
	       json_object_is_type(v, json_type_int);
}

const struct prof_cmp_metric prof_cmp_metrics[PROF_CMP_MEM_N] = {
	[PROF_CMP_MEM_PEAK] = {"host_peak_bytes", "heap peak", "bytes", 1,
			       PROF_CMP_MEM_THRESHOLD,
			       PROF_CMP_MEM_FLOOR_BYTES},
	[PROF_CMP_MEM_ALLOCS] = {"host_allocs", "allocations", "allocations",
				 1, PROF_CMP_MEM_THRESHOLD,
				 PROF_CMP_MEM_FLOOR_ALLOCS},
	[PROF_CMP_MEM_BYTES] = {"host_allocated_bytes", "bytes allocated",
				"bytes", 1, PROF_CMP_MEM_THRESHOLD,
				PROF_CMP_MEM_FLOOR_BYTES},
	[PROF_CMP_MEM_RSS] = {"rss_peak_bytes", "RSS peak", "bytes", 0, 0,
			      PROF_CMP_MEM_FLOOR_RSS},
	[PROF_CMP_MEM_DEVICE] = {"device_peak_allocated_bytes", "device peak",
				 "bytes", 1, PROF_CMP_MEM_THRESHOLD,
				 PROF_CMP_MEM_FLOOR_DEVICE},
};

enum prof_cmp_mem
prof_cmp_metric_find(const char *key)
{
	int m;

	for (m = 1; key && m < PROF_CMP_MEM_N; m++)
		if (!strcmp(key, prof_cmp_metrics[m].key))
			return (enum prof_cmp_mem)m;
	return PROF_CMP_MEM_NONE;
}

/* Whether s gives memory rows: a memory sample, or a timing sample with
 * a "memory" of its own (a command's RSS peak, cmdsample.c). */
static int
mem_sample(struct json_object *s)
{
	return prof_sample_is(s, "phase", "memory") ||
	       (prof_sample_is(s, "phase", "timing") &&
		json_object_object_get_ex(s, "memory", NULL));
}

/* Whether s is a sample that memory rows aggregate, with metric m a
 * number (into *v). */
static int
mem_value(struct json_object *s, enum prof_cmp_mem m, double *v)
{
	struct json_object *mem = NULL, *x = NULL;

	if (!mem_sample(s) ||
	    !prof_sample_is(s, "kind", "warm") ||
	    !prof_sample_is(s, "outcome", "success") ||
	    !json_object_object_get_ex(s, "memory", &mem) ||
	    !json_object_object_get_ex(mem, prof_cmp_metrics[m].key, &x) ||
	    !prof_json_is_number(x))
		return 0;
	*v = prof_json_number(x);
	return isfinite(*v);
}

int
prof_cmp_mem_value(struct json_object *s, enum prof_cmp_mem m, double *v)
{
	return m > PROF_CMP_MEM_NONE && m < PROF_CMP_MEM_N &&
	       mem_value(s, m, v);
}

/* Whether s belongs to a row at all (errors and cold samples do). */
static int
rowed(struct json_object *s)
{
	return prof_sample_is(s, "phase", "timing") ||
	       prof_sample_is(s, "phase", "browser") ||
	       prof_sample_is(s, "phase", "instructions") ||
	       prof_sample_is(s, "phase", "memory");
}

/* Which kind of row a sample of row class k is: 0 time, 1 counts, 1 + m
 * memory metric m. The mark a row key carries for it ("" for time). */
static const char *
class_mark(char *buf, size_t n, int k)
{
	if (k == 0)
		buf[0] = '\0';
	else if (k == 1)
		snprintf(buf, n, "\001count");
	else
		snprintf(buf, n, "\001mem:%s", prof_cmp_metrics[k - 1].key);
	return buf;
}

int
prof_cmp_side_add_timed(struct prof_cmp_side *s, double v, int contended,
			double cpu_ms, double own_ms)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		double *nv = realloc(s->v, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		s->v = nv;
		if (s->cont) {
			unsigned char *nc = realloc(s->cont, ncap);

			if (!nc)
				return -1;
			s->cont = nc;
		}
		if (s->cpu) {
			double *np = realloc(s->cpu, ncap * sizeof(*np));

			if (!np)
				return -1;
			s->cpu = np;
		}
		if (s->own) {
			double *np = realloc(s->own, ncap * sizeof(*np));

			if (!np)
				return -1;
			s->own = np;
		}
		s->cap = ncap;
	}
	/* The marks are kept from the first contended sample on. */
	if (contended && !s->cont) {
		s->cont = calloc(s->cap, 1);
		if (!s->cont)
			return -1;
	}
	if (s->cont)
		s->cont[s->n] = (unsigned char)contended;
	s->contended += contended != 0;
	/* CPU times while every sample has one. */
	if (!isfinite(cpu_ms) || cpu_ms < 0) {
		s->cpu_known = -1;
	} else if (s->cpu_known == 0 && s->n == 0) {
		s->cpu = malloc(s->cap * sizeof(*s->cpu));
		if (!s->cpu)
			return -1;
		s->cpu_known = 1;
	}
	if (s->cpu_known == 1)
		s->cpu[s->n] = cpu_ms;
	/* Own times while every sample says its delay. */
	if (!isfinite(own_ms) || own_ms < 0) {
		s->own_known = -1;
	} else if (s->own_known == 0 && s->n == 0) {
		s->own = malloc(s->cap * sizeof(*s->own));
		if (!s->own)
			return -1;
		s->own_known = 1;
	}
	if (s->own_known == 1)
		s->own[s->n] = own_ms;
	s->v[s->n++] = v;
	return 0;
}

int
prof_cmp_side_add_marked(struct prof_cmp_side *s, double v, int contended,
			 double cpu_ms)
{
	return prof_cmp_side_add_timed(s, v, contended, cpu_ms, NAN);
}

int
prof_cmp_side_add(struct prof_cmp_side *s, double v)
{
	return prof_cmp_side_add_marked(s, v, 0, NAN);
}

int
prof_cmp_side_add_at(struct prof_cmp_side *s, double v, long at)
{
	if (prof_cmp_side_add_marked(s, v, 0, NAN) < 0)
		return -1;
	if (s->cap_at < s->cap) {
		long *na = realloc(s->at, s->cap * sizeof(*na));

		if (!na) {
			s->n--;
			return -1;
		}
		s->at = na;
		s->cap_at = s->cap;
	}
	s->at[s->n - 1] = at;
	return 0;
}

double
prof_cmp_own_ms(struct json_object *s)
{
	const char *rd = prof_sample_str(s, "run_delay");

	if (!prof_sample_run_delay(s, NULL) || (rd && !strcmp(rd, "partial")))
		return NAN;
	return prof_sample_own_ms(s);
}

/* A taken side's rarer facts, made when the first of them comes. */
static struct prof_cmp_more *
taken_more(struct prof_cmp_taken *t)
{
	if (!t->more)
		t->more = calloc(1, sizeof(*t->more));
	return t->more;
}

/* Room for one more value in a taken side: its arrays grow together. */
static int
taken_room(struct prof_cmp_taken *t)
{
	struct prof_cmp_more *m = t->more;
	uint32_t ncap;
	void *p;

	if (t->n < t->cap)
		return 0;
	if (t->cap > UINT32_MAX / 4)
		return -1;
	/* 3, 5, 7 and 9 values fill a malloc chunk each (glibc: 24, 40,
	 * 56, 72 bytes); then doubling. */
	ncap = t->cap < 3 ? 3 : t->cap < 9 ? t->cap + 2 : t->cap * 2;
	p = realloc(t->v, ncap * sizeof(*t->v));
	if (!p)
		return -1;
	t->v = p;
	if (m && m->cont) {
		p = realloc(m->cont, ncap);
		if (!p)
			return -1;
		m->cont = p;
	}
	if (m && m->at) {
		p = realloc(m->at, ncap * sizeof(*m->at));
		if (!p)
			return -1;
		m->at = p;
	}
	if (m && m->cpu) {
		p = realloc(m->cpu, ncap * sizeof(*m->cpu));
		if (!p)
			return -1;
		m->cpu = p;
	}
	if (m && m->own) {
		p = realloc(m->own, ncap * sizeof(*m->own));
		if (!p)
			return -1;
		m->own = p;
	}
	t->cap = ncap;
	return 0;
}

/* Add a value to a taken side by prof_cmp_side_add_marked()'s rules,
 * with its call index when at is not NULL. Returns 0, or -1 when out of
 * memory. */
static int
taken_add(struct prof_cmp_taken *t, double v, int contended, double cpu_ms,
	  double own_ms, const long *at)
{
	struct prof_cmp_more *m;

	if (taken_room(t) < 0)
		return -1;
	m = t->more;
	if (contended && !(m && m->cont)) {
		m = taken_more(t);
		if (!m)
			return -1;
		m->cont = calloc(t->cap, 1);
		if (!m->cont)
			return -1;
	}
	if (m && m->cont)
		m->cont[t->n] = (unsigned char)contended;
	t->contended += contended != 0;
	/* CPU times while every value has one; none kept once one has
	 * not. */
	if (!isfinite(cpu_ms) || cpu_ms < 0) {
		t->cpu_known = -1;
		if (m) {
			free(m->cpu);
			m->cpu = NULL;
		}
	} else if (t->cpu_known == 0 && t->n == 0) {
		m = taken_more(t);
		if (!m)
			return -1;
		m->cpu = malloc(t->cap * sizeof(*m->cpu));
		if (!m->cpu)
			return -1;
		t->cpu_known = 1;
	}
	if (t->cpu_known == 1)
		m->cpu[t->n] = cpu_ms;
	/* Own times (wall minus run-queue delay) the same way. */
	if (!isfinite(own_ms) || own_ms < 0) {
		t->own_known = -1;
		if (m) {
			free(m->own);
			m->own = NULL;
		}
	} else if (t->own_known == 0 && t->n == 0) {
		m = taken_more(t);
		if (!m)
			return -1;
		m->own = malloc(t->cap * sizeof(*m->own));
		if (!m->own)
			return -1;
		t->own_known = 1;
	}
	if (t->own_known == 1)
		m->own[t->n] = own_ms;
	if (at) {
		if (!(m && m->at)) {
			m = taken_more(t);
			if (!m)
				return -1;
			m->at = calloc(t->cap, sizeof(*m->at));
			if (!m->at)
				return -1;
		}
		m->at[t->n] = *at;
	}
	t->v[t->n++] = v;
	return 0;
}

/* The side of a judged row made from a taken one, its arrays borrowed. */
static void
taken_side(const struct prof_cmp_taken *t, struct prof_cmp_side *d)
{
	const struct prof_cmp_more *m = t->more;

	memset(d, 0, sizeof(*d));
	d->v = t->v;
	d->n = d->cap = t->n;
	d->version = t->version;
	d->fixture_checksum = t->fixture_checksum;
	d->fixture = t->fixture;
	d->output_checksum = t->output_checksum;
	d->output_other = t->output_other;
	d->errors = t->errors;
	d->contended = t->contended;
	d->cpu_known = t->cpu_known;
	d->cpu_multi = t->cpu_multi;
	d->own_known = t->own_known;
	if (!m)
		return;
	d->ab_first = m->ab_first;
	d->ab_max = m->ab_max;
	d->ab_rounds = m->ab_rounds;
	d->ab_unordered = m->ab_unordered;
	d->cont = m->cont;
	d->at = m->at;
	d->cap_at = m->at ? t->n : 0;
	d->cpu = m->cpu;
	d->own = m->own;
}

static void
taken_free(struct prof_cmp_taken *t)
{
	free(t->v);
	if (t->more) {
		free(t->more->cont);
		free(t->more->at);
		free(t->more->cpu);
		free(t->more->own);
		free(t->more);
	}
}

/* The slot of str in a pool of cap slots: its copy's, or the empty one
 * where it would go. */
static char **
pool_slot(char **pool, size_t cap, const char *str)
{
	size_t i =
	    (size_t)prof_pool_hash(str, strlen(str), PROF_POOL_FNV) & (cap - 1);

	while (pool[i] && strcmp(pool[i], str))
		i = (i + 1) & (cap - 1);
	return &pool[i];
}

/* The pool's texts are copied into blocks of this many bytes, each led
 * by a pointer to the one before (a long text has a block of its own):
 * a malloc a string cost 16 bytes and more a row. */
#define POOL_BLOCK 65536

static char *
pool_copy(struct prof_cmp *c, const char *str)
{
	size_t len = strlen(str) + 1;
	char *b, *p;

	if (len > POOL_BLOCK / 4) {
		b = malloc(sizeof(char *) + len);
		if (!b)
			return NULL;
		/* Behind the block being filled, which goes on. */
		if (c->arena) {
			*(char **)b = *(char **)c->arena;
			*(char **)c->arena = b;
		} else {
			*(char **)b = NULL;
			c->arena = b;
		}
		p = b + sizeof(char *);
		memcpy(p, str, len);
		return p;
	}
	if (len > c->arena_left) {
		b = malloc(POOL_BLOCK);
		if (!b)
			return NULL;
		*(char **)b = c->arena;
		c->arena = b;
		c->arena_at = b + sizeof(char *);
		c->arena_left = POOL_BLOCK - sizeof(char *);
	}
	p = c->arena_at;
	memcpy(p, str, len);
	c->arena_at += len;
	c->arena_left -= len;
	return p;
}

/*
 * A copy of str kept until prof_cmp_free(), one per distinct text: the
 * rows of a segment share its key (600 bytes of text), those of a
 * backend, category or fixture theirs, so that a row costs its own
 * strings only. NULL for NULL or no memory (*oom set).
 */
static const char *
keep(struct prof_cmp *c, const char *str, int *oom)
{
	char **slot;

	if (!str)
		return NULL;
	if ((c->n_pool + 1) * 4 > c->cap_pool * 3) {
		size_t ncap = c->cap_pool ? c->cap_pool * 2 : 64, k;
		char **np = calloc(ncap, sizeof(*np));

		if (!np) {
			*oom = 1;
			return NULL;
		}
		for (k = 0; k < c->cap_pool; k++)
			if (c->pool[k])
				*pool_slot(np, ncap, c->pool[k]) = c->pool[k];
		free(c->pool);
		c->pool = np;
		c->cap_pool = ncap;
	}
	slot = pool_slot(c->pool, c->cap_pool, str);
	if (*slot)
		return *slot;
	*slot = pool_copy(c, str);
	if (!*slot) {
		*oom = 1;
		return NULL;
	}
	c->n_pool++;
	return *slot;
}

/* Take a sample's workload facts into an empty side. */
static void
side_meta(struct prof_cmp *c, struct prof_cmp_taken *d,
	  struct json_object *s, int *oom)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(s, "workload_version", &v);
	d->version = json_object_get_int64(v);
	d->fixture_checksum = keep(c, prof_sample_str(s, "fixture_checksum"),
				   oom);
	d->fixture = keep(c, prof_sample_str(s, "fixture"), oom);
}

/* The A/B facts of a sample into its side (see compare.h). */
static int
ab_take(struct prof_cmp_taken *t, struct json_object *s)
{
	struct json_object *ab = NULL;
	struct prof_cmp_more *d;
	long first, max, round;

	if (!json_object_object_get_ex(s, "ab", &ab) ||
	    !json_object_is_type(ab, json_type_object))
		return 0;
	first = (long)prof_json_numf(ab, "repeat");
	max = (long)prof_json_numf(ab, "max_repeat");
	round = (long)prof_json_numf(ab, "round");
	if (!(first > 0) || !(max >= first) || !(round > 0) ||
	    max > INT32_MAX || round > INT32_MAX)
		return 0;
	d = taken_more(t);
	if (!d)
		return -1;
	if (d->ab_first && (d->ab_first != first || d->ab_max != max))
		d->ab_unordered = 1;
	if (round < d->ab_rounds)
		d->ab_unordered = 1;
	d->ab_first = (int32_t)first;
	d->ab_max = (int32_t)max;
	d->ab_rounds = (int32_t)round;
	return 0;
}

/* Count s into a side: a duration (or a count) when aggregated, an error
 * otherwise; the output checksums of the aggregated samples are kept: the
 * first, and the first other one when the calls disagree. */
static int
side_take(struct prof_cmp *c, struct prof_cmp_taken *d,
	  struct json_object *s, enum prof_cmp_mem mem)
{
	const char *sum;
	double mv = NAN;
	double threads;
	long at;
	int oom = 0;

	if (prof_sample_is(s, "outcome", "error") && d->errors < UINT32_MAX)
		d->errors++;
	if (mem ? !mem_value(s, mem, &mv) :
		  !prof_cmp_counted(s) && !prof_cmp_aggregated(s))
		return 0;
	if (ab_take(d, s) < 0)
		return -1;
	sum = prof_sample_str(s, "checksum");
	if (sum && !d->output_checksum)
		d->output_checksum = keep(c, sum, &oom);
	else if (sum && !d->output_other && strcmp(sum, d->output_checksum))
		d->output_other = keep(c, sum, &oom);
	if (oom)
		return -1;
	/* The call's index in its worker where the sample says it (the
	 * memory phase runs each workload in more than one), else its
	 * index. */
	if (mem) {
		at = (long)(isfinite(prof_sample_num(s, "call")) ?
				    prof_sample_num(s, "call") :
				    prof_sample_num(s, "index"));
		return taken_add(d, mv, 0, NAN, NAN, &at);
	}
	/* A count keeps its call index: counts are deterministic per
	 * index, and judge_count() compares the calls both sides made. */
	if (prof_cmp_counted(s)) {
		at = (long)prof_sample_num(s, "index");
		return taken_add(d,
				 (double)json_object_get_int64(
					 json_object_object_get(
						 s, "instructions")),
				 0, NAN, NAN, &at);
	}
	/* The CPU time of calls on threads (not a GPU call's, threads 0,
	 * whose CPU time says nothing of the device). */
	threads = prof_sample_num(s, "threads");
	if (threads > 1)
		d->cpu_multi = 1;
	/* The code's own time where the sample says its whole run-queue
	 * delay. */
	return taken_add(d, prof_sample_num(s, "duration_ms"),
			 (int)prof_sample_contention(s),
			 isnan(threads) || threads >= 1 ?
				 prof_sample_num(s, "cpu_ms") :
				 NAN,
			 prof_cmp_own_ms(s), NULL);
}

/* A sample's time threshold (time_threshold_pct), or 0 where it
 * records none that a rule can take. */
static double
time_threshold(struct json_object *s)
{
	struct json_object *v = NULL;
	double t;

	if (!json_object_object_get_ex(s, "time_threshold_pct", &v) ||
	    !prof_json_is_number(v))
		return 0;
	t = prof_json_number(v);
	return t > 0 && t <= PROF_CMP_THRESHOLD_MAX ? t : 0;
}

/* An instruction row, and its threshold from the sample: the one
 * recorded is the one judged, 0 included (any growth is a warning); the
 * default only where a sample records none. A time row's is the time
 * threshold its samples record (time_threshold()), 0 none. */
static void
count_meta(struct prof_cmp_entry *r, struct json_object *s,
	   enum prof_cmp_mem mem)
{
	struct json_object *v = NULL;

	r->memory = (unsigned char)mem;
	if (mem) {
		r->threshold_pct = prof_cmp_metrics[mem].threshold_pct;
		return;
	}
	r->instructions = prof_sample_is(s, "phase", "instructions");
	if (!r->instructions) {
		r->threshold_pct = time_threshold(s);
		return;
	}
	r->threshold_pct = PROF_CMP_COUNT_THRESHOLD;
	if (json_object_object_get_ex(s, "count_threshold_pct", &v) &&
	    prof_json_is_number(v) && prof_json_number(v) >= 0)
		r->threshold_pct = prof_json_number(v);
}

/* Which kind of row an entry is (class_mark()). */
static int
entry_class(const struct prof_cmp_entry *e)
{
	return e->memory ? 1 + (int)e->memory : e->instructions ? 1 : 0;
}

static int
cmp_rows(const void *a, const void *b)
{
	const struct prof_cmp_entry *x = a, *y = b;
	int d = strcmp(x->workload, y->workload);

	if (!d)
		d = strcmp(x->backend, y->backend);
	if (!d)
		d = strcmp(x->segment, y->segment);
	/* Time first, then counts, then memory (readers that know only
	 * time take the first row of a key). */
	if (!d)
		d = entry_class(x) - entry_class(y);
	return d;
}

/* Key parts joined by NUL bytes, in buf; its length, or 0 if too long. */
static size_t
join_key(char *buf, size_t n, const char *a, const char *b, const char *d)
{
	size_t la = strlen(a), lb = strlen(b), ld = d ? strlen(d) : 0;
	size_t len = la + 1 + lb + (d ? 1 + ld : 0);

	if (len > n)
		return 0;
	memcpy(buf, a, la + 1);
	memcpy(buf + la + 1, b, lb + (d ? 1 : 0));
	if (d)
		memcpy(buf + la + 1 + lb + 1, d, ld);
	return len;
}

int
prof_cmp_set_run(struct prof_cmp *c, const char *run_id)
{
	int oom = 0;

	c->run_id = keep(c, run_id, &oom);
	return oom ? -1 : 0;
}

/* Count s into its row of class k (class_mark()). */
static int
take_class(struct prof_cmp *c, struct json_object *s, const char *seg, int k,
	   struct prof_err *err);

/* The memory metrics a sample gives rows to: each that it holds a number
 * of; every one its backend has for a memory sample that is an error (its
 * rows count the error; a timing sample's counts in its time row only):
 * the device peak on a GPU backend only, as a CPU call never has one. */
static int
mem_takes(struct json_object *s, enum prof_cmp_mem m)
{
	double v;

	return (prof_sample_is(s, "phase", "memory") &&
		prof_sample_is(s, "outcome", "error") &&
		(m != PROF_CMP_MEM_DEVICE ||
		 !prof_sample_is(s, "backend", "cpu"))) ||
	       mem_value(s, m, &v);
}

int
prof_cmp_take(struct prof_cmp *c, struct json_object *s, const char *seg,
	      struct prof_err *err)
{
	int m;

	if (!rowed(s) || !prof_sample_str(s, "workload") ||
	    !prof_sample_str(s, "backend") || !seg)
		return 0;
	if (!prof_sample_is(s, "phase", "memory") &&
	    take_class(c, s, seg, prof_sample_is(s, "phase", "instructions"),
		       err) < 0)
		return -1;
	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (mem_takes(s, (enum prof_cmp_mem)m) &&
		    take_class(c, s, seg, 1 + m, err) < 0)
			return -1;
	return 0;
}

static int
take_class(struct prof_cmp *c, struct json_object *s, const char *seg,
	   int cls, struct prof_err *err)
{
	const char *w = prof_sample_str(s, "workload");
	const char *b = prof_sample_str(s, "backend");
	enum prof_cmp_mem mem = cls > 1 ? (enum prof_cmp_mem)(cls - 1) : 0;
	struct prof_cmp_entry *r;
	char key[4096], bk[256], mark[64];
	size_t len;
	uint64_t h;
	int64_t at;
	long k;
	int oom = 0;

	/* Times, counts and each memory metric never share a row, whatever
	 * their segments. */
	snprintf(bk, sizeof(bk), "%s%s", b,
		 class_mark(mark, sizeof(mark), cls));
	len = join_key(key, sizeof(key), w, bk, seg);
	if (!len)
		return prof_err_set(err, "a workload id, backend and segment "
					 "of more than 4096 bytes");
	/* The row whose probe of the key is its own. */
	for (h = prof_pool_hash(key, len, PROF_POOL_FNV), k = -1;
	     prof_htab64_get(&c->index, h, &at); h = prof_pool_next(h)) {
		const struct prof_cmp_entry *e = &c->rows[at];

		if (!strcmp(e->workload, w) && !strcmp(e->backend, b) &&
		    entry_class(e) == cls && !strcmp(e->segment, seg)) {
			k = (long)at;
			break;
		}
	}
	if (k < 0) {
		if (c->n == c->cap) {
			size_t ncap = c->cap ? c->cap * 2 : 16;
			struct prof_cmp_entry *nr =
				realloc(c->rows, ncap * sizeof(*nr));

			if (!nr)
				return prof_err_set(err, "out of memory");
			c->rows = nr;
			c->cap = ncap;
		}
		k = (long)c->n;
		r = &c->rows[c->n++];
		memset(r, 0, sizeof(*r));
		r->workload = keep(c, w, &oom);
		r->backend = keep(c, b, &oom);
		r->segment = keep(c, seg, &oom);
		r->category = keep(c, prof_sample_str(s, "category"), &oom);
		r->shard = keep(c, prof_sample_str(s, "shard"), &oom);
		r->warning_floor_ms = prof_sample_num(s, "warning_floor_ms");
		count_meta(r, s, mem);
		side_meta(c, &r->cur, s, &oom);
		if (oom || prof_htab64_put(&c->index, h, k) < 0)
			return prof_err_set(err, "out of memory");
	}
	/* A time row takes the first threshold a sample records (an error
	 * sample may come first, with none). */
	if (!cls && !(c->rows[k].threshold_pct > 0))
		c->rows[k].threshold_pct = time_threshold(s);
	if (side_take(c, &c->rows[k].cur, s, mem) < 0)
		return prof_err_set(err, "out of memory");
	return 0;
}

/* A side's statistics; on an instruction row its median is the row's
 * count (prof_stats_count_index()), as every output shows it, and so on a
 * memory row: bytes and allocations are whole numbers, never the mean of
 * two middle samples. */
static int
row_stats(const struct prof_cmp_row *r, struct prof_cmp_side *side)
{
	return (r->instructions || r->memory ? prof_stats_counts :
				  prof_stats_compute)(side->v, side->n,
						      &side->st);
}

int
prof_cmp_close(struct prof_cmp *c, prof_cmp_segment_fn fn, void *arg,
	       struct prof_err *err)
{
	size_t k;
	int oom = 0;

	for (k = 0; fn && k < c->n; k++) {
		const char *key = fn(arg, c->rows[k].segment);

		if (key)
			c->rows[k].segment = keep(c, key, &oom);
		if (oom)
			return prof_err_set(err, "out of memory");
	}
	if (c->n)
		qsort(c->rows, c->n, sizeof(*c->rows), cmp_rows);
	/* Sorted, the rows are found by place: the index is done with. */
	prof_htab64_free(&c->index);
	return 0;
}

static int
same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

/* A checksum for a reason: its first 12 digits, or "unknown". */
static void
short_sum(const char *s, char *buf, size_t n)
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
static void reason_add(struct prof_cmp_row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
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
static int
judge_count(struct prof_cmp_row *r)
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
		reason_add(r,
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
	double pct;

	r->ratio = cm / bm;
	pct = (r->ratio - 1) * 100;
	prof_fmt_count(b, sizeof(b), (long long)llround(bm), 0);
	prof_fmt_count(c, sizeof(c), (long long)llround(cm), 0);
	/* Counts are integers: compared without the ratio's rounding, so
	 * exactly the threshold is not more than it, either way. */
	if (cm * 100 > bm * (100 + r->threshold_pct)) {
		r->status = PROF_CMP_WARNING;
		snprintf(r->reason, sizeof(r->reason),
			 "instructions %s -> %s (%+.2f%%), more than the "
			 "%g%% threshold",
			 b, c, pct, r->threshold_pct);
		return 0;
	}
	if (cm * 100 < bm * (100 - r->threshold_pct)) {
		r->status = PROF_CMP_IMPROVED;
		snprintf(r->reason, sizeof(r->reason),
			 "instructions %s -> %s (%+.2f%%), fewer by more "
			 "than the %g%% threshold",
			 b, c, pct, r->threshold_pct);
		return 0;
	}
	r->status = PROF_CMP_STABLE;
	snprintf(r->reason, sizeof(r->reason),
		 "instructions %s -> %s (%+.2f%%), within the %g%% "
		 "threshold",
		 b, c, pct, r->threshold_pct);
	return 0;
}

/*
 * The values of v[0..n) that a look judges: the uncontended ones when
 * clean (cont NULL: all are), else all; into out. Their number.
 */
static size_t
pick(const double *v, const unsigned char *cont, size_t n, int clean,
     double *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!clean || !cont || !cont[i])
			out[k++] = v[i];
	return k;
}

/* Whether any of the first n calls waited in the machine's queue. */
static int
queued(const unsigned char *cont, size_t n)
{
	size_t i;

	for (i = 0; cont && i < n; i++)
		if (cont[i] == PROF_CONTEND_QUEUED)
			return 1;
	return 0;
}

/* What the seed's rule says of values v[0..n) of median cm against a
 * baseline median bm (judge_speed(); judge_queue() asks it of the CPU
 * times). */
struct seed_rule {
	enum prof_cmp_status status;	/* warning, improved or stable */
	size_t above, below, needed;	/* of v against bm; ceil(0.75 n) */
	int slower, faster, over_floor;	/* what the medians say */
};

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
static int
judge_speed(struct prof_cmp_row *r, const double *cur, size_t nc,
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
	pct = (r->ratio - 1) * 100;
	r->status = sr.status;
	if (sr.status == PROF_CMP_WARNING) {
		snprintf(r->reason, sizeof(r->reason),
			 "median %.1f%% slower (%+.3f ms >= floor %g ms), more "
			 "than the %g%% threshold, %zu of %zu samples above the "
			 "baseline median",
			 pct, r->delta_ms, r->warning_floor_ms, r->threshold_pct,
			 r->above, nc);
		return 0;
	}
	if (sr.status == PROF_CMP_IMPROVED) {
		snprintf(r->reason, sizeof(r->reason),
			 "median %.1f%% faster (%+.3f ms, floor %g ms), more "
			 "than the %g%% threshold, %zu of %zu samples below the "
			 "baseline median",
			 faster_pct(r->ratio), r->delta_ms, r->warning_floor_ms,
			 r->threshold_pct, r->below, nc);
		return 0;
	}
	judge_stable(r, nc, sr.slower, sr.faster, sr.over_floor);
	return 0;
}

/* Append to a row's reason. */
static void
reason_add(struct prof_cmp_row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Put words before a row's reason (its end cut where they leave no
 * room). */
static void
reason_prefix(struct prof_cmp_row *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
reason_prefix(struct prof_cmp_row *r, const char *fmt, ...)
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

static void
reason_add(struct prof_cmp_row *r, const char *fmt, ...)
{
	size_t len = strlen(r->reason);
	va_list ap;

	if (len + 1 >= sizeof(r->reason))
		return;
	va_start(ap, fmt);
	vsnprintf(r->reason + len, sizeof(r->reason) - len, fmt, ap);
	va_end(ap);
}

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

/* The look in words: "ratio 1.27 to 1.33 (99.3%) on the 9 and 11
 * uncontended samples". */
static void
look_words(const struct prof_cmp_look *l, char *buf, size_t n)
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
		snprintf(on, sizeof(on), " on the %zu and %zu uncontended samples",
			 l->n_cur, l->n_base);
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
static int
last_look(const struct prof_cmp_seq *q, const struct prof_cmp_calls *cc,
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
static void
looked_at(const struct prof_cmp_look *l, const struct prof_cmp_calls *cc,
	  const struct prof_cmp_calls *bc, double *cv, size_t *nc, double *bv,
	  size_t *nb)
{
	*nc = pick(l->cpu ? cc->cpu : l->own ? cc->own : cc->wall, cc->cont,
		   l->n, l->clean, cv);
	*nb = pick(l->cpu ? bc->cpu : l->own ? bc->own : bc->wall, bc->cont,
		   l->n, l->clean, bv);
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
	if (last_look(q, cur, base, n, floor_ms, l) < 0)
		return -1;
	cv = malloc((n ? n : 1) * sizeof(*cv));
	bv = malloc((n ? n : 1) * sizeof(*bv));
	if (!cv || !bv)
		goto out;
	looked_at(l, cur, base, cv, &nc, bv, &nb);
	if (prof_stats_compute(cv, nc, &sc) < 0 ||
	    prof_stats_compute(bv, nb, &sb) < 0)
		goto out;
	/* judge_speed()'s ratio, which a row's "ratio" is, and the
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

/* The share (%) of the first n calls' wall time that their run-queue
 * delay took: 1 - sum(own) / sum(wall). */
static double
queue_pct(const double *wall, const double *own, size_t n)
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
static void
own_note(struct prof_cmp_row *r, size_t nc, size_t nb)
{
	double qc = queue_pct(r->cur.v, r->cur.own, nc);
	double qb = queue_pct(r->base.v, r->base.own, nb);

	if (qc < PROF_CMP_QUEUE_NOTE_PCT && qb < PROF_CMP_QUEUE_NOTE_PCT)
		return;
	reason_prefix(r,
		      "own time (the queue took %.1f%% of the current calls' "
		      "wall time, %.1f%% of the baseline's): ",
		      qc, qb);
}

/*
 * An interleaved row (compare.h): its looks replayed as prof-time took
 * them, up to the first that settled or the last; the seed's rule on the
 * samples of that look, confirmed by the look and by the minima; stable
 * where the look settled within the threshold; else unsettled.
 */
static int
judge_ab(struct prof_cmp_row *r)
{
	const struct prof_cmp_side *c = &r->cur, *b = &r->base;
	size_t n = c->n < b->n ? c->n : b->n, nc, nb;
	/* The looks ask for one thread's CPU time (compare.h). */
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
	double *cv = NULL, *bv = NULL, min_ratio, cmin, bmin, band;
	enum prof_cmp_status rule, want;
	struct seed_rule sr;
	char words[160];
	int rc = -1, minima;
	size_t i;

	r->ab = 1;
	prof_cmp_seq_init(&q, c->ab_first, c->ab_max);
	prof_cmp_seq_threshold(&q, r->threshold_pct);
	band = q.band;
	if (last_look(&q, &cc, &bc, n, r->warning_floor_ms, l) < 0)
		return -1;
	cv = malloc((n ? n : 1) * sizeof(*cv));
	bv = malloc((n ? n : 1) * sizeof(*bv));
	if (!cv || !bv)
		goto out;
	looked_at(l, &cc, &bc, cv, &nc, bv, &nb);
	if (judge_speed(r, cv, nc, bv, nb, &sr) < 0)
		goto out;
	if (l->cpu)
		reason_prefix(r, "CPU time ");
	r->own = l->own;
	if (l->own)
		own_note(r, l->n, l->n);
	rc = 0;
	if (r->status == PROF_CMP_INCOMPARABLE)
		goto out;
	/* The p of the look's samples, the ones judged. */
	look_words(l, words, sizeof(words));
	rule = r->status;
	if (l->state == PROF_CMP_LOOK_OPEN) {
		r->status = PROF_CMP_UNSETTLED;
		reason_prefix(r, "not settled after %zu samples a side "
				 "(p = %.3g): ",
			      l->n, r->p_value);
		reason_add(r, "; %s", words);
		goto out;
	}
	if (l->state != PROF_CMP_LOOK_SLOWER &&
	    l->state != PROF_CMP_LOOK_FASTER) {
		/* Settled within the threshold (or under the floor): the
		 * interval says the change does not matter, whatever the
		 * medians said. */
		if (rule != PROF_CMP_STABLE) {
			r->status = PROF_CMP_STABLE;
			reason_add(r, ", but the interval does not confirm it");
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
		reason_prefix(r, "not settled: ");
		reason_add(r, ", but the interval lies beyond the %g%% "
			      "threshold",
			   r->threshold_pct);
		reason_add(r, "; %s", words);
		goto out;
	}
	cmin = bmin = INFINITY;
	for (i = 0; i < nc; i++)
		cmin = cv[i] < cmin ? cv[i] : cmin;
	for (i = 0; i < nb; i++)
		bmin = bv[i] < bmin ? bv[i] : bmin;
	min_ratio = cmin / bmin;
	/* The minima speak for calls that had a core: on the uncontended
	 * samples, on own time (the queue taken out), or where none was
	 * contended (or none is known to be); among mostly contended calls
	 * the fastest is noise too. */
	minima = l->clean || l->own ||
		 (!l->cpu && !c->contended && !b->contended);
	if (minima && (want == PROF_CMP_WARNING ? !(min_ratio > band) :
						  !(min_ratio <= 1 / band))) {
		r->status = PROF_CMP_UNSETTLED;
		reason_prefix(r, "not settled: ");
		reason_add(r,
			   ", but the fastest samples differ by %+.1f%% "
			   "(min %.3f ms against %.3f ms): the load moved the "
			   "median, not the code; %s",
			   (min_ratio - 1) * 100, cmin, bmin, words);
		goto out;
	}
settled:
	if (q.looks > 1)
		reason_add(r, "; settled after %zu rounds: %s", l->n, words);
	else
		reason_add(r, "; settled: %s", words);
out:
	free(cv);
	free(bv);
	return rc;
}

/*
 * A baseline row whose calls waited in the machine's queue, their delay
 * unknown: the seed's rule's warning or improved on wall time stands only
 * where the same rule on the calls' CPU times says the same, as an A/B
 * look's does (compare.h); else the row is unsettled. The CPU time of
 * calls on more threads is theirs together: the queue adds none to it
 * either. Returns 0, or -1 when out of memory.
 */
static int
judge_queue(struct prof_cmp_row *r)
{
	const struct prof_cmp_side *c = &r->cur, *b = &r->base;
	struct prof_stats sc, sb;
	struct seed_rule sr;

	if ((r->status != PROF_CMP_WARNING &&
	     r->status != PROF_CMP_IMPROVED) ||
	    c->cpu_known != 1 ||
	    b->cpu_known != 1 ||
	    !(queued(c->cont, c->n) || queued(b->cont, b->n)))
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
	reason_prefix(r, "not settled: ");
	if (sb.median > 0)
		reason_add(r,
			   ", but the CPU time's median %.3f ms against %.3f "
			   "ms (%+.1f%%, %+.3f ms) does not say so: calls "
			   "waited for a core",
			   sc.median, sb.median,
			   (sc.median / sb.median - 1) * 100,
			   sc.median - sb.median);
	else
		reason_add(r,
			   ", but the CPU time's median %.3f ms against %.3f "
			   "ms does not say so: calls waited for a core",
			   sc.median, sb.median);
	return 0;
}

/* A time row whose current samples were mostly contended says so. */
static void
contended_note(struct prof_cmp_row *r)
{
	if (r->instructions || !r->cur.n || 2 * r->cur.contended <= r->cur.n)
		return;
	reason_add(r,
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
 * (compare.h); sets nondet, nd_index, nd_lo and nd_hi. Returns 0, or -1
 * when out of memory. */
static int
check_det(struct prof_cmp_side *d)
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

static void
judge_mem_exact(struct prof_cmp_row *r, const struct prof_cmp_metric *m)
{
	double c = r->cur.st.median, b = r->base.st.median;
	int over_floor = fabs(r->delta) >= m->floor;
	char from[32], to[32], dv[32], fl[32], pct[32], ut[48];

	unit_after(m, ut, sizeof(ut));
	mem_num(from, sizeof(from), b, 0);
	mem_num(to, sizeof(to), c, 0);
	mem_num(dv, sizeof(dv), r->delta, 1);
	mem_num(fl, sizeof(fl), m->floor, 0);
	if (b > 0)
		snprintf(pct, sizeof(pct), "%+.2f%%", (r->ratio - 1) * 100);
	else
		snprintf(pct, sizeof(pct), "from 0");
	if (c * 100 > b * (100 + m->threshold_pct) && over_floor) {
		r->status = PROF_CMP_WARNING;
		snprintf(r->reason, sizeof(r->reason),
			 "%s %s -> %s%s (%s, %s), more than the %g%% "
			 "threshold and the floor of %s %s",
			 m->name, from, to, ut, pct, dv, m->threshold_pct,
			 fl, m->unit);
	} else if (c * 100 < b * (100 - m->threshold_pct) && over_floor) {
		r->status = PROF_CMP_IMPROVED;
		snprintf(r->reason, sizeof(r->reason),
			 "%s %s -> %s%s (%s, %s), less by more than the %g%% "
			 "threshold and the floor of %s %s",
			 m->name, from, to, ut, pct, dv, m->threshold_pct,
			 fl, m->unit);
	} else if (c == b) {
		r->status = PROF_CMP_STABLE;
		snprintf(r->reason, sizeof(r->reason), "%s unchanged: %s %s",
			 m->name, to, m->unit);
	} else if (!over_floor) {
		r->status = PROF_CMP_STABLE;
		snprintf(r->reason, sizeof(r->reason),
			 "%s %s -> %s%s (%s) but %s is under the floor of %s "
			 "%s",
			 m->name, from, to, ut, pct, dv, fl, m->unit);
	} else {
		r->status = PROF_CMP_STABLE;
		snprintf(r->reason, sizeof(r->reason),
			 "%s %s -> %s%s (%s, %s), within the %g%% threshold",
			 m->name, from, to, ut, pct, dv,
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
	char from[32], to[32], dv[32], fl[32], ratio[32], ut[48];
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
	unit_after(m, ut, sizeof(ut));
	mem_num(from, sizeof(from), b, 0);
	mem_num(to, sizeof(to), c, 0);
	mem_num(dv, sizeof(dv), r->delta, 1);
	mem_num(fl, sizeof(fl), m->floor, 0);
	if (b > 0)
		snprintf(ratio, sizeof(ratio), "ratio %.3f", r->ratio);
	else
		snprintf(ratio, sizeof(ratio), "from 0");
	if (slower && over_floor && r->above >= r->needed) {
		r->status = PROF_CMP_WARNING;
		reason_add(r,
			   "%s %s -> %s%s (%s, %s >= floor %s), %zu of %zu "
			   "samples above the baseline median",
			   m->name, from, to, ut, ratio, dv, fl, r->above,
			   r->cur.n);
	} else if (faster && over_floor && r->below >= r->needed) {
		r->status = PROF_CMP_IMPROVED;
		reason_add(r,
			   "%s %s -> %s%s (%s, %s, floor %s), %zu of %zu "
			   "samples below the baseline median",
			   m->name, from, to, ut, ratio, dv, fl, r->below,
			   r->cur.n);
	} else if (!slower && !faster) {
		r->status = PROF_CMP_STABLE;
		reason_add(r, "%s %s -> %s%s (%s), within the %.0f%% ratio",
			   m->name, from, to, ut, ratio,
			   (PROF_CMP_RATIO - 1) * 100);
	} else if (!over_floor) {
		r->status = PROF_CMP_STABLE;
		reason_add(r,
			   "%s %s -> %s%s (%s) but %s is under the floor of "
			   "%s %s",
			   m->name, from, to, ut, ratio, dv, fl, m->unit);
	} else {
		r->status = PROF_CMP_STABLE;
		reason_add(r,
			   "%s %s -> %s%s (%s, %s) but only %zu of %zu "
			   "samples %s the baseline median (%zu needed)",
			   m->name, from, to, ut, ratio, dv,
			   slower ? r->above : r->below, r->cur.n,
			   slower ? "above" : "below", r->needed);
	}
}

/* A memory row whose sides may be compared (compare.h). */
static int
judge_memory(struct prof_cmp_row *r)
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
		reason_add(r,
			   "not deterministic: call %ld of the %s side gave "
			   "%s to %s %s, so judged by ratio, not exactly: ",
			   nd->nd_index, nd == &r->cur ? "current" : "baseline",
			   lo, hi, m->unit);
	}
	judge_mem_ratio(r, m);
	return 0;
}

int
prof_cmp_judge(struct prof_cmp_row *r)
{
	char a[16], b[16];
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
	if (row_stats(r, &r->cur) < 0 || row_stats(r, &r->base) < 0)
		return -1;
	/* Only what is exact is asked to repeat itself, whatever the
	 * status: a new row's side is checked too (judge_memory() then
	 * goes by it). */
	r->cur.nondet = r->base.nondet = 0;
	r->cur.det_checked = r->base.det_checked = 0;
	if (r->memory && prof_cmp_metrics[r->memory].exact &&
	    (check_det(&r->cur) < 0 || check_det(&r->base) < 0))
		return -1;
	if (!r->matched) {
		r->status = PROF_CMP_NEW;
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
		return 0;
	}
	r->status = PROF_CMP_INCOMPARABLE;
	if (r->cur.version != r->base.version) {
		snprintf(r->reason, sizeof(r->reason),
			 "workload version %lld != baseline %lld",
			 r->cur.version, r->base.version);
		return 0;
	}
	if (!same_str(r->cur.fixture_checksum, r->base.fixture_checksum)) {
		short_sum(r->cur.fixture_checksum, a, sizeof(a));
		short_sum(r->base.fixture_checksum, b, sizeof(b));
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
		return 0;
	}
	/* The same work on both sides, or no verdict on its speed. */
	if (r->cur.output_other || r->base.output_other) {
		const struct prof_cmp_side *d =
			r->cur.output_other ? &r->cur : &r->base;

		short_sum(d->output_checksum, a, sizeof(a));
		short_sum(d->output_other, b, sizeof(b));
		snprintf(r->reason, sizeof(r->reason),
			 "output checksums %s and %s differ between calls of "
			 "the %s side",
			 a, b, d == &r->cur ? "current" : "baseline");
		return 0;
	}
	if (r->cur.output_checksum && r->base.output_checksum &&
	    strcmp(r->cur.output_checksum, r->base.output_checksum)) {
		short_sum(r->cur.output_checksum, a, sizeof(a));
		short_sum(r->base.output_checksum, b, sizeof(b));
		snprintf(r->reason, sizeof(r->reason),
			 "output checksum %s != baseline %s: the two sides "
			 "computed different outputs",
			 a, b);
		return 0;
	}
	if (r->cur.n == 0) {
		snprintf(r->reason, sizeof(r->reason),
			 "no successful warm samples in this run (%ld "
			 "errored)",
			 r->cur.errors);
		return 0;
	}
	if (r->base.n == 0) {
		snprintf(r->reason, sizeof(r->reason),
			 "the baseline row has no successful warm samples");
		return 0;
	}
	/* A call may allocate nothing: 0 is a memory value. */
	if (r->memory)
		return judge_memory(r);
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
		return judge_count(r);
	r->own = 0;
	if (ab_row(r)) {
		rc = judge_ab(r);
	} else if (r->cur.own_known == 1 && r->base.own_known == 1) {
		/* Every call's delay known: the code's own time, and no
		 * queue left in it to check by the CPU times. */
		rc = judge_speed(r, r->cur.own, r->cur.n, r->base.own,
				 r->base.n, NULL);
		r->own = 1;
		if (rc == 0 && r->status != PROF_CMP_INCOMPARABLE)
			own_note(r, r->cur.n, r->base.n);
	} else if ((rc = judge_speed(r, r->cur.v, r->cur.n, r->base.v,
				     r->base.n, NULL)) == 0) {
		rc = judge_queue(r);
	}
	if (rc == 0)
		contended_note(r);
	return rc;
}

/*
 * The name a baseline group is found by: the workload id, and for counts
 * the id with a mark no id has, so that a count row only ever meets the
 * baseline's counts.
 */
static const char *
class_of(char *buf, size_t n, const char *w, int cls)
{
	char mark[64];

	if (!cls)
		return w;
	snprintf(buf, n, "%s%s", w, class_mark(mark, sizeof(mark), cls));
	return buf;
}

static int base_class(struct prof_cmp *c, struct json_object *s,
		      const char *seg, int cls, struct prof_err *err);

int
prof_cmp_base_take(struct prof_cmp *c, struct json_object *s,
		   const char *seg, struct prof_err *err)
{
	int m;

	if (!rowed(s) || !prof_sample_str(s, "workload") || !seg)
		return 0;
	if (!prof_sample_is(s, "phase", "memory") &&
	    base_class(c, s, seg, prof_sample_is(s, "phase", "instructions"),
		       err) < 0)
		return -1;
	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (mem_takes(s, (enum prof_cmp_mem)m) &&
		    base_class(c, s, seg, 1 + m, err) < 0)
			return -1;
	return 0;
}

/* Count a baseline sample into its group of row class cls. */
static int
base_class(struct prof_cmp *c, struct json_object *s, const char *seg,
	   int cls, struct prof_err *err)
{
	const char *w = prof_sample_str(s, "workload");
	enum prof_cmp_mem mem = cls > 1 ? (enum prof_cmp_mem)(cls - 1) : 0;
	struct prof_cmp_bgroup *g;
	char key[4096], wbuf[2048];
	size_t len;
	uint64_t h;
	int64_t at;
	long k;
	int oom = 0;

	w = class_of(wbuf, sizeof(wbuf), w, cls);
	len = join_key(key, sizeof(key), w, seg, NULL);
	if (!len)
		return prof_err_set(err, "a workload id and segment of more "
					 "than 4096 bytes");
	for (h = prof_pool_hash(key, len, PROF_POOL_FNV), k = -1;
	     prof_htab64_get(&c->base_index, h, &at); h = prof_pool_next(h)) {
		const struct prof_cmp_bgroup *e = &c->base[at];

		if (!strcmp(e->workload, w) && !strcmp(e->seg, seg)) {
			k = (long)at;
			break;
		}
	}
	if (k < 0) {
		if (c->n_base == c->cap_base) {
			size_t ncap = c->cap_base ? c->cap_base * 2 : 16;
			struct prof_cmp_bgroup *ng =
				realloc(c->base, ncap * sizeof(*ng));

			if (!ng)
				return prof_err_set(err, "out of memory");
			c->base = ng;
			c->cap_base = ncap;
		}
		k = (long)c->n_base;
		g = &c->base[c->n_base++];
		memset(g, 0, sizeof(*g));
		g->workload = keep(c, w, &oom);
		g->seg = keep(c, seg, &oom);
		side_meta(c, &g->side, s, &oom);
		if (oom || prof_htab64_put(&c->base_index, h, k) < 0)
			return prof_err_set(err, "out of memory");
	}
	if (side_take(c, &c->base[k].side, s, mem) < 0)
		return prof_err_set(err, "out of memory");
	return 0;
}

/* The order groups are matched in: by workload, then by segment key (its
 * pooled copy's address: one a text), then as they came. */
static int
cmp_groups(const void *a, const void *b, void *arg)
{
	const struct prof_cmp *c = arg;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const struct prof_cmp_bgroup *x = &c->base[i], *y = &c->base[j];
	int d = strcmp(x->workload, y->workload);

	if (d)
		return d;
	if (x->segment != y->segment)
		return (uintptr_t)x->segment < (uintptr_t)y->segment ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* The first place in ord (sorted by cmp_groups()) whose group is not
 * before workload w and segment seg (NULL: w alone), or with after the
 * first that is after them. */
static size_t
group_bound(const struct prof_cmp *c, const uint32_t *ord, const char *w,
	    const char *seg, int after)
{
	size_t lo = 0, hi = c->n_base;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct prof_cmp_bgroup *g = &c->base[ord[mid]];
		int d = strcmp(g->workload, w);

		if (!d && seg && g->segment != seg)
			d = (uintptr_t)g->segment < (uintptr_t)seg ? -1 : 1;
		if (d < 0 || (after && d == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
prof_cmp_judge_groups(struct prof_cmp *c, prof_cmp_segment_fn fn, void *arg,
		      int missing, const char *name, struct prof_err *err)
{
	uint32_t *ord = NULL;
	size_t k;
	int oom = 0;

	/* Every baseline sample is in: its index is done with. */
	prof_htab64_free(&c->base_index);
	if (c->n_base > INT32_MAX)
		return prof_err_set(err, "more than %d baseline groups",
				    INT32_MAX);
	ord = malloc((c->n_base ? c->n_base : 1) * sizeof(*ord));
	if (!ord)
		return prof_err_set(err, "out of memory");
	/* Each group's key. */
	for (k = 0; k < c->n_base; k++) {
		struct prof_cmp_bgroup *g = &c->base[k];
		const char *seg = fn ? fn(arg, g->seg) : NULL;

		g->segment = keep(c, seg ? seg : g->seg, &oom);
		if (oom)
			goto oom;
		ord[k] = (uint32_t)k;
	}
	if (c->n_base)
		qsort_r(ord, c->n_base, sizeof(*ord), cmp_groups, c);
	json_object_put(c->base_segments);
	c->base_segments = json_object_new_array();
	if (!c->base_segments)
		goto oom;
	{
		struct prof_htab seen = {0};

		for (k = 0; k < c->n_base; k++) {
			const char *seg = c->base[k].segment;

			if (prof_htab_get(&seen, seg, strlen(seg)) >= 0)
				continue;
			if (prof_htab_put(&seen, seg, strlen(seg), 0) < 0) {
				prof_htab_free(&seen);
				goto oom;
			}
			json_object_array_add(c->base_segments,
					      json_object_new_string(seg));
		}
		prof_htab_free(&seen);
	}
	c->judged = 1;
	c->missing = missing;
	c->missing_name = keep(c, name ? name : "", &oom);
	if (oom)
		goto oom;
	/* Each row finds its group as it is judged (row_get()). */
	free(c->ord);
	c->ord = ord;
	return 0;
oom:
	free(ord);
	return prof_err_set(err, "out of memory");
}

const char *
prof_cmp_status_name(enum prof_cmp_status s)
{
	switch (s) {
	case PROF_CMP_NEW:
		return "new";
	case PROF_CMP_INCOMPARABLE:
		return "incomparable";
	case PROF_CMP_STABLE:
		return "stable";
	case PROF_CMP_WARNING:
		return "warning";
	case PROF_CMP_IMPROVED:
		return "improved";
	case PROF_CMP_UNSETTLED:
		return "unsettled";
	case PROF_CMP_UNJUDGED:
		break;
	}
	return "unjudged";
}

/* cmd with every " NAME=..." word left out (a value in double quotes,
 * as the make targets record one with spaces, whole). */
static void
drop_var(char *cmd, const char *name)
{
	size_t len = strlen(name);
	char *at = cmd;

	while ((at = strstr(at, name)) != NULL) {
		char *end;

		if (at == cmd || at[-1] != ' ' || at[len] != '=') {
			at += len;
			continue;
		}
		end = at[len + 1] == '"' ? strchr(at + len + 2, '"') : at;
		end = end ? strchr(end, ' ') : NULL;
		if (end)
			memmove(at - 1, end, strlen(end) + 1);
		else
			at[-1] = '\0';
	}
}

void
prof_cmp_settle_command(const char *cmd, long repeat, long max,
			const char *w, char *buf, size_t n)
{
	char c[2048];

	w = w ? w : "";
	if (max <= 0) {
		snprintf(buf, n,
			 "judge it interleaved with the baseline's build "
			 "(make compare REF=its commit), or run it again "
			 "where the calls wait less for a core");
		return;
	}
	if (cmd && !strncmp(cmd, "make compare", 12) &&
	    strlen(cmd) < sizeof(c)) {
		int full = strstr(cmd, " MODE=full") != NULL;

		snprintf(c, sizeof(c), "%s", cmd);
		drop_var(c, "MODE");
		drop_var(c, "REPEAT");
		/* A new run gets a new folder. */
		drop_var(c, "OUTPUT");
		if (w[0])
			drop_var(c, "W");
		if (!full && 4 * 10 > max)
			snprintf(buf, n, "%s MODE=full%s", c, w);
		else
			snprintf(buf, n, "%s MODE=full REPEAT=%ld%s", c,
				 2 * repeat, w);
		return;
	}
	if (cmd && !strncmp(cmd, "prof-time ", 10) &&
	    strlen(cmd) < sizeof(c)) {
		char *at;

		snprintf(c, sizeof(c), "%s", cmd);
		at = strstr(c, " --max-repeat ");
		if (at) {
			char *end = strchr(at + 14, ' ');

			memmove(at, end ? end : at + strlen(at),
				strlen(end ? end : at + strlen(at)) + 1);
		}
		at = strstr(c, " -- ");
		if (at) {
			snprintf(buf, n, "%.*s --max-repeat %ld%s",
				 (int)(at - c), c, 2 * max, at);
			return;
		}
		snprintf(buf, n, "%s --max-repeat %ld", c, 2 * max);
		return;
	}
	snprintf(buf, n,
		 "a larger budget: prof-time --max-repeat %ld (it was %ld), or "
		 "make compare with MODE=full or a larger REPEAT",
		 2 * max, max);
}

int
prof_cmp_status_known(const char *name)
{
	int s;

	for (s = PROF_CMP_UNJUDGED; name && s <= PROF_CMP_UNSETTLED; s++)
		if (!strcmp(name, prof_cmp_status_name(
					  (enum prof_cmp_status)s)))
			return 1;
	return 0;
}

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
	json_object_object_add(o, "current",
			       json_object_new_int64((int64_t)r->cur.contended));
	json_object_object_add(o, "baseline",
			       r->matched ? json_object_new_int64(
						    (int64_t)r->base.contended) :
					    NULL);
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
	json_object_object_add(o, "current",
			       r->cur.own_known == 1 && r->cur.n ?
				       num(round(queue_pct(r->cur.v, r->cur.own,
							   r->cur.n) * 1e3) /
					   1e3) :
				       NULL);
	json_object_object_add(o, "baseline",
			       r->matched && r->base.own_known == 1 &&
					       r->base.n ?
				       num(round(queue_pct(r->base.v,
							   r->base.own,
							   r->base.n) * 1e3) /
					   1e3) :
				       NULL);
	return o;
}

/* How an interleaved row's sampling ended (compare.h). */
static struct json_object *
ab_json(const struct prof_cmp_row *r)
{
	const struct prof_cmp_look *l = &r->look;
	struct json_object *o = json_object_new_object();
	int bounded = l->lo > 0 && isfinite(l->hi);

	if (!o)
		return NULL;
	json_object_object_add(o, "repeat", json_object_new_int64(r->cur.ab_first));
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

/* The fields of a memory row (compare.h). */
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

/* The bytes of row e's record in a spill (prof_cmp_spill()): the entry,
 * its more, then its values, call indexes, CPU times and marks (each
 * aligned where it starts, in that order). */
static size_t
record_size(const struct prof_cmp_entry *e)
{
	const struct prof_cmp_more *m = e->cur.more;
	size_t n = e->cur.n, size = sizeof(*e) + n * sizeof(*e->cur.v);

	if (m)
		size += sizeof(*m) + (m->at ? n * sizeof(*m->at) : 0) +
			(m->cpu ? n * sizeof(*m->cpu) : 0) +
			(m->own ? n * sizeof(*m->own) : 0) +
			(m->cont ? n : 0);
	return size;
}

static int
record_put(FILE *fp, const struct prof_cmp_entry *e)
{
	const struct prof_cmp_more *m = e->cur.more;
	size_t n = e->cur.n;

	if (fwrite(e, sizeof(*e), 1, fp) != 1 ||
	    (m && fwrite(m, sizeof(*m), 1, fp) != 1) ||
	    (n && fwrite(e->cur.v, sizeof(*e->cur.v), n, fp) != n))
		return -1;
	if (m && n &&
	    ((m->at && fwrite(m->at, sizeof(*m->at), n, fp) != n) ||
	     (m->cpu && fwrite(m->cpu, sizeof(*m->cpu), n, fp) != n) ||
	     (m->own && fwrite(m->own, sizeof(*m->own), n, fp) != n) ||
	     (m->cont && fwrite(m->cont, 1, n, fp) != n)))
		return -1;
	return 0;
}

/* Row k of a spill read back into *buf (the caller frees it), as an entry
 * whose arrays point into it; NULL when it cannot be. */
static const struct prof_cmp_entry *
record_get(const struct prof_cmp *c, size_t k, char **buf)
{
	size_t size = (size_t)(c->spill_at[k + 1] - c->spill_at[k]), n;
	struct prof_cmp_entry *e;
	struct prof_cmp_more *m = NULL;
	char *p;

	*buf = malloc(size);
	if (!*buf || pread(c->spill_fd, *buf, size, (off_t)c->spill_at[k]) !=
			     (ssize_t)size)
		return NULL;
	e = (struct prof_cmp_entry *)*buf;
	p = *buf + sizeof(*e);
	n = e->cur.n;
	if (e->cur.more) {
		m = (struct prof_cmp_more *)p;
		e->cur.more = m;
		p += sizeof(*m);
	}
	e->cur.v = n ? (double *)p : NULL;
	e->cur.cap = (uint32_t)n;
	p += n * sizeof(*e->cur.v);
	if (m && m->at) {
		m->at = (long *)p;
		p += n * sizeof(*m->at);
	}
	if (m && m->cpu) {
		m->cpu = (double *)p;
		p += n * sizeof(*m->cpu);
	}
	if (m && m->own) {
		m->own = (double *)p;
		p += n * sizeof(*m->own);
	}
	if (m && m->cont)
		m->cont = (unsigned char *)p;
	return e;
}

int
prof_cmp_spill(struct prof_cmp *c, struct prof_err *err)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	uint64_t *at;
	FILE *fp = NULL;
	size_t k;
	int fd, fd2;

	if (c->spilled || !c->n)
		return 0;
	at = malloc((c->n + 1) * sizeof(*at));
	if (!at)
		return prof_err_set(err, "out of memory");
	snprintf(path, sizeof(path), "%s/prof-rows.XXXXXX",
		 dir && dir[0] ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		free(at);
		return 0;
	}
	unlink(path);
	fd2 = dup(fd);
	fp = fd2 < 0 ? NULL : fdopen(fd2, "w");
	if (!fp && fd2 >= 0)
		close(fd2);
	at[0] = 0;
	for (k = 0; fp && k < c->n; k++) {
		if (record_put(fp, &c->rows[k]) < 0)
			break;
		at[k + 1] = at[k] + record_size(&c->rows[k]);
	}
	/* Where it could not be written whole, the rows stay. */
	if (!fp || fclose(fp) != 0 || k < c->n) {
		close(fd);
		free(at);
		return 0;
	}
	for (k = 0; k < c->n; k++)
		taken_free(&c->rows[k].cur);
	free(c->rows);
	c->rows = NULL;
	c->cap = 0;
	c->spill_fd = fd;
	c->spill_at = at;
	c->spilled = 1;
	return 0;
}

/*
 * Row k of a closed c into *r: its statistics, and once the groups were
 * matched (prof_cmp_judge_groups()) judged against its group: the last
 * one of its workload and segment key, and how many others its workload
 * has. *r borrows c's strings and the values of c, or of *buf, which a
 * spilled row is read into (the caller frees it). Returns 0, or -1 when
 * out of memory or a spilled row cannot be read back.
 */
static int
row_get(const struct prof_cmp *c, size_t k, struct prof_cmp_row *r,
	char **buf)
{
	const struct prof_cmp_entry *e;
	char wbuf[2048];
	const char *wid;
	size_t a, b, sa, sb;
	long g = -1;

	*buf = NULL;
	e = c->spilled ? record_get(c, k, buf) : &c->rows[k];
	if (!e)
		return -1;
	memset(r, 0, sizeof(*r));
	r->workload = e->workload;
	r->backend = e->backend;
	r->category = e->category;
	r->segment = e->segment;
	r->shard = e->shard;
	r->warning_floor_ms = e->warning_floor_ms;
	r->instructions = e->instructions;
	r->threshold_pct = e->threshold_pct;
	/* prof-diff --time-threshold: every time row's. */
	if (!e->instructions && !e->memory && c->time_threshold_pct > 0)
		r->threshold_pct = c->time_threshold_pct;
	r->memory = (enum prof_cmp_mem)e->memory;
	r->delta = r->delta_ms = r->ratio = r->p_value = NAN;
	taken_side(&e->cur, &r->cur);
	if (!c->judged)
		return row_stats(r, &r->cur);
	if (c->missing) {
		if (prof_cmp_judge(r) < 0)
			return -1;
		r->status = PROF_CMP_INCOMPARABLE;
		snprintf(r->reason, sizeof(r->reason),
			 "baseline file '%s' not found", c->missing_name);
		return 0;
	}
	wid = class_of(wbuf, sizeof(wbuf), e->workload, entry_class(e));
	a = group_bound(c, c->ord, wid, NULL, 0);
	b = group_bound(c, c->ord, wid, NULL, 1);
	sa = group_bound(c, c->ord, wid, e->segment, 0);
	sb = group_bound(c, c->ord, wid, e->segment, 1);
	if (sb > sa) {
		g = (long)c->ord[sb - 1];
		r->matched = 1;
		taken_side(&c->base[g].side, &r->base);
	}
	r->base_other_segments = (int)(b - a) - (g >= 0 ? 1 : 0);
	return prof_cmp_judge(r);
}

struct json_object *
prof_cmp_row_json(const struct prof_cmp *c, size_t k)
{
	struct json_object *o = NULL;
	struct prof_cmp_row r;
	const char *drift;
	char *buf;

	if (row_get(c, k, &r, &buf) == 0) {
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

/* Checking a comparisons document: each helper fills err and returns -1. */
static int
want(struct json_object *o, const char *prefix, const char *key,
     json_type type, int nullable, struct prof_err *err)
{
	struct json_object *v = NULL;
	char path[256];

	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (!json_object_object_get_ex(o, key, &v))
		return prof_err_path(err, path, "missing");
	if (!v && nullable)
		return 0;
	if (type == json_type_double ? !prof_json_is_number(v) :
				       !json_object_is_type(v, type))
		return prof_err_path(err, path, "expected %s%s, got %s",
				     type == json_type_double ? "a number" :
				     type == json_type_int    ? "an integer" :
				     type == json_type_object ? "an object" :
								"a string",
				     nullable ? " or null" : "",
				     prof_json_type_name(v));
	return 0;
}

/* The number at key of o (checked by want(); null passes) within [lo,
 * hi], by prof_range_double(). */
static int
want_range(struct json_object *o, const char *prefix, const char *key,
	   double lo, double hi, const char *what, struct prof_err *err)
{
	struct json_object *v = json_object_object_get(o, key);

	if (!v || !prof_range_double(prof_json_number(v), lo, hi, what, "",
				     err))
		return 0;
	snprintf(err->path, sizeof(err->path), "%s.%s", prefix, key);
	return -1;
}

static int
check_side(struct json_object *o, const char *prefix, const char *key,
	   struct prof_err *err)
{
	static const char *const nums[] = {"min", "median", "p90", "max", NULL};
	struct json_object *s = NULL;
	char path[256];
	size_t i;

	if (want(o, prefix, key, json_type_object, 0, err))
		return -1;
	json_object_object_get_ex(o, key, &s);
	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (want(s, path, "n", json_type_int, 0, err) ||
	    want_range(s, path, "n", 0, 1e15, "a sample count", err))
		return -1;
	for (i = 0; nums[i]; i++)
		if (want(s, path, nums[i], json_type_double, 1, err))
			return -1;
	return 0;
}

static int check_warning(struct json_object *o, const char *prefix,
			 struct prof_err *err);

int
prof_cmp_check_one(struct json_object *o, size_t i, struct prof_err *err)
{
	static const char *const strs[] = {"run_id", "workload", "backend",
					   "segment", "status", "reason",
					   NULL};
	static const char *const nums[] = {"delta_ms", "ratio", "p_value",
					   NULL};
	char prefix[64];
	const char *st;
	size_t j;

	snprintf(prefix, sizeof(prefix), "[%zu]", i);
	if (!json_object_is_type(o, json_type_object))
		return prof_err_path(err, prefix,
				     "expected a comparison object, got %s",
				     prof_json_type_name(o));
	for (j = 0; strs[j]; j++)
		if (want(o, prefix, strs[j], json_type_string, 0, err))
			return -1;
	for (j = 0; nums[j]; j++)
		if (want(o, prefix, nums[j], json_type_double, 1, err))
			return -1;
	if (want_range(o, prefix, "p_value", 0, 1, "a p-value", err) ||
	    want_range(o, prefix, "ratio", 0, HUGE_VAL, "a ratio", err))
		return -1;
	if ((json_object_object_get_ex(o, "drift", NULL) &&
	     want(o, prefix, "drift", json_type_string, 1, err)) ||
	    check_side(o, prefix, "current", err) ||
	    check_side(o, prefix, "baseline", err))
		return -1;
	for (j = 0; j < 2; j++) {
		const char *key = j ? "backend" : "workload";
		char why[160], path[96];

		if (prof_id_valid(prof_json_str(o, key), why, sizeof(why)))
			continue;
		snprintf(path, sizeof(path), "%s.%s", prefix, key);
		return prof_err_path(err, path, "not a valid %s: %s",
				     j ? "backend" : "workload id", why);
	}
	st = prof_json_str(o, "status");
	if (!prof_cmp_status_known(st)) {
		char path[96];

		snprintf(path, sizeof(path), "%s.status", prefix);
		return prof_err_path(err, path,
				     "expected one of new, incomparable, "
				     "stable, warning, improved, unsettled");
	}
	if (!strcmp(st, "warning") && check_warning(o, prefix, err))
		return -1;
	return 0;
}

int
prof_cmp_check(struct json_object *a, struct prof_err *err)
{
	size_t i, n;

	if (!json_object_is_type(a, json_type_array))
		return prof_err_path(err, ".",
				     "expected an array of comparisons, got %s",
				     prof_json_type_name(a));
	n = json_object_array_length(a);
	for (i = 0; i < n; i++)
		if (prof_cmp_check_one(json_object_array_get_idx(a, i), i,
				       err) < 0)
			return -1;
	return 0;
}

/* A warning says by how much: its numbers are never null (a CI line
 * would print "nan ms, +nan%"). A row of counts has no time delta. */
static int
check_warning(struct json_object *o, const char *prefix,
	      struct prof_err *err)
{
	static const char *const keys[] = {"ratio", "delta_ms",
					   "current.median",
					   "baseline.median", NULL};
	static const char *const mem_keys[] = {"delta", "current.median",
					       "baseline.median", NULL};
	const char *phase = prof_json_str(o, "phase");
	int count = phase && !strcmp(phase, "instructions");
	const char *const *ks = phase && !strcmp(phase, "memory") ? mem_keys :
								      keys;
	size_t j;

	for (j = 0; ks[j]; j++) {
		const char *dot = strchr(ks[j], '.');
		struct json_object *v = o;
		char path[128];

		if (count && (!strcmp(ks[j], "ratio") ||
			      !strcmp(ks[j], "delta_ms")))
			continue;
		if (dot) {
			char side[16];

			snprintf(side, sizeof(side), "%.*s",
				 (int)(dot - ks[j]), ks[j]);
			v = json_object_object_get(o, side);
		}
		v = json_object_object_get(v, dot ? dot + 1 : ks[j]);
		if (v)
			continue;
		snprintf(path, sizeof(path), "%s.%s", prefix, ks[j]);
		return prof_err_path(err, path,
				     "a warning row needs a number, got null");
	}
	return 0;
}

int
prof_cmp_check_run_one(struct json_object *o, size_t i, const char *run_id,
		       struct prof_err *err)
{
	const char *id = prof_json_str(o, "run_id");
	char path[64];

	if (id && run_id && !strcmp(id, run_id))
		return 0;
	snprintf(path, sizeof(path), "[%zu].run_id", i);
	return prof_err_path(err, path,
			     "a comparison of run '%.80s', not of the "
			     "results' run '%.80s'",
			     id ? id : "", run_id ? run_id : "");
}

int
prof_cmp_check_run(struct json_object *a, const char *run_id,
		   struct prof_err *err)
{
	size_t i, n = json_object_array_length(a);

	for (i = 0; i < n; i++)
		if (prof_cmp_check_run_one(json_object_array_get_idx(a, i), i,
					   run_id, err) < 0)
			return -1;
	return 0;
}

/* The row class of a comparison object (class_mark()). */
static int
json_class(struct json_object *o)
{
	const char *ph = prof_json_str(o, "phase");
	enum prof_cmp_mem m;

	if (!ph || !strcmp(ph, "timing"))
		return 0;
	if (!strcmp(ph, "instructions"))
		return 1;
	m = prof_cmp_metric_find(prof_json_str(o, "metric"));
	return m && !strcmp(ph, "memory") ? 1 + (int)m : -1;
}

/* Room for one more row in k's own table (rows from samples). */
static int
rows_grow(struct prof_cmp_rows *k)
{
	size_t ncap;
	void *a, *b;

	if (k->n < k->cap)
		return 0;
	ncap = k->cap ? k->cap * 2 : 64;
	a = realloc(k->names, ncap * sizeof(*k->names));
	if (!a)
		return -1;
	k->names = a;
	b = realloc(k->seen, ncap * sizeof(*k->seen));
	if (!b)
		return -1;
	k->seen = b;
	k->cap = ncap;
	return 0;
}

void
prof_cmp_rows_begin(struct prof_cmp_rows *k)
{
	memset(k, 0, sizeof(*k));
}

/* The row of pooled w, b and seg of class cls in k, or -1; *slot its key
 * in k->h (or the free one it would have). */
static long
rows_find(const struct prof_cmp_rows *k, const char *w, const char *b,
	  const char *seg, int cls, uint64_t *slot)
{
	const void *key[4] = {w, b, seg, (const void *)(intptr_t)cls};
	uint64_t h = prof_pool_hash(key, sizeof(key), PROF_POOL_FNV);
	int64_t i;

	while (prof_htab64_get(&k->h, h, &i)) {
		if (k->names[i].w == w && k->names[i].b == b &&
		    k->names[i].seg == seg && k->names[i].cls == cls) {
			*slot = h;
			return (long)i;
		}
		h = prof_pool_next(h);
	}
	*slot = h;
	return -1;
}

/* One row of class cls of sample s's workload, backend and segment id. */
static int
rows_add(struct prof_cmp_rows *k, struct json_object *s, const char *seg,
	 int cls, struct prof_err *err)
{
	const char *w = prof_pool_str(&k->pool, prof_sample_str(s, "workload"));
	const char *b = prof_pool_str(&k->pool, prof_sample_str(s, "backend"));
	const char *sid = prof_pool_str(&k->pool, seg);
	uint64_t slot;

	if (!w || !b || !sid)
		return prof_err_set(err, "out of memory");
	if (rows_find(k, w, b, sid, cls, &slot) >= 0)
		return 0;
	if (rows_grow(k) < 0 ||
	    prof_htab64_put(&k->h, slot, (int64_t)k->n) < 0)
		return prof_err_set(err, "out of memory");
	k->names[k->n].w = w;
	k->names[k->n].b = b;
	k->names[k->n].seg = sid;
	k->names[k->n].cls = cls;
	k->seen[k->n] = -1;
	k->n++;
	return 0;
}

int
prof_cmp_rows_sample(struct prof_cmp_rows *k, struct json_object *s,
		     const char *segment_id, struct prof_err *err)
{
	int m;

	/* The rows prof_cmp_take() makes of s, by the same rules. */
	if (!rowed(s) || !prof_sample_str(s, "workload") ||
	    !prof_sample_str(s, "backend") || !segment_id)
		return 0;
	if (!prof_sample_is(s, "phase", "memory") &&
	    rows_add(k, s, segment_id,
		     prof_sample_is(s, "phase", "instructions"), err) < 0)
		return -1;
	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (mem_takes(s, (enum prof_cmp_mem)m) &&
		    rows_add(k, s, segment_id, 1 + m, err) < 0)
			return -1;
	return 0;
}

int
prof_cmp_rows_close(struct prof_cmp_rows *k, prof_cmp_segment_fn fn,
		    void *arg, struct prof_err *err)
{
	size_t i;

	/* The rows stay keyed by segment id (a key is a few hundred bytes,
	 * the same on most rows): each segment key names the first row of
	 * its id, whose id take() looks the comparison's row up by. */
	for (i = 0; i < k->n; i++) {
		const char *seg = fn ? fn(arg, k->names[i].seg) : NULL;

		seg = seg ? seg : k->names[i].seg;
		if (prof_htab_get(&k->segs, seg, strlen(seg)) < 0 &&
		    prof_htab_put(&k->segs, seg, strlen(seg), (long)i) < 0)
			return prof_err_set(err, "out of memory");
	}
	return 0;
}

int
prof_cmp_rows_take(struct prof_cmp_rows *k, struct json_object *o, size_t i,
		   struct prof_err *err)
{
	const char *w = prof_json_str(o, "workload");
	const char *b = prof_json_str(o, "backend");
	const char *seg = prof_json_str(o, "segment");
	const char *pw = w ? prof_pool_find(&k->pool, w) : NULL;
	const char *pb = b ? prof_pool_find(&k->pool, b) : NULL;
	char path[64];
	uint64_t slot;
	long j;

	snprintf(path, sizeof(path), "[%zu]", i);
	j = seg ? prof_htab_get(&k->segs, seg, strlen(seg)) : -1;
	j = j >= 0 && pw && pb ? rows_find(k, pw, pb, k->names[j].seg,
					  json_class(o), &slot) :
				 -1;
	if (j < 0)
		return prof_err_path(err, path,
				     "no such row in the results (%s, %s)", w,
				     b);
	if (k->seen[j] >= 0)
		return prof_err_path(err, path,
				     "the same row as [%ld] (%s, %s)",
				     k->seen[j], w, b);
	k->seen[j] = (long)i;
	return 0;
}

int
prof_cmp_rows_end(struct prof_cmp_rows *k, struct prof_err *err)
{
	long first = -1;
	size_t i;

	/* The first missing row in prof_cmp_close()'s order: by workload,
	 * then backend (rows from samples come in the file's order). */
	for (i = 0; i < k->n; i++) {
		int d;

		if (k->seen[i] >= 0)
			continue;
		if (first < 0) {
			first = (long)i;
			continue;
		}
		d = strcmp(k->names[i].w, k->names[first].w);
		if (!d)
			d = strcmp(k->names[i].b, k->names[first].b);
		if (d < 0)
			first = (long)i;
	}
	if (first >= 0)
		return prof_err_path(err, ".",
				     "no row for the results' %s (%s)",
				     k->names[first].w, k->names[first].b);
	return 0;
}

void
prof_cmp_rows_free(struct prof_cmp_rows *k)
{
	free(k->names);
	free(k->seen);
	prof_htab64_free(&k->h);
	prof_htab_free(&k->segs);
	prof_pool_free(&k->pool);
	memset(k, 0, sizeof(*k));
}

void
prof_cmp_free(struct prof_cmp *c)
{
	size_t k;

	if (!c)
		return;
	for (k = 0; c->rows && k < c->n; k++)
		taken_free(&c->rows[k].cur);
	free(c->rows);
	if (c->spilled)
		close(c->spill_fd);
	free(c->spill_at);
	free(c->ord);
	for (k = 0; k < c->n_base; k++)
		taken_free(&c->base[k].side);
	free(c->base);
	while (c->arena) {
		char *next = *(char **)c->arena;

		free(c->arena);
		c->arena = next;
	}
	free(c->pool);
	prof_htab64_free(&c->index);
	prof_htab64_free(&c->base_index);
	json_object_put(c->base_segments);
	json_object_put(c->shard_drift);
	memset(c, 0, sizeof(*c));
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

/* What an interval says (compare.h), bm the baseline median, band the
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
	 * the queue out of each call (compare.h). */
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
		na = pick(cw, cur->cont, n, 1, a);
		nb = pick(bw, base->cont, n, 1, b);
		if (na && nb &&
		    ratio_ci(a, na, b, nb, alpha, &out->lo, &out->hi) < 0)
			goto out;
		/* (None contended: the look is on all samples.) */
		if (na && nb && (na < n || nb < n) && out->lo > 0 &&
		    isfinite(out->hi))
			out->clean = 1;
	}
	if (!out->clean) {
		na = pick(cw, NULL, n, 0, a);
		nb = pick(bw, NULL, n, 0, b);
		/* Calls that waited in the queue with no CPU time to check
		 * their wall time by: the pairs alone, which share the
		 * load of their round (compare.h). Own times hold no
		 * queue. */
		if (all_ci(a, b, n, alpha,
			   own || (cur->cpu && base->cpu) ||
				   !(queued(cur->cont, n) ||
				     queued(base->cont, n)),
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
	 * only where their CPU time says the same (compare.h).
	 */
	if (!out->clean && cur->cpu && base->cpu &&
	    (out->state == PROF_CMP_LOOK_SLOWER ||
	     out->state == PROF_CMP_LOOK_FASTER) &&
	    (queued(cur->cont, n) || queued(base->cont, n))) {
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
	look_words(&l, why, why_n);
	return l.state != PROF_CMP_LOOK_OPEN;
}
