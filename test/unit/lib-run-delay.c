/* lib-run-delay.c: the run-queue delay's rule of contend.h on hand-made
 * calls, the fields a writer adds, what every reader refuses (a mark that
 * contradicts its times), and the kernel's schedstat read from a made-up
 * /proc (PROF_PROC_ROOT). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/env.h"
#include "base/json.h"
#include "model/contend.h"
#include "model/sample.h"
#include "tap.h"

static struct json_object *
sample_on(const char *backend, double wall_ms)
{
	struct prof_sample_meta m = {
		.workload = "w.one", .version = 1, .category = "test",
		.fixture = "f", .warning_floor_ms = 1, .backend = backend,
	};
	struct prof_env_in in = {.backend = backend};
	struct json_object *s = prof_sample_new(&m, prof_env_collect(&in),
						"timing", "warm", 0);

	prof_sample_succeed(s, wall_ms, NULL, NULL);
	return s;
}

/* The reader's error for s, or "(valid)"; s is dropped. */
static const char *
checked(struct json_object *s)
{
	static char buf[1024];
	struct prof_err e = {0};

	if (prof_sample_check(s, ".samples[3]", &e) == 0)
		snprintf(buf, sizeof(buf), "(valid)");
	else
		prof_err_str(&e, buf, sizeof(buf));
	json_object_put(s);
	return buf;
}

/* A sample written with these times, then key set to the JSON text. */
static struct json_object *
with(const char *backend, double wall, double cpu, long sw, long threads,
     double delay, int partial, const char *key, const char *value)
{
	struct json_object *s = sample_on(backend, wall);

	prof_sample_set_cpu(s, wall, cpu, sw, threads, delay, partial);
	if (key)
		json_object_object_add(s, key, json_tokener_parse(value));
	return s;
}

static int bool_of(struct json_object *s, const char *key);

/* The mark the writer gives a one-thread call of wall ms that ran 1 ms
 * of CPU (0.2 ms for a call of 1 ms or less) and waited delay ms. */
static int
marked(double wall, double delay)
{
	struct json_object *s = with("cpu", wall, wall > 1 ? 1.0 : 0.2, 0, 1,
				     delay, 0, NULL, NULL);
	int m = bool_of(s, "contended");

	json_object_put(s);
	return m;
}

static int
bool_of(struct json_object *s, const char *key)
{
	struct json_object *v = json_object_object_get(s, key);

	return json_object_is_type(v, json_type_boolean) ?
		       json_object_get_boolean(v) :
		       -1;
}

static void
put_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
}

int
main(void)
{
	char root[] = "/tmp/lib-run-delay.XXXXXX", path[512], cmd[600];
	struct prof_sched a[4], b[4];
	struct json_object *s;
	int partial = 0, more = 0, fd;
	long tid = (long)syscall(SYS_gettid);

	plan(45);

	/* The delay's rule: the queue's share of the wall time. */
	is_int(marked(50.0, 19.5), 1, "19.5 ms waited of 50 ms is contended");
	is_int(marked(178.0, 0.2), 0, "0.2 ms of 178 ms is not (a call alone)");
	is_int(marked(10.0, 10.0 * 0.05 + 0.1), 0,
	       "at the bound (5% of the wall + 0.1 ms) a call is not");
	is_int(marked(10.0, 10.0 * 0.05 + 0.1 + 1e-6), 1,
	       "a nanosecond above it, it is");
	is_int(marked(1.0, 0.09), 0, "under the 0.1 ms slack a call never is");
	is_int(marked(5.0, -1), 1,
	       "a negative delay is unknown: today's rule (5 ms in 1 of CPU)");

	/* The writer: the delay decides where it is known. */
	s = with("cpu", 100.0, 20.0, 1, 1, 0.0, 0, NULL, NULL);
	is_int(bool_of(s, "contended"), 0,
	       "a call that slept 80 ms, no delay: not contended (today's "
	       "rule said it was)");
	is_num(prof_sample_num(s, "run_delay_ms"), 0, 0, "run_delay_ms 0");
	ok(!json_object_object_get_ex(s, "run_delay", NULL),
	   "no run_delay word when the delay is known whole");
	is_int(prof_sample_contention(s), PROF_CONTEND_NONE,
	       "its contention is none: its time is the code's");
	json_object_put(s);
	s = with("cpu", 395.0, 196.0, 0, 1, 196.0000004, 0, NULL, NULL);
	is_int(bool_of(s, "contended"), 1,
	       "a loop beside a busy loop (395 ms, 196 of delay) is "
	       "contended");
	is_num(prof_sample_num(s, "run_delay_ms"), 196.0, 1e-12,
	       "run_delay_ms is rounded to the nanosecond");
	is_int(prof_sample_contention(s), PROF_CONTEND_QUEUED,
	       "queued by its delay, with no involuntary switch");
	is_num(prof_sample_own_ms(s), 199.0, 1e-9,
	       "its own time is 395 - 196 ms");
	json_object_put(s);
	s = with("cpu", 4.0, 2.0, 0, 1, 9.0, 0, NULL, NULL);
	is_num(prof_sample_num(s, "run_delay_ms"), 4.0, 0,
	       "a delay above the wall time of its one thread is clamped to "
	       "it");
	json_object_put(s);
	s = with("cpu", 50.0, 1.2, 1, 1, NAN, 0, NULL, NULL);
	is_str(prof_json_str(s, "run_delay"), "unavailable",
	       "no delay known: run_delay unavailable");
	ok(!json_object_object_get_ex(s, "run_delay_ms", NULL),
	   "and no run_delay_ms");
	is_int(bool_of(s, "contended"), 1,
	       "today's rule then: 50 ms wall in 1.2 ms CPU is contended");
	json_object_put(s);
	s = with("cpu", 52.0, 1.0, 0, 2, 0.05, 1, NULL, NULL);
	is_str(prof_json_str(s, "run_delay"), "partial",
	       "a partial delay says so");
	is_int(bool_of(s, "contended"), 1,
	       "a partial delay: contended when today's rule says so");
	is_int(prof_sample_contention(s), PROF_CONTEND_WAITED,
	       "and then waited (no switch), by today's reading");
	json_object_put(s);
	s = with("gpu", 10.0, 0.5, 0, 1, 6.0, 0, NULL, NULL);
	is_int(bool_of(s, "contended"), 1,
	       "a GPU call whose thread waited 6 ms of 10 is contended");
	json_object_put(s);
	s = with("gpu", 10.0, 0.5, 2, 1, NAN, 0, NULL, NULL);
	is_int(bool_of(s, "contended"), 1,
	       "a GPU call, delay unknown, switched: contended (today's "
	       "rule)");
	json_object_put(s);

	/* The reader: the mark must be what the times say. */
	is_str(checked(with("cpu", 50.0, 1.2, 1, 1, NAN, 0, "contended",
			    "false")),
	       ".samples[3].contended: false, but the call ran 1.2 ms of CPU "
	       "time in 50 ms (cpu_ms, duration_ms: contended when the wall "
	       "time is above CPU x 1.05 + 0.1 ms)",
	       "contended false with 50 ms wall and 1.2 ms CPU is refused");
	is_str(checked(with("cpu", 50.0, 49.9, 0, 1, NAN, 0, "contended",
			    "true")),
	       ".samples[3].contended: true, but the call ran 49.9 ms of CPU "
	       "time in 50 ms (cpu_ms, duration_ms: contended when the wall "
	       "time is above CPU x 1.05 + 0.1 ms)",
	       "contended true on a call that had its core is refused");
	is_str(checked(with("cpu", 50.0, 30.0, 0, 1, 19.5, 0, "contended",
			    "false")),
	       ".samples[3].contended: false, but its threads waited 19.5 ms "
	       "for a core in 50 ms (run_delay_ms, duration_ms: contended "
	       "above 5% of the wall time + 0.1 ms)",
	       "contended false with 19.5 ms of delay in 50 is refused");
	is_str(checked(with("cpu", 50.0, 1.2, 0, 1, 0.0, 0, "contended",
			    "true")),
	       ".samples[3].contended: true, but its threads waited 0 ms for "
	       "a core in 50 ms (run_delay_ms, duration_ms: contended above "
	       "5% of the wall time + 0.1 ms)",
	       "contended true on a sleep with no delay is refused");
	is_str(checked(with("gpu", 10.0, 0.5, 0, 1, NAN, 0, "contended",
			    "true")),
	       ".samples[3].contended: true, but the GPU call had 0 "
	       "involuntary switches (contended above 0)",
	       "a GPU call marked contended with no switch is refused");
	is_str(checked(with("cpu", 52.0, 1.0, 0, 2, 0.05, 1, NULL, NULL)),
	       "(valid)", "a partial delay's sample as written is valid");
	is_str(checked(with("cpu", 27.0, 26.0, 0, 1, 0.3, 0, NULL, NULL)),
	       "(valid)", "so is every sample as written");
	s = sample_on("cpu", 50.0);
	json_object_object_add(s, "contended", json_object_new_boolean(1));
	is_str(checked(s), "(valid)",
	       "a mark without the times (an older file) is read as before");
	is_str(checked(with("cpu", 50.0, 30.0, 0, 1, 19.5, 0, "run_delay_ms",
			    "-1")),
	       ".samples[3].run_delay_ms: expected a number >= 0",
	       "a negative delay is refused");

	/* The kernel's counts, from a made-up /proc. */
	if (!mkdtemp(root))
		return 1;
	setenv("PROF_PROC_ROOT", root, 1);
	is_str(prof_proc_root(), root, "PROF_PROC_ROOT moves /proc");
	is_int(prof_sched_open_self(), -1,
	       "no schedstat there: the kernel keeps none");
	is_int(prof_sched_tasks(0, a, 4, NULL), -1, "nor any task's");
	snprintf(path, sizeof(path), "%s/self", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/self/task", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/self/task/%ld", root, tid);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/self/task/%ld/schedstat", root, tid);
	put_file(path, "0 0 0\n");
	is_int(prof_sched_open_self(), -1,
	       "zeros (no slice): a kernel that keeps no count");
	put_file(path, "5000000 2500000 7\n");
	fd = prof_sched_open_self();
	ok(fd >= 0 && prof_sched_read(fd, &a[0]) == 0 &&
		   a[0].run_ns == 5000000 && a[0].delay_ns == 2500000,
	   "the thread's own file: 5 ms on a core, 2.5 ms waiting");
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/self/task/99999999", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/self/task/99999999/schedstat", root);
	put_file(path, "1 4000000 2\n");
	is_int(prof_sched_tasks(0, b, 4, &more), 2,
	       "the process's two tasks are read");
	is_int(prof_sched_tasks(0, b, 1, &more) == 1 && more, 1,
	       "one at most: *more says there were more");
	a[0].tid = tid;
	a[0].delay_ns = 1000000;
	a[1].tid = 12345;	/* ended before the second read */
	a[1].delay_ns = 0;
	prof_sched_tasks(0, b, 4, NULL);
	is_num(prof_sched_delay(a, 2, b, 2, 3.0, NAN, &partial), 1.5 + 3.0, 1e-9,
	       "the delay between two reads: 1.5 ms, and a new task's 4 ms "
	       "held to the call's 3");
	is_int(partial, 1, "a task gone by the second read: partial");
	a[1].tid = 99999999;
	a[1].delay_ns = 4000000;
	/* Each task's CPU clock as the second read found it. */
	a[0].cpu_ns = b[b[0].tid == tid ? 0 : 1].cpu_ns;
	a[1].cpu_ns = b[b[0].tid == tid ? 1 : 0].cpu_ns;
	partial = 0;
	prof_sched_delay(a, 2, b, 2, 3.0, 0.04, &partial);
	is_int(partial, 0,
	       "the same tasks, the process's CPU time within 0.05 ms of "
	       "theirs: whole");
	prof_sched_delay(a, 2, b, 2, 3.0, 2.0, &partial);
	is_int(partial, 1,
	       "2 ms of the process's CPU time that no task read ran (a "
	       "thread began and ended inside the call): partial");
	is_int(prof_delay_partial(100.0, 99.5), 0,
	       "tasks that ran all but 0.5% of 100 ms cover the call");
	is_int(prof_delay_partial(100.0, 98.0), 1,
	       "all but 2% do not (a child process's, an ended thread's)");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
	unsetenv("PROF_PROC_ROOT");
	fd = prof_sched_open_self();
	printf("# this kernel %s a run-queue delay\n",
	       fd >= 0 ? "keeps" : "does not keep");
	if (fd >= 0)
		close(fd);
	return done();
}
