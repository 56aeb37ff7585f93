/* contend.c: the contended rule of contend.h and the fields it reads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "contend.h"
#include "json.h"

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

void
prof_sample_set_cpu(struct json_object *s, double wall_ms, double cpu_ms,
		    long involuntary_switches, long threads, long rule_threads)
{
	if (!(cpu_ms > 0))
		cpu_ms = 0;
	if (involuntary_switches < 0)
		involuntary_switches = 0;
	if (threads < 1)
		threads = 1;
	cpu_ms = round(cpu_ms * 1e6) / 1e6;
	json_object_object_add(s, "cpu_ms", prof_json_double(cpu_ms));
	json_object_object_add(s, "involuntary_switches",
			       json_object_new_int64(involuntary_switches));
	json_object_object_add(s, "threads", json_object_new_int64(threads));
	json_object_object_add(
		s, "contended",
		json_object_new_boolean(prof_sample_contended(
			wall_ms, cpu_ms, involuntary_switches, rule_threads)));
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
	return wall > delay ? wall - delay : 0;
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
		if (a->n == a->cap) {
			size_t cap = a->cap ? a->cap * 2 : 16;
			double *v = realloc(a->v, cap * sizeof(*v));

			if (!v)
				return -1;
			a->v = v;
			a->cap = cap;
		}
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
