/* spill.c: the closed rows moved to a temporary file and read back one at a
 * time, and row k of a closed set made ready to judge. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/json.h"
#include "verdict/internal.h"
#include "verdict/verdict.h"

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
		prof_cmp_taken_free(&c->rows[k].cur);
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
int
prof_cmp_row_get(const struct prof_cmp *c, size_t k, struct prof_cmp_row *r,
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
	prof_cmp_taken_side(&e->cur, &r->cur);
	if (!c->judged)
		return prof_cmp_row_stats(r, &r->cur);
	if (c->missing) {
		if (prof_cmp_judge(r) < 0)
			return -1;
		r->status = PROF_CMP_INCOMPARABLE;
		snprintf(r->reason, sizeof(r->reason),
			 "baseline file '%s' not found", c->missing_name);
		return 0;
	}
	wid = prof_cmp_class_of(wbuf, sizeof(wbuf), e->workload,
				prof_cmp_entry_class(e));
	a = prof_cmp_group_bound(c, c->ord, wid, NULL, 0);
	b = prof_cmp_group_bound(c, c->ord, wid, NULL, 1);
	sa = prof_cmp_group_bound(c, c->ord, wid, e->segment, 0);
	sb = prof_cmp_group_bound(c, c->ord, wid, e->segment, 1);
	if (sb > sa) {
		g = (long)c->ord[sb - 1];
		r->matched = 1;
		prof_cmp_taken_side(&c->base[g].side, &r->base);
	}
	r->base_other_segments = (int)(b - a) - (g >= 0 ? 1 : 0);
	return prof_cmp_judge(r);
}
