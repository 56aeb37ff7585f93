/* lib-contended.c: the contended rule of contend.h on hand-made calls, the
 * fields a sample writer adds, and what the sample reader accepts. */
#include <math.h>
#include <string.h>

#include "base/env.h"
#include "base/json.h"
#include "model/contend.h"
#include "model/sample.h"
#include "tap.h"

static struct json_object *
timing_sample(double wall_ms)
{
	struct prof_sample_meta m = {
		.workload = "w.one", .version = 1, .category = "test",
		.fixture = "f", .warning_floor_ms = 1, .backend = "cpu",
	};
	struct prof_env_in in = {.backend = "cpu"};
	struct json_object *s = prof_sample_new(&m, prof_env_collect(&in),
						"timing", "warm", 0);

	prof_sample_succeed(s, wall_ms, NULL, NULL);
	return s;
}

/* The check's error for a sample with key set to the JSON text value
 * (NULL: removed), its contended mark left out, or "(valid)". */
static const char *
check_with(double wall_ms, const char *key, const char *value)
{
	static char buf[1024];
	struct json_object *s = timing_sample(wall_ms);
	struct prof_err e = {0};

	prof_sample_set_cpu(s, wall_ms, wall_ms / 2, 0, 1, 0, 0);
	/* The mark is checked against the times by tests of its own. */
	json_object_object_del(s, "contended");
	if (value)
		json_object_object_add(s, key, json_tokener_parse(value));
	else
		json_object_object_del(s, key);
	if (prof_sample_check(s, ".samples[3]", &e) == 0)
		snprintf(buf, sizeof(buf), "(valid)");
	else
		prof_err_str(&e, buf, sizeof(buf));
	json_object_put(s);
	return buf;
}

int
main(void)
{
	struct json_object *s;
	struct prof_err e = {0};

	plan(47);

	/* One thread: the wall time against the CPU time. */
	is_int(prof_sample_contended(2.80, 2.79, 0, 1), 0,
	       "a call that had its core is not contended");
	is_int(prof_sample_contended(7.00, 2.80, 3, 1), 1,
	       "the two-cluster call that shared a core is (7 ms in 2.8)");
	is_int(prof_sample_contended(5.07, 0.01, 0, 1), 1,
	       "a call that slept 5 ms is, with no switch at all");
	is_int(prof_sample_contended(1.008, 1.0084, 1, 1), 0,
	       "a switch that cost nothing is not");
	is_int(prof_sample_contended(1.0 * 1.05 + 0.1, 1.0, 0, 1), 0,
	       "at the bound (cpu x 1.05 + 0.1 ms) a call is not contended");
	is_int(prof_sample_contended(1.0 * 1.05 + 0.1 + 1e-6, 1.0, 0, 1), 1,
	       "a nanosecond above it, it is");
	is_int(prof_sample_contended(0.09, 0.0, 0, 1), 0,
	       "a call under the 0.1 ms slack is never contended");
	is_int(prof_sample_contended(27.0, 26.0, 0, 1), 0,
	       "4% off the core on a long call is not");
	is_int(prof_sample_contended(27.0, 25.0, 0, 1), 1,
	       "8% off the core is");

	/* Threads: CPU above wall is parallelism; switches are not read. */
	is_int(prof_sample_contended(2.0, 4.0, 0, 2), 0,
	       "two threads at once: CPU twice the wall is not contended");
	is_int(prof_sample_contended(6.62, 6.62, 3, 2), 0,
	       "threads that hand work to each other switch, uncontended");
	is_int(prof_sample_contended(15.2, 7.9, 2, 2), 1,
	       "threads that together ran half the wall time waited");
	is_int(prof_sample_contended(52.4, 0.98, 1, 2), 1,
	       "a command that slept (sleep 0.05) is contended");
	is_int(prof_sample_contended(10.0, 0.5, 0, 0), 0,
	       "a GPU call that waited for the device is not, unswitched");
	is_int(prof_sample_contended(10.0, 9.9, 1, 0), 1,
	       "a GPU call that was switched out is");

	/* Unknown values are never contended. */
	is_int(prof_sample_contended(NAN, 1.0, 0, 1) +
		       prof_sample_contended(5.0, -1.0, 0, 1) +
		       prof_sample_contended(5.0, INFINITY, 0, 1) +
		       prof_sample_contended(5.0, 1.0, -1, 0),
	       0, "values that are not finite or negative say nothing");

	/* The writer: the four fields, the rule applied. */
	s = timing_sample(7.0);
	prof_sample_set_cpu(s, 7.0, 2.8000004, 3, 1, NAN, 0);
	is_num(prof_sample_num(s, "cpu_ms"), 2.8, 1e-12,
	       "cpu_ms is rounded to the nanosecond");
	is_int(json_object_get_int64(json_object_object_get(
		       s, "involuntary_switches")),
	       3, "involuntary_switches is kept");
	is_int(json_object_get_int64(json_object_object_get(s, "threads")), 1,
	       "threads is kept");
	is_int(prof_sample_contention(s), PROF_CONTEND_QUEUED,
	       "the sample is marked contended, queued (3 involuntary "
	       "switches)");
	json_object_object_add(s, "involuntary_switches",
			       json_object_new_int64(0));
	is_int(prof_sample_contention(s), PROF_CONTEND_WAITED,
	       "contended with no involuntary switch: it waited");
	json_object_object_del(s, "contended");
	is_int(prof_sample_contention(s), PROF_CONTEND_NONE,
	       "a sample without the mark (an older file) is not contended");
	json_object_put(s);

	/* The run-queue delay and the code's own time (the shared
	 * contract of contend.h). */
	{
		double d = -1;

		s = timing_sample(50.0);
		is_int(prof_sample_run_delay(s, &d), 0,
		       "a sample without run_delay_ms says no delay");
		is_num(prof_sample_own_ms(s), 50.0, 1e-12,
		       "its own time is its wall time");
		json_object_object_add(s, "run_delay_ms",
				       prof_json_double(19.5));
		is_int(prof_sample_run_delay(s, &d) == 1 && d == 19.5, 1,
		       "run_delay_ms 19.5 is said, in ms");
		is_num(prof_sample_own_ms(s), 30.5, 1e-12,
		       "own time is duration_ms - run_delay_ms");
		json_object_object_add(s, "run_delay_ms",
				       prof_json_double(80.0));
		is_int(isnan(prof_sample_own_ms(s)), 1,
		       "a delay above the wall time (threads queued side by "
		       "side) leaves no own time (NAN), never 0");
		json_object_object_add(s, "run_delay_ms",
				       prof_json_double(50.0));
		is_int(isnan(prof_sample_own_ms(s)), 1,
		       "a delay of the whole wall time: none either");
		json_object_object_del(s, "run_delay_ms");
		json_object_object_add(s, "run_delay",
				       json_object_new_string("unavailable"));
		is_int(prof_sample_run_delay(s, NULL), 0,
		       "run_delay unavailable: no delay");
		json_object_object_add(s, "run_delay_ms",
				       json_object_new_string("3"));
		is_int(prof_sample_run_delay(s, &d), 0,
		       "a delay that is not a number is unknown");
		json_object_object_del(s, "duration_ms");
		is_int(isnan(prof_sample_own_ms(s)), 1,
		       "no duration_ms: no own time (NAN)");
		json_object_put(s);
	}

	/* The reader. */
	is_str(check_with(4.0, "cpu_ms", NULL), "(valid)",
	       "a sample without cpu_ms is read as before");
	is_str(check_with(4.0, "cpu_ms", "4.02"), "(valid)",
	       "CPU time within the clocks' tolerance (0.5% + 0.01 ms)");
	is_str(check_with(4.0, "cpu_ms", "4.5"),
	       ".samples[3].cpu_ms: 4.5 ms of CPU time in a call of 4 ms "
	       "(duration_ms) on one thread",
	       "CPU time above the wall time on one thread is refused");
	s = timing_sample(4.0);
	prof_sample_set_cpu(s, 4.0, 8.0, 0, 2, NAN, 0);
	is_int(prof_sample_check(s, "", &e), 0,
	       "on two threads, CPU time twice the wall time is valid");
	json_object_put(s);
	is_str(check_with(4.0, "threads", "0"),
	       ".samples[3].threads: expected an integer >= 1",
	       "threads 0 is refused");
	is_str(check_with(4.0, "involuntary_switches", "1.5"),
	       ".samples[3].involuntary_switches: expected an integer, got a "
	       "number",
	       "a fractional switch count is refused");
	is_str(check_with(4.0, "contended", "\"yes\""),
	       ".samples[3].contended: expected a boolean, got a string",
	       "contended must be a boolean");
	is_str(check_with(4.0, "cpu_ms", "-1"),
	       ".samples[3].cpu_ms: expected a number >= 0",
	       "a negative CPU time is refused");
	is_str(check_with(4.0, "run_delay_ms", "1.5"), "(valid)",
	       "a run-queue delay within the wall time is valid");
	is_str(check_with(4.0, "run_delay_ms", "4.5"),
	       ".samples[3].run_delay_ms: 4.5 ms of run-queue delay in a call "
	       "of 4 ms (duration_ms) on one thread",
	       "a delay above the wall time on one thread is refused");
	is_str(check_with(4.0, "run_delay_ms", "-0.5"),
	       ".samples[3].run_delay_ms: expected a number >= 0",
	       "a negative delay is refused");
	is_str(check_with(4.0, "run_delay_ms", "\"1\""),
	       ".samples[3].run_delay_ms: expected a number, got a string",
	       "a delay that is not a number is refused");
	s = timing_sample(4.0);
	prof_sample_set_cpu(s, 4.0, 8.0, 0, 2, 7.5, 0);
	json_object_object_del(s, "contended");
	is_int(prof_sample_check(s, "", &e), 0,
	       "on two threads, a delay up to twice the wall time is valid");
	json_object_object_add(s, "run_delay_ms", prof_json_double(8.5));
	is_str(prof_sample_check(s, ".s", &e) < 0 ? e.reason : "(valid)",
	       "8.5 ms of run-queue delay in a call of 4 ms (duration_ms) on "
	       "2 threads",
	       "above twice the wall time on two threads, it is refused");
	json_object_put(s);
	s = timing_sample(4.0);
	prof_sample_set_cpu(s, 4.0, 2.0, 0, 1, NAN, 0);
	is_str(prof_sample_check(s, ".s", &e) < 0 ? e.reason : "(valid)",
	       "(valid)", "run_delay unavailable, without a delay, is valid");
	json_object_put(s);
	is_str(check_with(4.0, "run_delay", "\"maybe\""),
	       ".samples[3].run_delay: expected \"unavailable\" or "
	       "\"partial\"",
	       "another word for the delay is refused");
	return done();
}
