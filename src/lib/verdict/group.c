/* group.c: samples grouped into rows (the current run's) and groups (the
 * baseline's), each kept brief until it is judged. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/grow.h"
#include "base/json.h"
#include "model/contend.h"
#include "model/sample.h"
#include "verdict/internal.h"
#include "verdict/verdict.h"

/* Whether a, a string of a sample or NULL, is b. */
static int
is(const char *a, const char *b)
{
	return a && !strcmp(a, b);
}

/* A sample's phase, kind and outcome, each looked up once for all the
 * questions below that a sample is asked as it is taken. */
struct facts {
	const char *phase, *kind, *outcome;
};

static void
facts_of(struct json_object *s, struct facts *f)
{
	f->phase = prof_sample_str(s, "phase");
	f->kind = prof_sample_str(s, "kind");
	f->outcome = prof_sample_str(s, "outcome");
}

static int
aggregated(struct json_object *s, const struct facts *f)
{
	return (is(f->phase, "timing") || is(f->phase, "browser")) &&
	       is(f->kind, "warm") && is(f->outcome, "success") &&
	       isfinite(prof_sample_num(s, "duration_ms"));
}

static int
counted(struct json_object *s, const struct facts *f)
{
	struct json_object *v = NULL;

	return is(f->phase, "instructions") && is(f->kind, "warm") &&
	       is(f->outcome, "success") &&
	       json_object_object_get_ex(s, "instructions", &v) &&
	       json_object_is_type(v, json_type_int);
}

static int
rowed(const struct facts *f)
{
	return is(f->phase, "timing") || is(f->phase, "browser") ||
	       is(f->phase, "instructions") || is(f->phase, "memory");
}

int
prof_cmp_aggregated(struct json_object *s)
{
	struct facts f;

	facts_of(s, &f);
	return aggregated(s, &f);
}

int
prof_cmp_counted(struct json_object *s)
{
	struct facts f;

	facts_of(s, &f);
	return counted(s, &f);
}

/* Whether s belongs to a row at all (errors and cold samples do). */
int
prof_cmp_rowed(struct json_object *s)
{
	struct facts f;

	facts_of(s, &f);
	return rowed(&f);
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
void
prof_cmp_taken_side(const struct prof_cmp_taken *t, struct prof_cmp_side *d)
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

void
prof_cmp_taken_free(struct prof_cmp_taken *t)
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

/* The A/B facts of a sample into its side (see verdict.h). */
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
	int oom = 0, is_count = 0;
	struct facts f;

	facts_of(s, &f);
	if (is(f.outcome, "error") && d->errors < UINT32_MAX)
		d->errors++;
	if (!mem)
		is_count = counted(s, &f);
	if (mem ? !prof_cmp_mem_value(s, mem, &mv) :
		  !is_count && !aggregated(s, &f))
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
	 * index, and prof_cmp_judge_count() compares the calls both sides made.
	 */
	if (is_count) {
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
int
prof_cmp_entry_class(const struct prof_cmp_entry *e)
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
		d = prof_cmp_entry_class(x) - prof_cmp_entry_class(y);
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
int
prof_cmp_mem_any(struct json_object *s)
{
	return json_object_object_get_ex(s, "memory", NULL) ||
	       prof_sample_is(s, "phase", "memory");
}

int
prof_cmp_mem_takes(struct json_object *s, enum prof_cmp_mem m)
{
	double v;

	return (prof_sample_is(s, "phase", "memory") &&
		prof_sample_is(s, "outcome", "error") &&
		(m != PROF_CMP_MEM_DEVICE ||
		 !prof_sample_is(s, "backend", "cpu"))) ||
	       prof_cmp_mem_value(s, m, &v);
}

int
prof_cmp_take(struct prof_cmp *c, struct json_object *s, const char *seg,
	      struct prof_err *err)
{
	struct facts f;
	int m, any;

	facts_of(s, &f);
	if (!rowed(&f) || !prof_sample_str(s, "workload") ||
	    !prof_sample_str(s, "backend") || !seg)
		return 0;
	if (!is(f.phase, "memory") &&
	    take_class(c, s, seg, is(f.phase, "instructions"), err) < 0)
		return -1;
	any = is(f.phase, "memory") ||
	      json_object_object_get_ex(s, "memory", NULL);
	for (m = 1; any && m < PROF_CMP_MEM_N; m++)
		if (prof_cmp_mem_takes(s, (enum prof_cmp_mem)m) &&
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

	if (c->last_row && c->last_row <= c->n) {
		const struct prof_cmp_entry *e = &c->rows[c->last_row - 1];

		if (!strcmp(e->workload, w) && !strcmp(e->backend, b) &&
		    prof_cmp_entry_class(e) == cls &&
		    !strcmp(e->segment, seg)) {
			k = (long)c->last_row - 1;
			goto found;
		}
	}
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
		    prof_cmp_entry_class(e) == cls &&
		    !strcmp(e->segment, seg)) {
			k = (long)at;
			break;
		}
	}
	if (k < 0) {
		if (PROF_GROW(c->rows, c->n + 1, c->cap) < 0)
			return prof_err_set(err, "out of memory");
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
	c->last_row = (size_t)k + 1;
found:
	/* A time row takes the first threshold a sample records (an error
	 * sample may come first, with none). */
	if (!cls && !(c->rows[k].threshold_pct > 0))
		c->rows[k].threshold_pct = time_threshold(s);
	if (side_take(c, &c->rows[k].cur, s, mem) < 0)
		return prof_err_set(err, "out of memory");
	return 0;
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
	c->last_row = 0;
	if (c->n)
		qsort(c->rows, c->n, sizeof(*c->rows), cmp_rows);
	/* Sorted, the rows are found by place: the index is done with. */
	prof_htab64_free(&c->index);
	return 0;
}

/*
 * The name a baseline group is found by: the workload id, and for counts
 * the id with a mark no id has, so that a count row only ever meets the
 * baseline's counts.
 */
const char *
prof_cmp_class_of(char *buf, size_t n, const char *w, int cls)
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
	struct facts f;
	int m, any;

	facts_of(s, &f);
	if (!rowed(&f) || !prof_sample_str(s, "workload") || !seg)
		return 0;
	if (!is(f.phase, "memory") &&
	    base_class(c, s, seg, is(f.phase, "instructions"), err) < 0)
		return -1;
	any = is(f.phase, "memory") ||
	      json_object_object_get_ex(s, "memory", NULL);
	for (m = 1; any && m < PROF_CMP_MEM_N; m++)
		if (prof_cmp_mem_takes(s, (enum prof_cmp_mem)m) &&
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

	w = prof_cmp_class_of(wbuf, sizeof(wbuf), w, cls);
	if (c->last_base && c->last_base <= c->n_base &&
	    !strcmp(c->base[c->last_base - 1].workload, w) &&
	    !strcmp(c->base[c->last_base - 1].seg, seg)) {
		k = (long)c->last_base - 1;
		goto found;
	}
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
		if (PROF_GROW(c->base, c->n_base + 1, c->cap_base) < 0)
			return prof_err_set(err, "out of memory");
		k = (long)c->n_base;
		g = &c->base[c->n_base++];
		memset(g, 0, sizeof(*g));
		g->workload = keep(c, w, &oom);
		g->seg = keep(c, seg, &oom);
		side_meta(c, &g->side, s, &oom);
		if (oom || prof_htab64_put(&c->base_index, h, k) < 0)
			return prof_err_set(err, "out of memory");
	}
	c->last_base = (size_t)k + 1;
found:
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
size_t
prof_cmp_group_bound(const struct prof_cmp *c, const uint32_t *ord,
		     const char *w, const char *seg, int after)
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
	/* Each row finds its group as it is judged (prof_cmp_row_get()). */
	free(c->ord);
	c->ord = ord;
	return 0;
oom:
	free(ord);
	return prof_err_set(err, "out of memory");
}

void
prof_cmp_free(struct prof_cmp *c)
{
	size_t k;

	if (!c)
		return;
	for (k = 0; c->rows && k < c->n; k++)
		prof_cmp_taken_free(&c->rows[k].cur);
	free(c->rows);
	if (c->spilled)
		close(c->spill_fd);
	free(c->spill_at);
	free(c->ord);
	for (k = 0; k < c->n_base; k++)
		prof_cmp_taken_free(&c->base[k].side);
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
