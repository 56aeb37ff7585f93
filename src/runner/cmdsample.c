/* cmdsample.c: the sample of one run of a command, its fixture checksum
 * and its outcome, for every mode that runs commands (command, A/B,
 * count). */
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "runner-int.h"

static double
tv_ms(struct timeval tv)
{
	return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec / 1e3;
}

/* A command's fixture checksum: its command line as a JSON array. */
void
command_fixture_sum(char *const *argv, char out[PROF_SUM_HEX])
{
	struct json_object *argj = json_object_new_array();
	long i;

	for (i = 0; argv[i]; i++)
		json_object_array_add(argj, json_object_new_string(argv[i]));
	prof_sum_json(argj, out);
	json_object_put(argj);
}

/*
 * The sample of one run of a command, before its metrics and outcome: the
 * command's id, category, floor and environment (valgrind's version joins
 * it for instruction counts, else NULL).
 */
struct json_object *
command_base_sample(struct opts *o, const char *fixture_sum, long index,
		    const char *valgrind)
{
	struct prof_env_in in = {0};
	struct prof_sample_meta m = {0};

	in.backend_requested = "cpu";
	in.backend = "cpu";
	in.problem_size = o->problem_size ? o->problem_size : "none";
	in.dtype = "none";
	in.tile = "none";
	in.valgrind = valgrind;
	m.workload = o->name;
	m.version = 1;
	m.category = o->cats[0] ? o->cats[0] : "command";
	m.fixture = "command";
	m.fixture_checksum = fixture_sum;
	m.warning_floor_ms = o->warning_floor_ms;
	m.backend = "cpu";
	return prof_sample_new(&m, prof_env_collect(&in), o->phase, "warm",
			       index);
}

/* The timing sample of one run of a command, before its outcome is set. */
struct json_object *
command_sample(struct opts *o, const char *fixture_sum, long index,
	       const struct prof_spawn_result *res)
{
	struct json_object *s = command_base_sample(o, fixture_sum, index, NULL);
	struct json_object *metrics;

	metrics = json_object_new_object();
	json_object_object_add(metrics, "user_ms",
			       prof_json_double(tv_ms(res->ru.ru_utime)));
	json_object_object_add(metrics, "system_ms",
			       prof_json_double(tv_ms(res->ru.ru_stime)));
	json_object_object_add(
		metrics, "max_rss_bytes",
		json_object_new_int64((int64_t)res->ru.ru_maxrss * 1024));
	json_object_object_add(
		metrics, "exit_status",
		json_object_new_int(res->exited ? res->exit_code : -1));
	json_object_object_add(metrics, "stray_processes",
			       json_object_new_int(res->strays));
	json_object_object_add(s, "metrics", metrics);
	return s;
}

/* Why a run of a command failed, or "" when it succeeded. */
void
command_outcome(struct opts *o, const struct prof_spawn_result *res,
		char *why, size_t n)
{
	char last[512];
	size_t off;

	why[0] = '\0';
	if (!res->timed_out && res->exited && res->exit_code == o->expect_exit)
		return;
	if (!res->exited || res->timed_out) {
		prof_spawn_describe(res, o->argv[0], o->timeout_s, why, n);
		return;
	}
	snprintf(why, n, "exited with status %d, expected %lld",
		 res->exit_code, o->expect_exit);
	prof_last_line(res->stderr_tail, last, sizeof(last));
	off = strlen(why);
	if (last[0] && off < n)
		snprintf(why + off, n - off, ": %s", last);
}
