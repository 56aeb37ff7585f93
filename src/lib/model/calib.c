/* calib.c: the calibration kernel, the machine's state and drift. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <json-c/json.h>

#include "base/json.h"
#include "base/stats.h"
#include "model/calib.h"
#include "model/contend.h"

/*
 * The memory-bound loop chases pointers through one cycle over 262,144
 * cache lines (16 MiB, past the last-level cache of most machines), going
 * on from where the last lap stopped, so that every step is a miss. Line
 * i leads to line (a i + c) mod 2^18, a full cycle (Hull-Dobell: c odd,
 * a = 1 mod 4) that no prefetcher follows.
 *
 * The ring is mapped for each point and unmapped after it, in small pages:
 * a child's ru_maxrss starts from its parent's RSS (or, after vfork, its
 * parent's peak), so 16 MiB kept in the runner would show in every
 * command's max_rss_bytes; and huge pages, when the kernel happens to have
 * them, would make the chase faster at some points than at others.
 */
#define LINE_WORDS 16
#define RING_LINES (1u << 18)
#define RING_BYTES ((size_t)RING_LINES * LINE_WORDS * sizeof(unsigned))
#define RING_A 2654435761u
#define RING_C 12345u
#define CHASE_STEPS 10000
#define INT_STEPS 1000000
#define REPS 5

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Sinks the compiler cannot see through. */
static volatile uint64_t int_sink;
static volatile unsigned mem_sink;

static double
int_loop(void)
{
	uint64_t x = 88172645463325252ULL;
	double t0 = now_ms();
	long i;

	for (i = 0; i < INT_STEPS; i++)
		x = (x ^ (x >> 11)) * 6364136223846793005ULL + (uint64_t)i;
	int_sink = x;
	return now_ms() - t0;
}

static double
mem_loop(const unsigned *ring, unsigned *pos)
{
	unsigned p = *pos;
	double t0 = now_ms();
	long i;

	for (i = 0; i < CHASE_STEPS; i++)
		p = ring[p];
	mem_sink = p;
	*pos = p;
	return now_ms() - t0;
}

/*
 * Forget the ring in this process's peak RSS: a child spawned with
 * vfork() starts its ru_maxrss from its parent's high-water mark, so each
 * command prof-time runs would otherwise report 16 MiB more. Writing 5 to
 * clear_refs resets VmHWM to the RSS of now (Linux 4.0); where it cannot,
 * nothing else is lost.
 */
static void
reset_peak(void)
{
	FILE *fp = fopen("/proc/self/clear_refs", "w");

	if (!fp)
		return;
	fputs("5", fp);
	fclose(fp);
}

int
prof_calib_init(struct prof_calib *c, struct prof_err *err)
{
	(void)err;
	memset(c, 0, sizeof(*c));
	c->ready = 1;
	return 0;
}

void
prof_calib_free(struct prof_calib *c)
{
	if (c)
		memset(c, 0, sizeof(*c));
}

struct json_object *
prof_calib_measure(struct prof_calib *c, const char *at)
{
	struct json_object *o;
	double v[2] = {INFINITY, INFINITY};
	unsigned *ring, i;
	int k;

	if (!c->ready)
		return NULL;
	ring = mmap(NULL, RING_BYTES, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ring == MAP_FAILED)
		return NULL;
	madvise(ring, RING_BYTES, MADV_NOHUGEPAGE);
	for (i = 0; i < RING_LINES; i++)
		ring[(size_t)i * LINE_WORDS] =
			((i * RING_A + RING_C) & (RING_LINES - 1)) * LINE_WORDS;
	for (k = 0; k < REPS; k++) {
		double a = int_loop(), b = mem_loop(ring, &c->pos);

		v[0] = a < v[0] ? a : v[0];
		v[1] = b < v[1] ? b : v[1];
	}
	munmap(ring, RING_BYTES);
	reset_peak();
	o = json_object_new_object();
	if (!o)
		return NULL;
	json_object_object_add(o, "record", json_object_new_string("calibration"));
	json_object_object_add(o, "kernel",
			       json_object_new_string(PROF_CALIB_KERNEL));
	json_object_object_add(o, "at", json_object_new_string(at));
	json_object_object_add(o, "int_ms",
			       prof_json_double(round(v[0] * 1e6) / 1e6));
	json_object_object_add(o, "mem_ms",
			       prof_json_double(round(v[1] * 1e6) / 1e6));
	json_object_object_add(o, "ms",
			       prof_json_double(round((v[0] + v[1]) * 1e6) /
						1e6));
	return o;
}

/* The first line of a small file, without its newline; "" if none. */
static int
read_line(const char *path, char *buf, size_t n)
{
	FILE *fp = fopen(path, "r");

	buf[0] = '\0';
	if (!fp)
		return -1;
	if (!fgets(buf, (int)n, fp)) {
		fclose(fp);
		buf[0] = '\0';
		return -1;
	}
	fclose(fp);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The aggregate cpu line of /proc/stat: steal and total jiffies. */
static int
read_stat(unsigned long long *steal, unsigned long long *total)
{
	char line[512];
	unsigned long long v[10] = {0};
	int n;

	if (read_line("/proc/stat", line, sizeof(line)) < 0)
		return -1;
	n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9]);
	if (n < 8)
		return -1;
	/* guest and guest_nice are already counted in user and nice. */
	*steal = v[7];
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	return 0;
}

/* The "some" line of the CPU pressure (PSI). 0 or -1: no PSI here. */
static int
read_psi(double *avg10, unsigned long long *total_us, double *at_ms)
{
	char path[PATH_MAX], line[256];
	struct timespec ts;

	snprintf(path, sizeof(path), "%s/pressure/cpu", prof_proc_root());
	if (read_line(path, line, sizeof(line)) < 0 ||
	    sscanf(line, "some avg10=%lf avg60=%*f avg300=%*f total=%llu",
		   avg10, total_us) != 2 ||
	    !(*avg10 >= 0 && *avg10 <= 100))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*at_ms = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
	return 0;
}

static struct json_object *
psi_point(double avg10, unsigned long long total_us)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "some_avg10", prof_json_double(avg10));
	json_object_object_add(o, "some_total_us",
			       json_object_new_int64((int64_t)total_us));
	return o;
}

/* The record's cpu_pressure: m's start and now; null without PSI. */
static struct json_object *
psi_json(const struct prof_calib_machine *m)
{
	struct json_object *o;
	unsigned long long total;
	double avg10, at, pct;

	if (!m->has_psi || read_psi(&avg10, &total, &at) < 0 ||
	    total < m->psi_total_us)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "start",
			       psi_point(m->psi_avg10, m->psi_total_us));
	json_object_object_add(o, "end", psi_point(avg10, total));
	pct = at > m->psi_at_ms ? (double)(total - m->psi_total_us) / 1e3 /
					  (at - m->psi_at_ms) * 100 :
				  0;
	json_object_object_add(
		o, "some_pct",
		prof_json_double(round((pct < 100 ? pct : 100) * 1e3) / 1e3));
	return o;
}

void
prof_calib_machine_start(struct prof_calib_machine *m)
{
	char line[256];

	memset(m, 0, sizeof(*m));
	if (read_line("/proc/loadavg", line, sizeof(line)) == 0 &&
	    sscanf(line, "%lf %lf %lf", &m->load[0], &m->load[1],
		   &m->load[2]) == 3)
		m->has_load = 1;
	m->has_stat = read_stat(&m->steal, &m->total) == 0;
	m->has_psi = read_psi(&m->psi_avg10, &m->psi_total_us,
			      &m->psi_at_ms) == 0;
}

struct json_object *
prof_calib_machine_json(const struct prof_calib_machine *m)
{
	struct json_object *o = json_object_new_object(), *load = NULL;
	unsigned long long steal, total;
	char line[256];
	int i;

	if (!o)
		return NULL;
	json_object_object_add(o, "record", json_object_new_string("machine"));
	if (m->has_load) {
		load = json_object_new_array();
		for (i = 0; i < 3; i++)
			json_object_array_add(load, prof_json_double(m->load[i]));
	}
	json_object_object_add(o, "load_avg", load);
	if (m->has_stat && read_stat(&steal, &total) == 0 && total > m->total &&
	    steal >= m->steal)
		json_object_object_add(
			o, "steal_pct",
			prof_json_double(round((double)(steal - m->steal) /
					       (double)(total - m->total) *
					       1e8) / 1e6));
	else
		json_object_object_add(o, "steal_pct", NULL);
	if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		      line, sizeof(line)) == 0 && line[0])
		json_object_object_add(o, "governor",
				       json_object_new_string(line));
	else
		json_object_object_add(o, "governor", NULL);
	if (read_line("/proc/sys/kernel/randomize_va_space", line,
		      sizeof(line)) == 0 && line[0] >= '0' && line[0] <= '9')
		json_object_object_add(o, "aslr",
				       json_object_new_int(atoi(line)));
	else
		json_object_object_add(o, "aslr", NULL);
	json_object_object_add(o, "cpu_pressure", psi_json(m));
	return o;
}

int
prof_calib_is_record(struct json_object *o)
{
	const char *r = prof_json_str(o, "record");

	return r && (!strcmp(r, "calibration") || !strcmp(r, "machine"));
}

/*
 * Schema errors of one record: key of o must be a number >= 0 (WANT_NUM),
 * a string (WANT_STR), an array (WANT_ARRAY) or an integer (WANT_INT), or
 * null where nullable. Fills err and returns -1, with the path
 * prefix.key.
 */
enum { WANT_NUM, WANT_STR, WANT_ARRAY, WANT_INT };

static int
want(struct json_object *o, const char *prefix, const char *key, int type,
     int nullable, struct prof_err *err)
{
	static const char *const words[] = {"a number", "a string",
					    "an array", "an integer"};
	static const json_type types[] = {json_type_double, json_type_string,
					  json_type_array, json_type_int};
	struct json_object *v = NULL;
	char path[128];
	int ok;

	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (!json_object_object_get_ex(o, key, &v))
		return prof_err_path(err, path, "missing");
	if (!v && nullable)
		return 0;
	ok = type == WANT_NUM ? prof_json_is_number(v) :
				json_object_is_type(v, types[type]);
	if (!ok)
		return prof_err_path(err, path, "expected %s%s, got %s",
				     words[type], nullable ? " or null" : "",
				     prof_json_type_name(v));
	if (type == WANT_NUM && prof_json_number(v) < 0)
		return prof_err_path(err, path, "expected a number >= 0");
	return 0;
}

/*
 * Plausible bounds, so that no note prints "inf%" or a 300-digit number:
 * the kernel takes a few milliseconds; no machine runs its million integer
 * steps in under a microsecond, and a point of more than a minute is no
 * calibration. A spread is (max - min) / median, a steal a share of time.
 */
#define CALIB_MS_MIN 1e-3
#define CALIB_MS_MAX 6e4
#define CALIB_SPREAD_MAX 1e6

/* A number of o (checked by want(); null passes) within [lo, hi]. */
static int
want_range(struct json_object *o, const char *prefix, const char *key,
	   double lo, double hi, struct prof_err *err)
{
	struct json_object *v = json_object_object_get(o, key);
	char path[128];
	double x;

	if (!v)
		return 0;
	x = prof_json_number(v);
	if (x >= lo && x <= hi)
		return 0;
	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (hi == CALIB_MS_MAX)
		return prof_err_path(err, path,
				     "%g ms is not a plausible time of the "
				     "calibration kernel (expected from %g to "
				     "%g ms)",
				     x, lo, hi);
	return prof_err_path(err, path,
			     "%g%% is not a plausible %s (expected from %g to "
			     "%g%%)",
			     x, !strcmp(key, "steal_pct") ? "steal" : "spread",
			     lo, hi);
}

/* A kernel time: a number within the bounds above. */
static int
want_ms(struct json_object *o, const char *prefix, const char *key,
	struct prof_err *err)
{
	return want(o, prefix, key, WANT_NUM, 0, err) ||
		       want_range(o, prefix, key, CALIB_MS_MIN, CALIB_MS_MAX,
				  err) ?
		       -1 :
		       0;
}

static int
check_point(struct json_object *o, const char *prefix, struct prof_err *err)
{
	if (!json_object_is_type(o, json_type_object))
		return prof_err_path(err, prefix[0] ? prefix : ".",
				     "expected an object, got %s",
				     prof_json_type_name(o));
	return want(o, prefix, "at", WANT_STR, 0, err) ||
			       want_ms(o, prefix, "int_ms", err) ||
			       want_ms(o, prefix, "mem_ms", err) ||
			       want_ms(o, prefix, "ms", err) ?
		       -1 :
		       0;
}

/* A share in % at prefix.key: from 0 to 100. */
static int
want_pct(struct json_object *o, const char *prefix, const char *key,
	 struct prof_err *err)
{
	struct json_object *v = json_object_object_get(o, key);
	char path[160];

	if (want(o, prefix, key, WANT_NUM, 0, err))
		return -1;
	if (prof_json_number(v) <= 100)
		return 0;
	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	return prof_err_path(err, path, "%g%% is above 100%%",
			     prof_json_number(v));
}

/* A machine record's cpu_pressure (calib.h), not null, at path. */
static int
check_psi(struct json_object *o, const char *path, struct prof_err *err)
{
	static const char *const at[] = {"start", "end"};
	struct json_object *p = NULL, *t = NULL;
	char sub[160];
	size_t i;

	if (!json_object_is_type(o, json_type_object))
		return prof_err_path(err, path,
				     "expected an object or null, got %s",
				     prof_json_type_name(o));
	for (i = 0; i < 2; i++) {
		snprintf(sub, sizeof(sub), "%s.%s", path, at[i]);
		if (!json_object_object_get_ex(o, at[i], &p))
			return prof_err_path(err, sub, "missing");
		if (!json_object_is_type(p, json_type_object))
			return prof_err_path(err, sub,
					     "expected an object, got %s",
					     prof_json_type_name(p));
		if (want_pct(p, sub, "some_avg10", err))
			return -1;
		json_object_object_get_ex(p, "some_total_us", &t);
		if (!json_object_is_type(t, json_type_int) ||
		    json_object_get_int64(t) < 0) {
			snprintf(sub, sizeof(sub), "%s.%s.some_total_us", path,
				 at[i]);
			return prof_err_path(err, sub,
					     "expected an integer >= 0");
		}
	}
	return want_pct(o, path, "some_pct", err);
}

static int
check_machine(struct json_object *o, const char *prefix, struct prof_err *err)
{
	struct json_object *v = NULL;
	char path[128];
	size_t i;

	if (!json_object_is_type(o, json_type_object))
		return prof_err_path(err, prefix[0] ? prefix : ".",
				     "expected an object, got %s",
				     prof_json_type_name(o));
	if (want(o, prefix, "load_avg", WANT_ARRAY, 1, err))
		return -1;
	v = json_object_object_get(o, "load_avg");
	snprintf(path, sizeof(path), "%s.load_avg", prefix);
	for (i = 0; v && i < json_object_array_length(v); i++)
		if (!prof_json_is_number(json_object_array_get_idx(v, i)))
			return prof_err_path(err, path,
					     "expected numbers, got %s",
					     prof_json_type_name(
						     json_object_array_get_idx(
							     v, i)));
	if (want(o, prefix, "steal_pct", WANT_NUM, 1, err) ||
	    want_range(o, prefix, "steal_pct", 0, 100, err) ||
	    want(o, prefix, "governor", WANT_STR, 1, err) ||
	    want(o, prefix, "aslr", WANT_INT, 1, err))
		return -1;
	snprintf(path, sizeof(path), "%s.cpu_pressure", prefix);
	if (json_object_object_get_ex(o, "cpu_pressure", &v) && v)
		return check_psi(v, path, err);
	return 0;
}

int
prof_calib_take(struct json_object *acc, struct json_object *rec,
		struct prof_err *err)
{
	const char *r = prof_json_str(rec, "record");
	int rc;

	if (r && !strcmp(r, "calibration"))
		rc = want(rec, "", "kernel", WANT_STR, 0, err) ||
		     check_point(rec, "", err);
	else
		rc = check_machine(rec, "", err);
	if (rc)
		return -1;
	json_object_array_add(acc, json_object_get(rec));
	return 0;
}

struct json_object *
prof_calib_summary(struct json_object *acc)
{
	size_t i, n = acc ? json_object_array_length(acc) : 0, k = 0;
	struct json_object *o = NULL, *points, *machine = NULL;
	const char *kernel = NULL;
	double *ms = calloc(n ? n : 1, sizeof(*ms)), steal = -1, med;

	if (!ms)
		return NULL;
	points = json_object_new_array();
	for (i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(acc, i), *p, *v;

		if (!strcmp(prof_json_str(r, "record"), "machine")) {
			v = json_object_object_get(r, "steal_pct");
			if (v && prof_json_number(v) > steal)
				steal = prof_json_number(v);
			if (!machine) {
				machine = json_object_new_object();
				json_object_object_foreach(r, key, val)
				{
					if (strcmp(key, "record"))
						json_object_object_add(
							machine, key,
							json_object_get(val));
				}
			}
			continue;
		}
		/* One kernel per run: points of another are not summed in. */
		if (!kernel)
			kernel = prof_json_str(r, "kernel");
		if (strcmp(kernel, prof_json_str(r, "kernel")))
			continue;
		p = json_object_new_object();
		json_object_object_foreach(r, key, val)
		{
			if (strcmp(key, "record") && strcmp(key, "kernel"))
				json_object_object_add(p, key,
						       json_object_get(val));
		}
		json_object_array_add(points, p);
		ms[k++] = prof_json_number(json_object_object_get(r, "ms"));
	}
	if (!k) {
		json_object_put(points);
		json_object_put(machine);
		free(ms);
		return NULL;
	}
	if (machine && steal >= 0)
		json_object_object_add(machine, "steal_pct",
				       prof_json_double(steal));
	qsort(ms, k, sizeof(*ms), prof_cmp_double);
	med = k % 2 ? ms[k / 2] : (ms[k / 2 - 1] + ms[k / 2]) / 2;
	o = json_object_new_object();
	json_object_object_add(o, "kernel", json_object_new_string(kernel));
	json_object_object_add(o, "points", points);
	json_object_object_add(o, "n", json_object_new_int64((int64_t)k));
	json_object_object_add(o, "min_ms", prof_json_double(ms[0]));
	json_object_object_add(o, "median_ms",
			       prof_json_double(round(med * 1e6) / 1e6));
	json_object_object_add(o, "max_ms", prof_json_double(ms[k - 1]));
	json_object_object_add(
		o, "spread_pct",
		prof_json_double(med > 0 ? round((ms[k - 1] - ms[0]) / med *
						 1e8) / 1e6 :
					   0));
	json_object_object_add(o, "machine", machine);
	free(ms);
	return o;
}

/* One calibration object (null is fine) at path. */
static int
check_calibration(struct json_object *c, const char *path,
		  struct prof_err *err)
{
	static const char *const nums[] = {"min_ms", "median_ms", "max_ms",
					   "spread_pct", NULL};
	struct json_object *pts = NULL, *m = NULL;
	char prefix[160];
	size_t i;

	if (!c)
		return 0;
	if (!json_object_is_type(c, json_type_object))
		return prof_err_path(err, path,
				     "expected an object or null, got %s",
				     prof_json_type_name(c));
	if (want(c, path, "kernel", WANT_STR, 0, err))
		return -1;
	for (i = 0; nums[i]; i++)
		if (strcmp(nums[i], "spread_pct") ?
			    want_ms(c, path, nums[i], err) :
			    want(c, path, nums[i], WANT_NUM, 0, err) ||
				    want_range(c, path, nums[i], 0,
					       CALIB_SPREAD_MAX, err))
			return -1;
	snprintf(prefix, sizeof(prefix), "%s.points", path);
	if (!json_object_object_get_ex(c, "points", &pts) ||
	    !json_object_is_type(pts, json_type_array))
		return prof_err_path(err, prefix, "expected an array, got %s",
				     prof_json_type_name(pts));
	for (i = 0; i < json_object_array_length(pts); i++) {
		snprintf(prefix, sizeof(prefix), "%s.points[%zu]", path, i);
		if (check_point(json_object_array_get_idx(pts, i), prefix, err))
			return -1;
	}
	snprintf(prefix, sizeof(prefix), "%s.machine", path);
	if (json_object_object_get_ex(c, "machine", &m) && m &&
	    check_machine(m, prefix, err))
		return -1;
	return 0;
}

int
prof_calib_check_map(struct json_object *results, const char *key,
		     struct prof_err *err)
{
	struct json_object *map = NULL;
	char path[128];

	if (!json_object_object_get_ex(results, key, &map) || !map)
		return 0;
	snprintf(path, sizeof(path), ".%s", key);
	if (!json_object_is_type(map, json_type_object))
		return prof_err_path(err, path,
				     "expected an object or null, got %s",
				     prof_json_type_name(map));
	json_object_object_foreach(map, name, c)
	{
		snprintf(path, sizeof(path), ".%s.%.64s", key, name);
		if (check_calibration(c, path, err) < 0)
			return -1;
	}
	return 0;
}

int
prof_calib_check(struct json_object *results, struct prof_err *err)
{
	struct json_object *c = NULL;

	json_object_object_get_ex(results, "calibration", &c);
	if (check_calibration(c, ".calibration", err) < 0)
		return -1;
	return prof_calib_check_map(results, "shard_calibrations", err);
}

/*
 * The baseline's kernel and median: its calibration's, or for a merge of
 * shards (each on its own machine) the median of its shards' medians.
 * Returns 0 when it has none.
 */
static int
base_reference(struct json_object *baseline, const char **kernel,
	       double *median)
{
	struct json_object *b = NULL, *shards = NULL;
	double ms[256];
	size_t n = 0;

	if (json_object_object_get_ex(baseline, "calibration", &b) && b) {
		*kernel = prof_json_str(b, "kernel");
		*median = prof_json_number(json_object_object_get(b,
								  "median_ms"));
		return *kernel && *median > 0;
	}
	if (!json_object_object_get_ex(baseline, "shard_calibrations",
				       &shards) ||
	    !json_object_is_type(shards, json_type_object))
		return 0;
	*kernel = NULL;
	json_object_object_foreach(shards, shard, sc)
	{
		(void)shard;
		if (!sc || n == sizeof(ms) / sizeof(ms[0]))
			continue;
		if (!*kernel)
			*kernel = prof_json_str(sc, "kernel");
		if (*kernel && !strcmp(*kernel, prof_json_str(sc, "kernel")))
			ms[n++] = prof_json_number(
				json_object_object_get(sc, "median_ms"));
	}
	if (!n)
		return 0;
	qsort(ms, n, sizeof(*ms), prof_cmp_double);
	*median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
	return *median > 0;
}

/* The drift of one calibration c against the baseline's reference; the
 * note starts with lead ("" or "shard 2/4: "). */
static void
drift_of(struct json_object *c, struct json_object *baseline,
	 const char *lead, struct prof_calib_drift *d)
{
	const char *kernel = NULL;
	double median = 0, pct;
	size_t off = 0;

	memset(d, 0, sizeof(*d));
	d->ratio = d->spread_pct = NAN;
	d->spread_pct = prof_json_number(json_object_object_get(c,
								"spread_pct"));
	if (baseline && base_reference(baseline, &kernel, &median) &&
	    !strcmp(prof_json_str(c, "kernel"), kernel))
		d->ratio = prof_json_number(
				   json_object_object_get(c, "median_ms")) /
			   median;
	off = (size_t)snprintf(d->note, sizeof(d->note), "%s", lead);
	if (isfinite(d->ratio) && fabs(d->ratio - 1) > PROF_CALIB_DRIFT) {
		pct = fabs(d->ratio - 1) * 100;
		off += (size_t)snprintf(d->note + off, sizeof(d->note) - off,
					"machine %.0f%% %s than when the "
					"baseline was taken",
					pct,
					d->ratio > 1 ? "slower" : "faster");
		d->drift = 1;
	}
	if (d->spread_pct > PROF_CALIB_DRIFT * 100 &&
	    off < sizeof(d->note)) {
		off += (size_t)snprintf(d->note + off, sizeof(d->note) - off,
					"%smachine unsteady during this run "
					"(calibration spread %.0f%%)",
					d->drift ? " and " : "",
					d->spread_pct);
		d->drift = 1;
	}
	if (d->drift && off < sizeof(d->note))
		snprintf(d->note + off, sizeof(d->note) - off,
			 ": timing warnings may be noise; instruction counts "
			 "and `make compare` are not affected");
}

/* Whether results and baseline are one run (the reference side of an
 * interleaved A/B run saw the same machine at the same moments). */
static int
same_run(struct json_object *results, struct json_object *baseline)
{
	const char *rid = prof_json_str(results, "run_id");
	const char *bid = prof_json_str(baseline, "run_id");

	return rid && bid && !strcmp(rid, bid);
}

void
prof_calib_drift(struct json_object *results, struct json_object *baseline,
		 struct prof_calib_drift *d)
{
	struct json_object *c = NULL;

	memset(d, 0, sizeof(*d));
	d->ratio = d->spread_pct = NAN;
	if (!json_object_object_get_ex(results, "calibration", &c) || !c ||
	    same_run(results, baseline))
		return;
	drift_of(c, baseline, "", d);
}

struct json_object *
prof_calib_drift_shards(struct json_object *results,
			struct json_object *baseline)
{
	struct json_object *shards = NULL, *notes;
	struct prof_calib_drift d;
	char lead[96];

	notes = json_object_new_object();
	if (!notes ||
	    !json_object_object_get_ex(results, "shard_calibrations",
				       &shards) ||
	    !json_object_is_type(shards, json_type_object) ||
	    same_run(results, baseline))
		return notes;
	json_object_object_foreach(shards, shard, sc)
	{
		if (!sc)
			continue;
		snprintf(lead, sizeof(lead), "shard %.64s: ", shard);
		drift_of(sc, baseline, lead, &d);
		if (d.drift)
			json_object_object_add(notes, shard,
					       json_object_new_string(d.note));
	}
	return notes;
}

/*
 * Whether the drift guard called the machine unsteady during the run
 * (its calibration's spread, or a shard's, above PROF_CALIB_DRIFT): the
 * words into buf when it did.
 */
int
prof_calib_unsteady(struct json_object *meta, char *buf, size_t n)
{
	struct json_object *shards = NULL;
	struct prof_calib_drift d;

	prof_calib_drift(meta, NULL, &d);
	if (d.spread_pct > PROF_CALIB_DRIFT * 100) {
		snprintf(buf, n, "the machine was unsteady during this run "
				 "(calibration spread %.0f%%, above %.0f%%)",
			 d.spread_pct, PROF_CALIB_DRIFT * 100);
		return 1;
	}
	if (!json_object_object_get_ex(meta, "shard_calibrations", &shards) ||
	    !json_object_is_type(shards, json_type_object))
		return 0;
	json_object_object_foreach(shards, shard, sc)
	{
		double sp = prof_json_number(json_object_object_get(
			sc, "spread_pct"));

		if (sc && sp > PROF_CALIB_DRIFT * 100) {
			snprintf(buf, n, "the machine of shard %.64s was "
					 "unsteady during this run "
					 "(calibration spread %.0f%%, above "
					 "%.0f%%)",
				 shard, sp, PROF_CALIB_DRIFT * 100);
			return 1;
		}
	}
	return 0;
}
