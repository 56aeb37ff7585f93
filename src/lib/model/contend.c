/* contend.c: the contended rule of contend.h, the fields it reads, and
 * the kernel's run-queue delay it is measured by. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/grow.h"
#include "base/json.h"
#include "model/contend.h"

int
prof_sample_contended(double wall_ms, double cpu_ms, long involuntary_switches,
		      long threads)
{
	if (!isfinite(wall_ms) || !isfinite(cpu_ms) || wall_ms < 0 ||
	    cpu_ms < 0 || involuntary_switches < 0 || threads < 0)
		return 0;
	if (threads == 0)
		return involuntary_switches > 0;
	return wall_ms > cpu_ms * PROF_CONTEND_RATIO + PROF_CONTEND_SLACK_MS;
}

/*
 * How far a call is past the rule's bound (> 0: contended), and how far
 * values written to the nanosecond may put it on the wrong side (*tol).
 * wall and cpu are the whole loop's (iters calls); delay < 0 or NAN is
 * unknown, cpu NAN too; threads 0 is a GPU call.
 */
static double
rule_margin(double wall, double cpu, long switches, long threads,
	    double delay, int partial, double iters, double *tol)
{
	double q = -INFINITY, f = -INFINITY;
	int known = isfinite(delay) && delay >= 0;

	/* Each value is rounded to 1e-6 ms (and printed to 15 digits)
	 * before it is read back; the loop's sums multiply that. */
	*tol = 2e-6 * (1 + PROF_CONTEND_RATIO) * iters + 1e-12 * fabs(wall);
	if (known) {
		q = delay - (wall * PROF_DELAY_SHARE + PROF_DELAY_SLACK_MS);
		if (!partial)
			return q;
	}
	if (threads == 0)
		f = switches > 0 ? 1 : -1;
	else if (isfinite(cpu) && cpu >= 0)
		f = wall - (cpu * PROF_CONTEND_RATIO + PROF_CONTEND_SLACK_MS);
	return q > f ? q : f;
}

void
prof_sample_set_cpu(struct json_object *s, double wall_ms, double cpu_ms,
		    long involuntary_switches, long threads,
		    double run_delay_ms, int partial)
{
	int gpu = 0, known;
	double tol, m;
	struct json_object *b = NULL;

	if (!(cpu_ms > 0))
		cpu_ms = 0;
	if (involuntary_switches < 0)
		involuntary_switches = 0;
	if (threads < 1)
		threads = 1;
	if (json_object_object_get_ex(s, "backend", &b) &&
	    json_object_is_type(b, json_type_string))
		gpu = !strcmp(json_object_get_string(b), "gpu");
	cpu_ms = round(cpu_ms * 1e6) / 1e6;
	known = isfinite(run_delay_ms) && run_delay_ms >= 0;
	if (known) {
		if (run_delay_ms > (double)threads * wall_ms)
			run_delay_ms = (double)threads * wall_ms;
		run_delay_ms = round(run_delay_ms * 1e6) / 1e6;
	}
	json_object_object_add(s, "cpu_ms", prof_json_double(cpu_ms));
	json_object_object_add(s, "involuntary_switches",
			       json_object_new_int64(involuntary_switches));
	json_object_object_add(s, "threads", json_object_new_int64(threads));
	if (known) {
		json_object_object_add(s, "run_delay_ms",
				       prof_json_double(run_delay_ms));
		if (partial)
			json_object_object_add(
				s, "run_delay",
				json_object_new_string("partial"));
	} else {
		json_object_object_add(s, "run_delay",
				       json_object_new_string("unavailable"));
	}
	m = rule_margin(wall_ms, cpu_ms, involuntary_switches,
			gpu ? 0 : threads, known ? run_delay_ms : NAN,
			partial, 1, &tol);
	json_object_object_add(s, "contended", json_object_new_boolean(m > 0));
}

/* key of s, or else of group (NULL: none). */
static struct json_object *
field_of(struct json_object *s, struct json_object *group, const char *key)
{
	struct json_object *v = NULL;

	if (json_object_object_get_ex(s, key, &v))
		return v;
	if (group && json_object_object_get_ex(group, key, &v))
		return v;
	return NULL;
}

int
prof_sample_rule(struct json_object *s, struct json_object *group,
		 double *margin, double *tol)
{
	struct json_object *d = field_of(s, NULL, "duration_ms");
	struct json_object *c = field_of(s, NULL, "cpu_ms");
	struct json_object *sw = field_of(s, NULL, "involuntary_switches");
	struct json_object *th = field_of(s, group, "threads");
	struct json_object *b = field_of(s, group, "backend");
	struct json_object *it = field_of(s, NULL, "iterations");
	struct json_object *rd = field_of(s, NULL, "run_delay");
	double iters = 1, wall, cpu = NAN, delay = NAN, m, t;
	long threads = 1, switches = 0;
	int partial = 0;

	if (!prof_json_is_number(d))
		return -1;
	if (json_object_is_type(it, json_type_int) &&
	    json_object_get_int64(it) >= 1)
		iters = (double)json_object_get_int64(it);
	wall = prof_json_number(d) * iters;
	if (prof_json_is_number(c))
		cpu = prof_json_number(c) * iters;
	if (prof_sample_run_delay(s, &delay))
		partial = json_object_is_type(rd, json_type_string) &&
			  !strcmp(json_object_get_string(rd), "partial");
	else
		delay = NAN;
	if (isnan(cpu) && isnan(delay))
		return -1;
	if (json_object_is_type(sw, json_type_int))
		switches = (long)json_object_get_int64(sw);
	if (json_object_is_type(th, json_type_int))
		threads = (long)json_object_get_int64(th);
	if (json_object_is_type(b, json_type_string) &&
	    !strcmp(json_object_get_string(b), "gpu"))
		threads = 0;
	m = rule_margin(wall, cpu, switches, threads, delay, partial, iters,
			&t);
	if (margin)
		*margin = m;
	if (tol)
		*tol = t;
	return m > 0;
}

int
prof_sample_run_delay(struct json_object *s, double *ms)
{
	struct json_object *v = NULL;
	double d;

	if (!s || !json_object_object_get_ex(s, "run_delay_ms", &v) ||
	    !prof_json_is_number(v))
		return 0;
	d = prof_json_number(v);
	if (!isfinite(d) || d < 0)
		return 0;
	if (ms)
		*ms = d;
	return 1;
}

double
prof_sample_own_ms(struct json_object *s)
{
	struct json_object *v = NULL;
	double wall, delay;

	if (!s || !json_object_object_get_ex(s, "duration_ms", &v) ||
	    !prof_json_is_number(v))
		return NAN;
	wall = prof_json_number(v);
	if (!prof_sample_run_delay(s, &delay))
		return wall;
	/* Threads queued side by side (a client and its server both
	 * runnable) wait longer together than the call took: what is left
	 * of the wall time is no thread's own, so the call has none. */
	return delay < wall ? wall - delay : NAN;
}

/* 1 when sample s says contended: true; 0 when it says false or nothing. */
static int
is_contended(struct json_object *s)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(s, "contended", &v) &&
	       json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

enum prof_contention
prof_sample_contention(struct json_object *s)
{
	struct json_object *v = NULL;

	if (!is_contended(s))
		return PROF_CONTEND_NONE;
	/* Contended with its delay known whole: the delay made it so. */
	if (prof_sample_run_delay(s, NULL) &&
	    !(json_object_object_get_ex(s, "run_delay", &v) &&
	      json_object_is_type(v, json_type_string) &&
	      !strcmp(json_object_get_string(v), "partial")))
		return PROF_CONTEND_QUEUED;
	if (json_object_object_get_ex(s, "involuntary_switches", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) == 0)
		return PROF_CONTEND_WAITED;
	return PROF_CONTEND_QUEUED;
}

int
prof_cpu_row_take(struct prof_cpu_row *a, struct json_object *s)
{
	struct json_object *cpu = NULL, *th = NULL;

	json_object_object_get_ex(s, "cpu_ms", &cpu);
	json_object_object_get_ex(s, "threads", &th);
	if (prof_json_is_number(cpu)) {
		if (PROF_GROW(a->v, a->n + 1, a->cap) < 0)
			return -1;
		a->v[a->n++] = prof_json_number(cpu);
	}
	if (is_contended(s))
		a->contended++;
	if (json_object_is_type(th, json_type_int) &&
	    json_object_get_int64(th) > a->threads)
		a->threads = (long)json_object_get_int64(th);
	return 0;
}

int
prof_cpu_row_stats(const struct prof_cpu_row *a, struct prof_stats *st)
{
	return prof_stats_compute(a->v, a->n, st);
}

void
prof_cpu_row_contended(const struct prof_cpu_row *a, size_t n, char *buf,
		       size_t size)
{
	if (!a || !a->n)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%zu/%zu", a->contended, n);
}

void
prof_cpu_row_free(struct prof_cpu_row *a)
{
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

const char *
prof_proc_root(void)
{
	const char *r = getenv("PROF_PROC_ROOT");

	return r && r[0] ? r : "/proc";
}

/* "RUN DELAY SLICES" into t; -1 when it is not that, or counts no
 * slice (a kernel that keeps no count prints zeros). */
static int
parse_sched(const char *buf, struct prof_sched *t)
{
	unsigned long long run, delay, slices;

	if (sscanf(buf, "%llu %llu %llu", &run, &delay, &slices) != 3 ||
	    slices == 0)
		return -1;
	t->run_ns = run;
	t->delay_ns = delay;
	t->cpu_ns = run;
	return 0;
}

int
prof_sched_open_self(void)
{
	char path[PATH_MAX];
	struct prof_sched t;
	int fd;

	snprintf(path, sizeof(path), "%s/self/task/%ld/schedstat",
		 prof_proc_root(), (long)syscall(SYS_gettid));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (prof_sched_read(fd, &t) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int
prof_sched_read(int fd, struct prof_sched *t)
{
	char buf[128];
	ssize_t n;

	do
		n = pread(fd, buf, sizeof(buf) - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return parse_sched(buf, t);
}

/* One schedstat file into t. 0 or -1. */
static int
read_sched_file(const char *path, struct prof_sched *t)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = prof_sched_read(fd, t);
	close(fd);
	return rc;
}

/*
 * The CPU clock of thread tid of this process into *ns, current even
 * while it runs (schedstat's run time lags by the slice it is in): the
 * clock id glibc's pthread_getcpuclockid() makes, for any tid of the
 * thread group. *ns left as it is when the kernel refuses it.
 */
static void
thread_cpu(long tid, unsigned long long *ns)
{
	clockid_t id = (clockid_t)((~(unsigned)tid << 3) | 6);
	struct timespec ts;

	if (clock_gettime(id, &ts) == 0)
		*ns = (unsigned long long)ts.tv_sec * 1000000000ULL +
		      (unsigned long long)ts.tv_nsec;
}

long
prof_sched_tasks(long pid, struct prof_sched *t, size_t n, int *more)
{
	char dir[PATH_MAX], path[PATH_MAX + 300], who[32];
	struct dirent *e;
	DIR *d;
	long got = 0;

	if (more)
		*more = 0;
	if (pid > 0)
		snprintf(who, sizeof(who), "%ld", pid);
	else
		snprintf(who, sizeof(who), "self");
	snprintf(dir, sizeof(dir), "%s/%s/task", prof_proc_root(), who);
	d = opendir(dir);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);

		if (e->d_name[0] < '0' || e->d_name[0] > '9' || *end)
			continue;
		if ((size_t)got == n) {
			if (more)
				*more = 1;
			break;
		}
		snprintf(path, sizeof(path), "%s/%s/schedstat", dir, e->d_name);
		if (read_sched_file(path, &t[got]) < 0)
			continue;	/* ended since the listing */
		if (pid <= 0)
			thread_cpu(tid, &t[got].cpu_ns);
		t[got++].tid = tid;
	}
	closedir(d);
	/* A zombie lists no task on some kernels: its own file then. */
	if (!got && n && pid > 0) {
		snprintf(path, sizeof(path), "%s/%s/schedstat",
			 prof_proc_root(), who);
		if (read_sched_file(path, &t[0]) == 0) {
			t[0].tid = pid;
			got = 1;
		}
	}
	return got ? got : -1;
}

int
prof_delay_partial(double cpu_ms, double seen_ms)
{
	return isfinite(cpu_ms) && isfinite(seen_ms) &&
	       cpu_ms - seen_ms >
		       cpu_ms * PROF_DELAY_COVER_RATIO + PROF_DELAY_COVER_MS;
}

double
prof_sched_delay(const struct prof_sched *a, size_t na,
		 const struct prof_sched *b, size_t nb, double wall_ms,
		 double cpu_ms, int *partial)
{
	double sum = 0, seen = 0;
	size_t i, j;

	for (j = 0; j < nb; j++) {
		unsigned long long before = 0, cpu_before = 0;
		double ms;

		for (i = 0; i < na; i++)
			if (a[i].tid == b[j].tid) {
				before = a[i].delay_ns;
				cpu_before = a[i].cpu_ns;
				break;
			}
		ms = b[j].delay_ns > before ?
			     (double)(b[j].delay_ns - before) / 1e6 :
			     0;
		sum += ms < wall_ms ? ms : wall_ms;
		if (b[j].cpu_ns > cpu_before)
			seen += (double)(b[j].cpu_ns - cpu_before) / 1e6;
	}
	if (partial && prof_delay_partial(cpu_ms, seen))
		*partial = 1;
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb && b[j].tid != a[i].tid; j++)
			;
		if (j == nb && partial)
			*partial = 1;
	}
	return sum;
}
