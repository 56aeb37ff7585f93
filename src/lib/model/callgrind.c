/* callgrind.c: the instruction count of callgrind dumps. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/afile.h"
#include "base/grow.h"
#include "base/range.h"
#include "base/stats.h"
#include "model/callgrind.h"

/* The value after "key:" when line starts with it, else NULL. */
static const char *
header(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

/* Copy a header value without its newline. */
static void
copy_value(char *dst, size_t n, const char *v)
{
	snprintf(dst, n, "%.*s", (int)strcspn(v, "\r\n"), v);
}

/* Which column of the cost lines holds Ir, or -1. */
static int
ir_column(const char *events)
{
	int col = 0;

	while (*events && *events != '\n') {
		size_t len;

		events += strspn(events, " \t");
		len = strcspn(events, " \t\r\n");
		if (len == 2 && !strncmp(events, "Ir", 2))
			return col;
		if (!len)
			break;
		events += len;
		col++;
	}
	return -1;
}

/*
 * Column col of a list of counts (totals:, summary:, a cost line's
 * events) into *x: 0, 1 when the column is missing or not digits, -1 with
 * err's reason when the count is beyond 64 bits (prof_range_count()).
 */
static int
count_at(const char *v, int col, const char *what, long long *x,
	 struct prof_err *err)
{
	int i, rc;

	for (i = 0; i <= col; i++) {
		const char *end;

		v += strspn(v, " \t");
		if (*v < '0' || *v > '9')
			return 1;
		rc = prof_range_count(v, &end, 0, LLONG_MAX, what, x, err);
		if (rc)
			return rc;
		v = end;
	}
	return 0;
}

/* A count of the header, totals: or summary:, and where it was. */
struct hcount {
	long long v;
	int line;		/* 0: the file has no such line */
	int rc;			/* count_at()'s */
	struct prof_err err;	/* its reason when rc is -1 */
};

static void
take_count(struct hcount *h, const char *v, int col, const char *what,
	   int lineno)
{
	memset(h, 0, sizeof(*h));
	h->line = lineno;
	h->rc = count_at(v, col < 0 ? 0 : col, what, &h->v, &h->err);
}

/* The count of h into *x, or -1 with err naming its line (a count beyond
 * 64 bits, or none: "KEY has no Ir count"). */
static int
use_count(const struct hcount *h, const char *path, const char *key,
	  long long *x, struct prof_err *err)
{
	if (h->rc < 0) {
		prof_err_set(err, "%s", h->err.reason);
		return prof_err_place(err, path, h->line, 0);
	}
	if (h->rc > 0)
		return prof_err_at(err, path, h->line, 0, "%s has no Ir count",
				   key);
	*x = h->v;
	return 0;
}

/* What a dump and a profile read alike of the header: the command
 * (cmd:), what triggered the dump (desc: Trigger: ...), and summary: and
 * totals: (their count at column col), each into its field. */
struct head {
	char *cmd, *trigger;
	size_t cmd_size, trigger_size;
	struct hcount summary, totals;
};

/* line into h when it is one of its headers; 1 when it was, else 0. */
static int
shared_header(struct head *h, const char *line, int col, int lineno)
{
	const char *v;

	if ((v = header(line, "cmd"))) {
		copy_value(h->cmd, h->cmd_size, v);
	} else if ((v = header(line, "desc")) && !strncmp(v, "Trigger:", 8)) {
		v += 8 + strspn(v + 8, " ");
		copy_value(h->trigger, h->trigger_size, v);
	} else if ((v = header(line, "summary"))) {
		take_count(&h->summary, v, col, "summary:", lineno);
	} else if ((v = header(line, "totals"))) {
		take_count(&h->totals, v, col, "totals:", lineno);
	} else {
		return 0;
	}
	return 1;
}

/* The dump at path (- for stdin) opened, or NULL with err. */
static FILE *
dump_open(const char *path, struct prof_err *err)
{
	FILE *fp = prof_input_open(path, 0, 0, err);

	if (!fp && errno)
		prof_err_set(err, "cannot read the callgrind dump: %s",
			     strerror(errno));
	return fp;
}

/* After a dump's last line: -1 with err when it could not be read, was
 * empty (no line) or had no events: line (col < 0), else 0. */
static int
dump_end(FILE *fp, const char *path, int lines, int col, struct prof_err *err)
{
	if (ferror(fp)) {
		prof_err_file(err, path);
		return prof_err_set(err, "cannot read the callgrind dump: %s",
				    strerror(errno));
	}
	if (!lines || col < 0) {
		prof_err_file(err, path);
		return prof_err_set(err, lines ? "no events: line" :
						 "empty callgrind dump");
	}
	return 0;
}

/* A pid: or part: line into d: 1 when line is one, 0 when not, -1 with
 * err (its place set) when the number is beyond range. */
static int
id_header(struct prof_callgrind_dump *d, const char *line, const char *path,
	  int lineno, struct prof_err *err)
{
	const char *v;
	int is_pid, r;
	long long x = 0;

	if (!(v = header(line, "pid")) && !(v = header(line, "part")))
		return 0;
	is_pid = !strncmp(line, "pid", 3);
	r = prof_range_count(v, NULL, 0, is_pid ? LLONG_MAX : INT_MAX,
			     is_pid ? "pid:" : "part:", &x, err);
	if (r < 0)
		return prof_err_place(err, path, lineno, 0);
	if (!r && is_pid)
		d->pid = x;
	else if (!r)
		d->part = (int)x;
	return 1;
}

/* A dump's count of instructions from its header (h) into *ir: totals:
 * is the sum of what the file holds; summary: a counter that callgrind
 * may leave wrapped around in a final dump. Returns 0 or -1 with err. */
static int
read_total(const struct head *h, const char *path, long long *ir,
	   struct prof_err *err)
{
	if (h->totals.line)
		return use_count(&h->totals, path, "totals:", ir, err);
	if (h->summary.line)
		return use_count(&h->summary, path, "summary:", ir, err);
	prof_err_file(err, path);
	return prof_err_set(err, "no totals: or summary: line (a dump cut "
			    "short?)");
}

int
prof_callgrind_read(const char *path, struct prof_callgrind_dump *d,
		    struct prof_err *err)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, col = -1, rc = -1, r;
	struct head h = {.cmd = d->cmd,
			 .trigger = d->trigger,
			 .cmd_size = sizeof(d->cmd),
			 .trigger_size = sizeof(d->trigger)};
	const char *v;

	memset(d, 0, sizeof(*d));
	d->pid = -1;
	d->ir = -1;
	fp = dump_open(path, err);
	if (!fp)
		return -1;
	while (getline(&line, &cap, fp) >= 0) {
		lineno++;
		/* "# callgrind format" opens every file since 3.5;
		 * "version: 1" the older ones. */
		if (lineno == 1 && strncmp(line, "# callgrind format", 18) &&
		    !header(line, "version")) {
			prof_err_at(err, path, 1, 0,
				    "not a callgrind output file");
			goto out;
		}
		r = id_header(d, line, path, lineno, err);
		if (r < 0)
			goto out;
		if (r || shared_header(&h, line, col, lineno))
			continue;
		if ((v = header(line, "events"))) {
			col = ir_column(v);
			if (col < 0) {
				prof_err_at(err, path, lineno, 0,
					    "no Ir event (run callgrind "
					    "without --toggle-collect options "
					    "that drop it)");
				goto out;
			}
		}
	}
	if (dump_end(fp, path, lineno, col, err) == 0)
		rc = read_total(&h, path, &d->ir, err);
out:
	free(line);
	fclose(fp);
	return rc;
}

int
prof_callgrind_sum(const char *dir, const char *prefix, long long *ir,
		   int *files, int *pids, struct prof_err *err)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	size_t plen = strlen(prefix), n = 0, cap = 0, i;
	long long total = 0, *seen = NULL;
	char path[PATH_MAX];
	int rc = -1;

	*ir = 0;
	*files = *pids = 0;
	if (!dp) {
		prof_err_file(err, dir);
		return prof_err_set(err, "cannot read the folder: %s",
				    strerror(errno));
	}
	while ((e = readdir(dp))) {
		struct prof_callgrind_dump d;

		if (strncmp(e->d_name, prefix, plen))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (prof_callgrind_read(path, &d, err) < 0)
			goto out;
		if (total > LLONG_MAX - d.ir) {
			prof_err_file(err, path);
			prof_err_set(err, "the sum of the counts overflows");
			goto out;
		}
		total += d.ir;
		if (PROF_GROW(seen, n + 1, cap) < 0) {
			prof_err_set(err, "out of memory");
			goto out;
		}
		seen[n++] = d.pid;
	}
	if (!n) {
		prof_err_file(err, dir);
		prof_err_set(err, "no callgrind dump '%s*' was written", prefix);
		goto out;
	}
	qsort(seen, n, sizeof(*seen), prof_cmp_ll);
	for (i = 0; i < n; i++)
		if (!i || seen[i] != seen[i - 1])
			(*pids)++;
	*files = (int)n;
	*ir = total;
	rc = 0;
out:
	free(seen);
	closedir(dp);
	return rc;
}

/* Reading a dump function by function. */

/* The names a dump defines: "(id) name" once, "(id)" after that; files
 * (fl, fi, fe, cfi, cfl) and functions (fn, cfn) have an id space each.
 * Ids are hashed, so that memory follows the names a file defines, not
 * the largest id it gives (fl=(50000000) is one name, not an array of
 * fifty million). */
struct names {
	struct prof_htab index;	/* id -> its place in by_n */
	char **by_n;
	size_t n, cap;
};

struct loader {
	struct prof_callgrind_profile *p;
	const char *path;
	int lineno;
	struct names files, fns, kept;
	size_t n_kept;
	char *anon_file, *anon_fn;	/* a name given without an id */
	char *anon_cfn;			/* a callee's, kept apart: fn= comes
					 * between calls= and its cost */
	const char *file;		/* the current file (fl, fi, fe) */
	long fn;			/* the current function, or -1 */
	const char *cfile, *cfn;	/* the next call's target */
	int call_pending;		/* calls= seen: next line is its cost */
	long long call_count;
	int skip_line;			/* jump=, jcnd=: a position follows */
	int npos, col;
};

/* The name of id, or NULL when it was never defined. */
static const char *
names_get(const struct names *t, unsigned long long id)
{
	long i = prof_htab_get(&t->index, &id, sizeof(id));

	return i < 0 ? NULL : t->by_n[i];
}

/*
 * Define id as name[0..len). Returns its copy, or NULL when out of memory;
 * *again is 1 when id was defined before as another name (which stays:
 * the current file and function may point at it).
 */
static const char *
names_put(struct names *t, unsigned long long id, const char *name,
	  size_t len, int *again)
{
	long i = prof_htab_get(&t->index, &id, sizeof(id));
	char *s;

	*again = 0;
	if (i >= 0) {
		*again = strlen(t->by_n[i]) != len ||
			 memcmp(t->by_n[i], name, len);
		return t->by_n[i];
	}
	s = strndup(name, len);
	if (!s)
		return NULL;
	if (PROF_GROW(t->by_n, t->n + 1, t->cap) < 0)
		goto oom;
	if (prof_htab_put(&t->index, &id, sizeof(id), (long)t->n) < 0)
		goto oom;
	t->by_n[t->n++] = s;
	return s;
oom:
	free(s);
	return NULL;
}

static void
names_free(struct names *t)
{
	prof_strv_free(t->by_n, t->n);
	prof_htab_free(&t->index);
}

/*
 * The name a "key=" value gives: "(id) name" defines id, "(id)" uses it,
 * "name" is itself (kept in *anon until the next one). NULL with err.
 */
static const char *
name_of(struct loader *l, struct names *t, char **anon, const char *v,
	struct prof_err *err)
{
	size_t len;

	if (*v == '(') {
		const char *end;
		long long id;
		int rc = prof_range_count(v + 1, &end, 0, LLONG_MAX, "a name id",
					  &id, err);

		if (rc < 0) {
			prof_err_place(err, l->path, l->lineno, 0);
			return NULL;
		}
		if (rc || *end != ')') {
			prof_err_at(err, l->path, l->lineno, 0,
				    "a bad name id");
			return NULL;
		}
		v = end + 1;
		while (*v == ' ')
			v++;
		len = strcspn(v, "\r\n");
		if (len) {
			int again;
			const char *name = names_put(t, (unsigned long long)id,
						     v, len, &again);

			if (!name) {
				prof_err_set(err, "out of memory");
			} else if (again) {
				prof_err_at(err, l->path, l->lineno, 0,
					    "name id (%lld) is defined again "
					    "as another name", id);
				return NULL;
			}
			return name;
		}
		if (!names_get(t, (unsigned long long)id)) {
			prof_err_at(err, l->path, l->lineno, 0,
				    "name id (%lld) is used before it is "
				    "defined", id);
			return NULL;
		}
		return names_get(t, (unsigned long long)id);
	}
	free(*anon);
	*anon = strndup(v, strcspn(v, "\r\n"));
	if (!*anon)
		prof_err_set(err, "out of memory");
	return *anon;
}

/* A file name given without an id is kept while other names come: the
 * current file outlives the next anonymous one. */
static const char *
keep_file(struct loader *l, const char *name, struct prof_err *err)
{
	int again;

	if (name != l->anon_file)
		return name;
	name = names_put(&l->kept, l->n_kept++, name, strlen(name), &again);
	if (!name)
		prof_err_set(err, "out of memory");
	return name;
}

/* name'N (a recursion depth of --separate-recs) is name. */
static size_t
base_len(const char *name)
{
	size_t len = strlen(name), i = len;

	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	if (i < len && i > 1 && name[i - 1] == '\'')
		return i - 1;
	return len;
}

/* The function name in file, added when new; -1 when out of memory. */
static long
fn_index(struct prof_callgrind_profile *p, const char *name, size_t nlen,
	 const char *file)
{
	size_t flen = strlen(file), klen = nlen + 1 + flen;
	char stack[512], *key = klen <= sizeof(stack) ? stack : malloc(klen);
	struct prof_callgrind_fn *f;
	long i = -1;

	if (!key)
		return -1;
	memcpy(key, name, nlen);
	key[nlen] = '\0';
	memcpy(key + nlen + 1, file, flen);
	if (!p->fn_index && !(p->fn_index = calloc(1, sizeof(*p->fn_index))))
		goto out;
	i = prof_htab_get(p->fn_index, key, klen);
	if (i >= 0)
		goto out;
	if (PROF_GROW(p->fns, p->n_fns + 1, p->cap_fns) < 0)
		goto out;
	f = &p->fns[p->n_fns];
	memset(f, 0, sizeof(*f));
	f->name = strndup(name, nlen);
	f->file = strdup(file);
	if (!f->name || !f->file ||
	    prof_htab_put(p->fn_index, key, klen, (long)p->n_fns) < 0) {
		free(f->name);
		free(f->file);
		goto out;
	}
	i = (long)p->n_fns++;
out:
	if (key != stack)
		free(key);
	return i;
}

/* Add calls of caller to callee; a call of a function to itself is part
 * of its own cost already. Returns 0, or -1 with err's reason (out of
 * memory, or a sum beyond 64 bits). */
static int
add_call(struct prof_callgrind_profile *p, size_t caller, size_t callee,
	 long long count, long long ir, struct prof_err *err)
{
	size_t key[2] = {caller, callee};
	struct prof_callgrind_call *c;
	long i;

	if (caller == callee)
		return 0;
	if (!p->call_index &&
	    !(p->call_index = calloc(1, sizeof(*p->call_index))))
		return prof_err_set(err, "out of memory");
	i = prof_htab_get(p->call_index, key, sizeof(key));
	if (i < 0) {
		if (PROF_GROW(p->calls, p->n_calls + 1, p->cap_calls) < 0)
			return prof_err_set(err, "out of memory");
		if (prof_htab_put(p->call_index, key, sizeof(key),
				  (long)p->n_calls) < 0)
			return prof_err_set(err, "out of memory");
		i = (long)p->n_calls++;
		p->calls[i].caller = caller;
		p->calls[i].callee = callee;
		p->calls[i].count = 0;
		p->calls[i].ir = 0;
	}
	c = &p->calls[i];
	if (count > LLONG_MAX - c->count || ir > LLONG_MAX - c->ir) {
		int of_count = count > LLONG_MAX - c->count;
		char what[512];

		snprintf(what, sizeof(what), "the %s of the calls of '%.200s' "
			 "to '%.200s'", of_count ? "count" : "cost",
			 p->fns[caller].name, p->fns[callee].name);
		return prof_range_add(of_count ? &c->count : &c->ir,
				      of_count ? count : ir, what, err);
	}
	c->count += count;
	c->ir += ir;
	return 0;
}

/*
 * The Ir of a cost line into *ir: npos positions ("12", "+3", "-1", "*",
 * "0x1f"), then the events' counts, missing ones zero. Returns 0, 1 when
 * it is not numbers, or -1 with err's reason when a count is beyond 64
 * bits.
 */
static int
line_cost(const char *v, int npos, int col, long long *ir,
	  struct prof_err *err)
{
	int i;

	*ir = 0;
	for (i = 0; i < npos; i++) {
		size_t len;

		v += strspn(v, " \t");
		len = strcspn(v, " \t\r\n");
		if (!len)
			return i ? 0 : 1;
		if (!strchr("0123456789+-*", *v))
			return 1;
		v += len;
	}
	v += strspn(v, " \t");
	for (i = 0; i < col; i++) {
		size_t len = strcspn(v, " \t\r\n");

		if (!len)
			return 0;
		v += len;
		v += strspn(v, " \t");
	}
	if (*v == '\r' || *v == '\n' || !*v)
		return 0;
	return count_at(v, 0, "a cost", ir, err);
}

/* How many position columns "positions: instr line" names. */
static int
position_count(const char *v)
{
	int n = 0;

	while (*v && *v != '\n' && *v != '\r') {
		size_t len;

		v += strspn(v, " \t");
		len = strcspn(v, " \t\r\n");
		if (!len)
			break;
		n++;
		v += len;
	}
	return n ? n : 1;
}

/* The file a "fl=", "fi=", "fe=", "cfi=" or "cfl=" value names, its
 * compressed name undone, kept (keep_file()). NULL with err. */
static const char *
spec_file(struct loader *l, const char *v, struct prof_err *err)
{
	const char *name = name_of(l, &l->files, &l->anon_file, v, err);

	return name ? keep_file(l, name, err) : NULL;
}

/* One "key=value" line of the cost part. Returns 0 or -1 with err. */
static int
spec_line(struct loader *l, const char *line, struct prof_err *err)
{
	const char *v = strchr(line, '=') + 1;
	size_t klen = (size_t)(v - 1 - line);
	const char *name;

#define KEY(k) (klen == sizeof(k) - 1 && !strncmp(line, k, klen))
	/* The current file and function, and with a "c" the next call's
	 * (cfi=, cfl=, cfn=) */
	if (KEY("fl") || KEY("fi") || KEY("fe") || KEY("cfi") ||
	    KEY("cfl")) {
		name = spec_file(l, v, err);
		if (!name)
			return -1;
		*(line[0] == 'c' ? &l->cfile : &l->file) = name;
	} else if (KEY("fn") || KEY("cfn")) {
		int call = line[0] == 'c';

		name = name_of(l, &l->fns, call ? &l->anon_cfn : &l->anon_fn,
			       v, err);
		if (!name)
			return -1;
		if (call) {
			l->cfn = name;
			return 0;
		}
		l->fn = fn_index(l->p, name, base_len(name),
				 l->file ? l->file : "???");
		if (l->fn < 0)
			return prof_err_set(err, "out of memory");
		l->cfile = NULL;
	} else if (KEY("calls")) {
		long long n = 0;
		int rc = count_at(v, 0, "calls=", &n, err);

		if (rc < 0)
			return prof_err_place(err, l->path, l->lineno, 0);
		if (rc || !l->cfn || l->fn < 0)
			return prof_err_at(err, l->path, l->lineno, 0,
					   rc ? "calls= without a count" :
						"calls= without cfn= or "
						"fn= before it");
		l->call_pending = 1;
		l->call_count = n;
	} else if (KEY("jump") || KEY("jcnd")) {
		l->skip_line = 1;
	} else if (KEY("jfi")) {
		/* a jump's target file (--collect-jumps): it may define a
		 * name that fi= uses later */
		if (!name_of(l, &l->files, &l->anon_file, v, err))
			return -1;
	}
	/* ob=, cob= and others: no part of a function's name */
#undef KEY
	return 0;
}

/* One cost line: the current function's, or the pending call's. */
static int
cost_line(struct loader *l, const char *line, struct prof_err *err)
{
	struct prof_callgrind_fn *f;
	long long ir;
	int rc;

	if (l->skip_line) {
		l->skip_line = 0;
		return 0;
	}
	if (l->col < 0)
		return prof_err_at(err, l->path, l->lineno, 0,
				   "a cost line before events:");
	rc = line_cost(line, l->npos, l->col, &ir, err);
	if (rc < 0)
		return prof_err_place(err, l->path, l->lineno, 0);
	if (rc)
		return prof_err_at(err, l->path, l->lineno, 0,
				   "a cost line that is not numbers");
	if (l->fn < 0)
		return prof_err_at(err, l->path, l->lineno, 0,
				   "a cost line before fn=");
	if (l->call_pending) {
		const char *file = l->cfile ? l->cfile :
				   l->file ? l->file : "???";
		long callee = fn_index(l->p, l->cfn, base_len(l->cfn), file);

		l->call_pending = 0;
		l->cfile = NULL;
		if (callee < 0)
			return prof_err_set(err, "out of memory");
		if (add_call(l->p, (size_t)l->fn, (size_t)callee,
			     l->call_count, ir, err) < 0)
			return prof_err_place(err, l->path, l->lineno, 0);
		return 0;
	}
	f = &l->p->fns[l->fn];
	if (ir > LLONG_MAX - f->self) {
		char what[300];

		snprintf(what, sizeof(what), "the self cost of '%.200s'",
			 f->name);
		prof_range_add(&f->self, ir, what, err);
		return prof_err_place(err, l->path, l->lineno, 0);
	}
	f->self += ir;
	return 0;
}

/* Each function's incl and called from its self cost and the calls.
 * Returns 0, or -1 with err when a sum is beyond 64 bits. */
static int
inclusive_costs(struct prof_callgrind_profile *p, struct prof_err *err)
{
	size_t i;

	for (i = 0; i < p->n_fns; i++) {
		p->fns[i].incl = p->fns[i].self;
		p->fns[i].called = 0;
	}
	for (i = 0; i < p->n_calls; i++) {
		struct prof_callgrind_call *c = &p->calls[i];

		if (prof_range_add(&p->fns[c->caller].incl, c->ir,
				   "an inclusive cost", err) < 0 ||
		    prof_range_add(&p->fns[c->callee].called, c->ir,
				   "the cost of calls to a function", err) < 0)
			return -1;
	}
	return 0;
}

/* One line of a dump into l, the header's counts into h. Returns 0 or -1
 * with err. */
static int
load_line(struct loader *l, struct head *h, const char *line,
	  struct prof_err *err)
{
	struct prof_callgrind_profile *p = l->p;
	char c = line[0];
	const char *v;

	/* pprof --callgrind opens with events: */
	if (l->lineno == 1 && strncmp(line, "# callgrind format", 18) &&
	    !header(line, "version") && !header(line, "events"))
		return prof_err_at(err, l->path, 1, 0,
				   "not a callgrind output file");
	if (c == '#' || c == '\n' || c == '\r')
		return 0;
	if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*')
		return cost_line(l, line, err);
	if (strchr(line, '=') && strcspn(line, "=") < strcspn(line, ": "))
		return spec_line(l, line, err);
	if ((v = header(line, "positions"))) {
		l->npos = position_count(v);
	} else if ((v = header(line, "events"))) {
		/* Ir, or the first event of another profiler's output
		 * (pprof's Hits) */
		l->col = ir_column(v);
		if (l->col < 0) {
			l->col = 0;
			copy_value(p->event, sizeof(p->event), v);
			p->event[strcspn(p->event, " \t")] = '\0';
		}
	} else {
		shared_header(h, line, l->col, l->lineno);
	}
	return 0;
}

/*
 * p's total from the header (h), checked against the sum of its cost
 * lines: totals: (summary: without it) is that sum, and a file that says
 * otherwise would explain a change it does not have. pprof's output has
 * neither: its total is the sum. Returns 0 or -1 with err.
 */
static int
load_total(struct prof_callgrind_profile *p, const char *path,
	   const struct head *h, struct prof_err *err)
{
	const struct hcount *t = &h->totals, *s = &h->summary, *said;
	long long sum = 0;
	size_t i;

	for (i = 0; i < p->n_fns; i++)
		if (prof_range_add(&sum, p->fns[i].self, "the functions' costs",
				   err) < 0)
			return prof_err_place(err, path, 0, 0);
	if (t->line && t->rc <= 0) {
		if (use_count(t, path, "totals:", &p->total, err) < 0)
			return -1;
	} else if (s->line) {
		if (use_count(s, path, "summary:", &p->total, err) < 0)
			return -1;
	} else if (t->line) {
		/* totals: without a count, and no summary: */
		use_count(t, path, "totals:", &p->total, err);
		return -1;
	} else if (p->event[0]) {
		p->total = sum;
	} else {
		prof_err_file(err, path);
		return prof_err_set(err, "no totals: or summary: line (a dump "
				    "cut short?)");
	}
	if (p->total == sum)
		return 0;
	said = t->line && t->rc == 0 ? t : s;
	return prof_err_at(err, path, said->line, 0,
			   "%s says %lld, but the file's cost lines add up to "
			   "%lld", said == t ? "totals:" : "summary:", p->total,
			   sum);
}

int
prof_callgrind_load(const char *path, struct prof_callgrind_profile *p,
		    struct prof_err *err)
{
	struct loader l = {0};
	char *line = NULL;
	size_t cap = 0;
	struct head h = {.cmd = p->cmd,
			 .trigger = p->trigger,
			 .cmd_size = sizeof(p->cmd),
			 .trigger_size = sizeof(p->trigger)};
	int rc = -1;
	FILE *fp;

	memset(p, 0, sizeof(*p));
	l.p = p;
	l.path = path;
	l.fn = -1;
	l.npos = 1;
	l.col = -1;
	fp = dump_open(path, err);
	if (!fp)
		return -1;
	while (getline(&line, &cap, fp) >= 0) {
		l.lineno++;
		if (load_line(&l, &h, line, err) < 0)
			goto out;
	}
	if (dump_end(fp, path, l.lineno, l.col, err) < 0 ||
	    load_total(p, path, &h, err) < 0)
		goto out;
	if (inclusive_costs(p, err) < 0) {
		prof_err_place(err, path, 0, 0);
		goto out;
	}
	rc = 0;
out:
	names_free(&l.files);
	names_free(&l.fns);
	names_free(&l.kept);
	free(l.anon_file);
	free(l.anon_fn);
	free(l.anon_cfn);
	free(line);
	fclose(fp);
	return rc;
}

long
prof_callgrind_find(const struct prof_callgrind_profile *p, const char *name,
		    const char *file)
{
	long found = -1;
	size_t i;

	if (file && p->fn_index) {
		size_t nlen = strlen(name), flen = strlen(file);
		char *key = malloc(nlen + flen + 1);

		if (!key)
			return -1;
		memcpy(key, name, nlen + 1);
		memcpy(key + nlen + 1, file, flen);
		found = prof_htab_get(p->fn_index, key, nlen + 1 + flen);
		free(key);
		return found;
	}
	for (i = 0; i < p->n_fns; i++) {
		if (strcmp(p->fns[i].name, name))
			continue;
		if (found >= 0)
			return -1;
		found = (long)i;
	}
	return found;
}

void
prof_callgrind_profile_free(struct prof_callgrind_profile *p)
{
	size_t i;

	for (i = 0; i < p->n_fns; i++) {
		free(p->fns[i].name);
		free(p->fns[i].file);
	}
	free(p->fns);
	free(p->calls);
	if (p->fn_index)
		prof_htab_free(p->fn_index);
	if (p->call_index)
		prof_htab_free(p->call_index);
	free(p->fn_index);
	free(p->call_index);
	memset(p, 0, sizeof(*p));
}

/* Every cost of p times factor into p when apply, else only checked.
 * Returns 0, or -1 with err's reason at the first that is out of range. */
static int
scale_all(struct prof_callgrind_profile *p, double factor, int apply,
	  struct prof_err *err)
{
	long long x;
	size_t i;

#define SCALE(v, what)                                                      \
	do {                                                                \
		if (prof_range_scale(v, factor, what, &x, err) < 0)         \
			return -1;                                          \
		if (apply)                                                  \
			v = x;                                              \
	} while (0)
	for (i = 0; i < p->n_fns; i++) {
		SCALE(p->fns[i].self, "a self cost");
		SCALE(p->fns[i].incl, "an inclusive cost");
		SCALE(p->fns[i].called, "a cost of calls");
	}
	for (i = 0; i < p->n_calls; i++)
		SCALE(p->calls[i].ir, "a cost of calls");
	SCALE(p->total, "the total");
#undef SCALE
	return 0;
}

/* Multiply every cost of p by factor (rounded): CPU samples of a number of
 * calls into a cost per call. Returns 0, or -1 with err's reason (p left
 * as it is) when a product is beyond 64 bits (prof_range_scale()). */
static int
scale(struct prof_callgrind_profile *p, double factor, struct prof_err *err)
{
	if (scale_all(p, factor, 0, err) < 0)
		return -1;
	return scale_all(p, factor, 1, err);
}

/* The bounds of a CALLS HZ file: a profile covers at least one call and
 * at most 10^12 (a nanosecond each for over a quarter of an hour); a
 * profiler samples from 1 to 10^6 times a second (gperftools' default is
 * 100, prof-trace's 1000). */
#define CALLS_MAX 1e12
#define HZ_MAX 1e6

int
prof_callgrind_per_call(struct prof_callgrind_profile *p, const char *path,
			struct prof_err *err)
{
	char calls_path[PATH_MAX], *line = NULL;
	size_t len = strlen(path), cap = 0;
	double calls = 0, hz = 0;
	const char *v = NULL;
	int rc = -1, r;
	FILE *fp;

	if (len < 10 || strcmp(path + len - 10, ".callgrind") ||
	    len + 1 > sizeof(calls_path)) {
		prof_err_file(err, path);
		return prof_err_set(err, "not a CPU profile's .callgrind file: "
				    "no CALLS HZ file beside it");
	}
	snprintf(calls_path, sizeof(calls_path), "%.*s.calls",
		 (int)(len - 10), path);
	fp = prof_input_open(calls_path, 0, 0, err);
	if (!fp)
		return errno ? prof_err_set(err, "cannot read the CALLS HZ file "
					    "beside the CPU profile: %s",
					    strerror(errno)) : -1;
	if (getline(&line, &cap, fp) < 0) {
		prof_err_at(err, calls_path, 1, 0,
			    "empty: expected CALLS HZ (the calls the profile "
			    "covers, the profiler's frequency)");
		goto out;
	}
	r = prof_range_real(line, &v, 1, CALLS_MAX, "CALLS", &calls, err);
	if (!r)
		r = prof_range_real(v, &v, 1, HZ_MAX, "HZ", &hz, err);
	if (r < 0) {
		prof_err_place(err, calls_path, 1, 0);
		goto out;
	}
	if (r || v[strspn(v, " \t\r\n")]) {
		prof_err_at(err, calls_path, 1, 0,
			    "expected CALLS HZ (the calls the profile covers, "
			    "the profiler's frequency), two numbers");
		goto out;
	}
	if (scale(p, 1e9 / hz / calls, err) < 0) {
		prof_err_place(err, calls_path, 1, 0);
		goto out;
	}
	rc = 0;
out:
	free(line);
	fclose(fp);
	return rc;
}

int
prof_callgrind_rename(struct prof_callgrind_profile *p,
		      const char *(*map)(void *arg, size_t i, const char *name),
		      void *arg, struct prof_err *err)
{
	struct prof_callgrind_profile q = {0};
	size_t *to = NULL, i;
	int rc = -1;

	if (!p->n_fns)
		return 0;
	to = malloc(p->n_fns * sizeof(*to));
	if (!to)
		goto oom;
	for (i = 0; i < p->n_fns; i++) {
		const char *name = map(arg, i, p->fns[i].name);
		long j;

		if (!name)
			name = p->fns[i].name;
		j = fn_index(&q, name, strlen(name), p->fns[i].file);
		if (j < 0)
			goto oom;
		to[i] = (size_t)j;
		if (prof_range_add(&q.fns[j].self, p->fns[i].self,
				   "the self cost of the function", err) < 0)
			goto fail;
	}
	for (i = 0; i < p->n_calls; i++)
		if (add_call(&q, to[p->calls[i].caller], to[p->calls[i].callee],
			     p->calls[i].count, p->calls[i].ir, err) < 0)
			goto fail;
	if (inclusive_costs(&q, err) < 0)
		goto fail;
	q.total = p->total;
	memcpy(q.event, p->event, sizeof(q.event));
	memcpy(q.cmd, p->cmd, sizeof(q.cmd));
	memcpy(q.trigger, p->trigger, sizeof(q.trigger));
	prof_callgrind_profile_free(p);
	*p = q;
	rc = 0;
	goto out;
oom:
	prof_err_set(err, "out of memory");
fail:
	prof_callgrind_profile_free(&q);
out:
	free(to);
	return rc;
}

/* The calls in caller order, for the writer. */
static const struct prof_callgrind_profile *sort_p;

static int
by_caller(const void *a, const void *b)
{
	const struct prof_callgrind_call *x = &sort_p->calls[*(const size_t *)a];
	const struct prof_callgrind_call *y = &sort_p->calls[*(const size_t *)b];

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return (x->callee > y->callee) - (x->callee < y->callee);
}

/* "(id) name" the first time a name is written, "(id)" after. */
static void
put_name(FILE *fp, const char *key, struct prof_htab *seen, long *next,
	 const char *name)
{
	long id = prof_htab_get(seen, name, strlen(name));

	if (id >= 0) {
		fprintf(fp, "%s=(%ld)\n", key, id);
		return;
	}
	id = ++*next;
	prof_htab_put(seen, name, strlen(name), id);
	fprintf(fp, "%s=(%ld) %s\n", key, id, name);
}

int
prof_callgrind_write_functions(const struct prof_callgrind_profile *p,
			       const char *path, struct prof_err *err)
{
	struct prof_afile af = {0};
	struct prof_htab files = {0}, fns = {0};
	size_t *order = NULL, i, k = 0;
	long next_file = 0, next_fn = 0;
	FILE *fp;
	int rc = -1;

	order = malloc((p->n_calls + 1) * sizeof(*order));
	if (!order)
		return prof_err_set(err, "out of memory");
	for (i = 0; i < p->n_calls; i++)
		order[i] = i;
	sort_p = p;
	qsort(order, p->n_calls, sizeof(*order), by_caller);
	fp = prof_afile_open(&af, path, err);
	if (!fp)
		goto out;
	fprintf(fp, "# callgrind format\nversion: 1\n"
		    "creator: prof (functions only)\n");
	if (p->cmd[0])
		fprintf(fp, "cmd: %s\n", p->cmd);
	if (p->trigger[0])
		fprintf(fp, "desc: Trigger: %s\n", p->trigger);
	fprintf(fp, "\npositions: line\nevents: %s\nsummary: %lld\n",
		p->event[0] ? p->event : "Ir", p->total);
	for (i = 0; i < p->n_fns; i++) {
		const struct prof_callgrind_fn *f = &p->fns[i];

		fputc('\n', fp);
		put_name(fp, "fl", &files, &next_file, f->file);
		put_name(fp, "fn", &fns, &next_fn, f->name);
		if (f->self)
			fprintf(fp, "0 %lld\n", f->self);
		for (; k < p->n_calls && p->calls[order[k]].caller == i; k++) {
			const struct prof_callgrind_call *c =
				&p->calls[order[k]];
			const struct prof_callgrind_fn *g = &p->fns[c->callee];

			put_name(fp, "cfi", &files, &next_file, g->file);
			put_name(fp, "cfn", &fns, &next_fn, g->name);
			fprintf(fp, "calls=%lld 0\n0 %lld\n", c->count, c->ir);
		}
	}
	fprintf(fp, "\ntotals: %lld\n", p->total);
	if (ferror(fp)) {
		prof_afile_abort(&af);
		prof_err_file(err, path);
		prof_err_set(err, "cannot write: %s", strerror(errno));
		goto out;
	}
	if (prof_afile_commit(&af, err) < 0)
		goto out;
	rc = 0;
out:
	prof_htab_free(&files);
	prof_htab_free(&fns);
	free(order);
	return rc;
}
