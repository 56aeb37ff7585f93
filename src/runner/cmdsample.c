/* cmdsample.c: the sample of one run of a command, its fixture checksum
 * and its outcome, for every mode that runs commands (command, A/B,
 * count). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/utf8.h"
#include "model/heaprec.h"
#include "runner-int.h"

static double
tv_ms(struct timeval tv)
{
	return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec / 1e3;
}

/*
 * A command's identity beside its --name: its arguments as a JSON array,
 * the program left out, so that one program built at two paths compares.
 * The fixture checksum is their digest; the fixture names them (prof-diff
 * shows both fixtures when the checksums differ).
 */
static struct json_object *
command_args(char *const *argv)
{
	struct json_object *argj = json_object_new_array();
	long i;

	for (i = 1; argj && argv[0] && argv[i]; i++)
		json_object_array_add(argj, json_object_new_string(argv[i]));
	return argj;
}

void
cmdsample_fixture_sum(char *const *argv, char out[PROF_SUM_HEX])
{
	struct json_object *argj = command_args(argv);

	prof_sum_json(argj, out);
	json_object_put(argj);
}

/* "command" and the arguments, as the fixture's name: at most n bytes. */
static void
command_fixture(char *const *argv, char *out, size_t n)
{
	struct json_object *argj = command_args(argv);
	const char *text = argj ? json_object_to_json_string_ext(
					  argj, JSON_C_TO_STRING_PLAIN) :
				  "[]";

	if (!argv[0] || !argv[1])
		snprintf(out, n, "command");
	else if (snprintf(out, n, "command %s", text) >= (int)n && n > 4)
		memcpy(out + n - 4, "...", 4);
	json_object_put(argj);
}

/*
 * The sample of one run of a command, before its metrics and outcome: the
 * command's id, category, floor and environment (valgrind's version joins
 * it for instruction counts, else NULL).
 */
struct json_object *
cmdsample_base(struct opts *o, const char *fixture_sum, long index,
	       const char *valgrind)
{
	struct prof_env_in in = {0};
	struct prof_sample_meta m = {0};
	char fixture[512];

	command_fixture(o->argv, fixture, sizeof(fixture));
	in.program = o->argv[0];
	in.backend_requested = "cpu";
	in.backend = "cpu";
	in.problem_size = o->problem_size ? o->problem_size : "none";
	in.dtype = "none";
	in.tile = "none";
	in.valgrind = valgrind;
	m.workload = o->name;
	m.version = 1;
	m.category = o->cats[0] ? o->cats[0] : "command";
	m.fixture = fixture;
	m.fixture_checksum = fixture_sum;
	m.warning_floor_ms = o->warning_floor_ms;
	m.backend = "cpu";
	return prof_sample_new(&m, prof_env_collect(&in),
			       runner_phase_name(o->phase), "warm", index);
}

/* The tasks of a command read at its exit (a zombie has one or two). */
static void
cmdsample_exited(void *arg, int pid)
{
	struct cmd_delay *d = arg;
	struct prof_sched t[CMD_TASKS];
	long n = prof_sched_tasks(pid, t, CMD_TASKS, NULL), i;

	memset(d, 0, sizeof(*d));
	if (n <= 0)
		return;
	d->known = 1;
	d->n = (int)n;
	for (i = 0; i < n; i++) {
		d->delay_ms[i] = (double)t[i].delay_ns / 1e6;
		d->run_ms += (double)t[i].run_ns / 1e6;
	}
}

/* d's delay: each task's at most the wall time (Linux's count can run a
 * little ahead of it), summed. */
static double
command_delay(const struct cmd_delay *d, double wall)
{
	double sum = 0;
	int i;

	for (i = 0; i < d->n; i++)
		sum += d->delay_ms[i] < wall ? d->delay_ms[i] : wall;
	return sum;
}

/*
 * A command's CPU time (its own and its reaped children's, from wait4),
 * involuntary switches, run-queue delay and contended mark. A command may
 * start any number of processes: its threads are the online CPUs. Its
 * delay is its own process's, read at its exit (d); "partial" when its
 * CPU time is more than those tasks ran: children or ended threads, whose
 * delay Linux does not keep past their reaping (contend.h).
 */
static void
command_cpu(struct json_object *s, const struct prof_spawn_result *res,
	    const struct cmd_delay *d)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double wall = round(res->wall_ms * 1e6) / 1e6;
	double cpu = tv_ms(res->ru.ru_utime) + tv_ms(res->ru.ru_stime);
	int known = d && d->known;

	cpus = cpus > 1 ? cpus : 1;
	prof_sample_set_cpu(s, wall, cpu, res->ru.ru_nivcsw, cpus,
			    known ? command_delay(d, wall) : -1,
			    known && prof_delay_partial(cpu, d->run_ms));
}

/*
 * A timed command's RSS peak as prof-mem records a worker's: the sample's
 * "memory": {"rss_peak_bytes": N}, from wait4's ru_maxrss (KiB), so that
 * prof-diff makes the command a memory row judged like time (compare.h).
 * A command run under valgrind (count) has valgrind's, and none.
 */
static void
command_rss(struct json_object *s, const struct prof_spawn_result *res)
{
	struct json_object *mem = json_object_new_object();

	json_object_object_add(
		mem, "rss_peak_bytes",
		json_object_new_int64((int64_t)res->ru.ru_maxrss * 1024));
	json_object_object_add(s, "memory", mem);
}

/* The timing sample of one run of a command, before its outcome is set. */
struct json_object *
cmdsample_of_result(struct opts *o, const char *fixture_sum, long index,
		    const struct prof_spawn_result *res,
		    const struct cmd_delay *d)
{
	struct json_object *s = cmdsample_base(o, fixture_sum, index, NULL);
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
	if (o->phase == RUNNER_TIMING) {
		command_cpu(s, res, d);
		command_rss(s, res);
	}
	return s;
}

/* Text from outside as a JSON string: valid UTF-8 (heaprec.h's are). */
static struct json_object *
jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* One process's record as the sample keeps it under "processes". */
static struct json_object *
process_json(const struct prof_heapproc *p)
{
	static const char *const ended[] = {
		[PROF_HEAPREC_RUNNING] = "signal",
		[PROF_HEAPREC_EXITED] = "exit",
		[PROF_HEAPREC_EXEC] = "exec",
	};
	const struct output_field heap[] = {
		{"host_peak_bytes", p->peak},
		{"host_allocs", p->allocs},
		{"host_allocated_bytes", p->bytes},
		{"host_live_at_exit_bytes", p->live_end},
	};
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "pid", json_object_new_int(p->pid));
	json_object_object_add(j, "ppid", json_object_new_int(p->ppid));
	json_object_object_add(j, "exe", jstr(p->exe));
	output_add_fields(j, heap, sizeof(heap) / sizeof(heap[0]));
	if (p->rss_peak >= 0)
		json_object_object_add(j, "rss_peak_bytes",
				       json_object_new_int64(p->rss_peak));
	json_object_object_add(
		j, "ended",
		jstr(p->state >= PROF_HEAPREC_RUNNING &&
				     p->state <= PROF_HEAPREC_EXEC ?
			     ended[p->state] :
			     "signal"));
	if (p->exec)
		json_object_object_add(j, "exec", jstr(p->exec));
	return j;
}

#define WITHOUT_US \
	"its environment lacked LD_PRELOAD or PROF_ALLOC_LOG, as env -i " \
	"leaves it"

/* What the interposer could not count, one entry of the sample's
 * "untracked": the program, its process (0: unknown), the program that
 * ran it (NULL: the command's own), why, and how many alike. */
static void
untracked(struct json_object *list, const char *program, int pid,
	  const char *by, const char *why, long long n)
{
	struct json_object *u = json_object_new_object();

	json_object_object_add(u, "program", jstr(program));
	if (pid)
		json_object_object_add(u, "pid", json_object_new_int(pid));
	if (by)
		json_object_object_add(u, "run_by", jstr(by));
	json_object_object_add(u, "why", jstr(why));
	if (n > 1)
		json_object_object_add(u, "programs",
				       json_object_new_int64(n));
	json_object_array_add(list, u);
}

/*
 * What of the tree the interposer could not count, into list: the
 * command's own program when its process left no record of its own, each
 * program an exec put in a process without the interposer in it (a
 * static or setuid program, an environment without it), the programs
 * started in new processes with an environment without it, and records
 * left half made.
 */
static void
untracked_of(struct json_object *list, const struct prof_heaprecs *hr,
	     const char *program, int pid)
{
	const char *why;
	size_t i;
	int seen = 0;

	for (i = 0; i < hr->n; i++)
		if (hr->p[i].pid == pid)
			seen = 1;
	if (!seen) {
		/* Said by the program as the command line names it, and
		 * found as exec would (the caller's PATH). */
		why = prof_heaprec_unloaded(program);
		untracked(list, program, pid, NULL,
			  why ? why : "its process left no heap record", 1);
	}
	for (i = 0; i < hr->n; i++) {
		const struct prof_heapproc *p = &hr->p[i];

		if (p->state == PROF_HEAPREC_EXEC) {
			why = p->exec_env ? WITHOUT_US :
					    prof_heaprec_unloaded(p->exec);
			untracked(list, p->exec, p->pid, p->exe,
				  why ? why :
					"it left no heap record of its own",
				  1);
		}
		if (p->untracked > 0)
			untracked(list, p->spawned, 0, p->exe, WITHOUT_US,
				  p->untracked);
	}
	for (i = 0; i < hr->n_miss; i++) {
		const struct prof_heapmiss *m = &hr->miss[i];

		why = m->exec_env ? WITHOUT_US : prof_heaprec_unloaded(m->prog);
		untracked(list, m->prog, m->pid, m->by,
			  why ? why : "it left no heap record of its own", 1);
	}
	if (hr->incomplete)
		untracked(list, NULL, 0, NULL,
			  "a process ended while it made its heap record",
			  (long long)hr->incomplete);
}

/*
 * The memory sample of a command: every process of the tree kept its
 * heap record in the folder dir (libprof-alloc.so, heaprec.h), one a
 * process, also of a process a signal ended. The sample keeps them all
 * under "processes" and sums them up under "memory": the largest heap
 * peak, the sum of peaks, all allocations and their bytes. Those heap
 * numbers are there only when the whole tree was counted: the command's
 * own process (res->pid) left a record of its own, and nothing is in
 * "untracked" (what the interposer did not enter, untracked_of()): a
 * partial tree would be a false number. Else metrics.heap_tracked is
 * false and "memory" has no heap numbers; wait4's max RSS is there either
 * way, as a worker's memory sample has its RSS peak. program: the
 * command's program. Returns NULL when the heap was tracked, else the
 * first of "untracked" (the sample's).
 */
static struct json_object *
heap_sample(struct json_object *s, const char *dir, const char *program,
	    const struct prof_spawn_result *res)
{
	struct json_object *procs = json_object_new_array(), *m;
	struct json_object *list = json_object_new_array();
	struct json_object *metrics = json_object_object_get(s, "metrics");
	struct prof_heaprecs hr = {0};
	long long top = 0, sum = 0, allocs = 0, bytes = 0;
	struct prof_err err = {0};
	size_t i;
	int whole;

	if (prof_heaprec_read(dir, &hr, &err) < 0) {
		char buf[1024];

		untracked(list, NULL, 0, NULL,
			  prof_err_str(&err, buf, sizeof(buf)), 1);
	}
	for (i = 0; i < hr.n; i++) {
		const struct prof_heapproc *p = &hr.p[i];

		json_object_array_add(procs, process_json(p));
		top = p->peak > top ? p->peak : top;
		sum += p->peak;
		allocs += p->allocs;
		bytes += p->bytes;
	}
	untracked_of(list, &hr, program, res->pid);
	whole = json_object_array_length(list) == 0;
	m = json_object_new_object();
	if (whole) {
		json_object_object_add(m, "host_peak_bytes",
				       json_object_new_int64(top));
		json_object_object_add(m, "host_peak_sum_bytes",
				       json_object_new_int64(sum));
		json_object_object_add(m, "host_allocs",
				       json_object_new_int64(allocs));
		json_object_object_add(m, "host_allocated_bytes",
				       json_object_new_int64(bytes));
		json_object_object_add(
			m, "processes",
			json_object_new_int64((int64_t)hr.n));
	}
	json_object_object_add(m, "rss_peak_bytes",
			       json_object_new_int64((int64_t)res->ru.ru_maxrss *
						     1024));
	json_object_object_add(s, "memory", m);
	json_object_object_add(s, "processes", procs);
	if (metrics)
		json_object_object_add(metrics, "heap_tracked",
				       json_object_new_boolean(whole));
	prof_heaprec_free(&hr);
	if (whole) {
		json_object_put(list);
		return NULL;
	}
	json_object_object_add(s, "untracked", list);
	return json_object_array_get_idx(list, 0);
}

/* Say once what the interposer did not count (u: the first entry of a
 * sample's "untracked"; n: how many). */
static void
say_untracked(struct opts *o, struct json_object *u, size_t n)
{
	const char *program = prof_json_str(u, "program");
	const char *by = prof_json_str(u, "run_by");
	char *prog = program ? prof_utf8_line(program, 512) : NULL;
	char *run_by = by ? prof_utf8_line(by, 512) : NULL;
	char more[64] = "";

	if (n > 1)
		snprintf(more, sizeof(more), "; %zu in all in the sample's "
			 "untracked", n);
	if (prog)
		cli_say("%s: no heap numbers: the allocation interposer did "
			"not count '%s'%s%s%s: %s (metrics.heap_tracked "
			"false%s)",
			o->name, prog, run_by ? ", run by '" : "",
			run_by ? run_by : "", run_by ? "'" : "",
			prof_json_str(u, "why"), more);
	else
		cli_say("%s: no heap numbers: %s (metrics.heap_tracked "
			"false%s)",
			o->name, prof_json_str(u, "why"), more);
	free(prog);
	free(run_by);
}

/*
 * The memory runs of a command (prof-mem -- CMD, and prof-time or
 * prof-count --memory): n fresh runs under the allocation interposer,
 * apart from any timed or counted run, each a memory sample of index i
 * and call 0 (each run is the command's first and only call: prof-diff
 * checks that the exact numbers repeat). fixed: prof-count's fixed
 * environment (its program, env, no ASLR), else the caller's without
 * the preload variables. Each sample carries its run's RSS peak, as a
 * worker's memory sample does (prof-time's timed samples have theirs as
 * well: the RSS row takes both). Writes the samples into
 * r; says once when the heap could not be tracked. Returns 0, or -1 on
 * an output or infrastructure failure (said).
 */
/* Nothing of prof's own interposers or profilers reaches a command from
 * the caller's environment. */
static char *cmd_unset[] = {"LD_PRELOAD", "PROF_ALLOC_LOG", "PROF_CPUPROFILE",
			    "CPUPROFILE", NULL};

/* A command's memory runs: their records' folders, environment and
 * command line. */
struct heap_runs {
	struct opts mo;		/* the caller's, in the memory phase */
	char tmp[PATH_MAX], log[PATH_MAX + 32], log_env[PATH_MAX + 48];
	char preload_env[PATH_MAX + 96];
	char *set[VALGRIND_MAX_ENV + 4];
	char **argv;		/* fixed: the program's own path first */
	struct valgrind_setup *fixed;
	int said;		/* the untracked line said */
};

/* The sample of memory run i, which ran: its outcome (*ok: a success),
 * its heap numbers from the records, the untracked line said once. */
static struct json_object *
heap_result(struct opts *o, struct heap_runs *h, const char *fixture_sum,
	    long i, const struct prof_spawn_result *res, int *ok)
{
	struct json_object *s, *u;
	char why[1200];

	s = cmdsample_of_result(&h->mo, fixture_sum, i, res, NULL);
	cmdsample_outcome(&h->mo, res, why, sizeof(why));
	u = heap_sample(s, h->log, h->fixed ? h->fixed->program : o->argv[0],
			res);
	if (u && !why[0] && !h->said++ && !o->quiet)
		say_untracked(o, u,
			      json_object_array_length(
				      json_object_object_get(s, "untracked")));
	json_object_object_add(s, "call", json_object_new_int(0));
	if (why[0])
		prof_sample_fail(s, why, res->wall_ms);
	else
		prof_sample_succeed(s, res->wall_ms, NULL, NULL);
	*ok = !why[0];
	return s;
}

/* Memory run i: its sample written. 0; 1 when interrupted; -1 (said) on
 * a failure. */
static int
heap_call(struct opts *o, struct run_state *r, struct heap_runs *h,
	  const char *fixture_sum, long i)
{
	struct prof_spawn sp = {0};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	struct json_object *s;
	char why[1200];
	int ok;

	if (h->fixed && valgrind_fresh_home(h->fixed) < 0)
		return -1;
	/* The records' folder of this run (heaprec.h). */
	snprintf(h->log, sizeof(h->log), "%s/heap.%ld", h->tmp, i);
	if (mkdir(h->log, 0700) < 0) {
		cli_say("cannot create '%s': %s", h->log, strerror(errno));
		return -1;
	}
	snprintf(h->log_env, sizeof(h->log_env), "PROF_ALLOC_LOG=%s", h->log);
	sp.argv = h->fixed ? h->argv : o->argv;
	sp.env_set = h->set;
	sp.env_unset = h->fixed ? NULL : cmd_unset;
	sp.env_clear = h->fixed != NULL;
	sp.no_aslr = h->fixed != NULL;
	sp.timeout_s = o->timeout_s;
	sp.stderr_fd = -1;
	sp.stdout_fd = PROF_SPAWN_DEVNULL;
	sp.cancel = &signals_interrupted;
	if (prof_spawn_run(&sp, &res, &err) < 0) {
		cli_err(&err);
		return -1;
	}
	if (res.cancelled) {
		prof_spawn_free(&res);
		return 1;	/* interrupted: no sample for this run */
	}
	if (res.exec_errno) {
		prof_spawn_describe(&res, sp.argv[0], o->timeout_s, why,
				    sizeof(why));
		cli_say("%s", why);
		prof_spawn_free(&res);
		return -1;
	}
	s = heap_result(o, h, fixture_sum, i, &res, &ok);
	if (ok)
		output_note_result(r, s);
	prof_spawn_free(&res);
	return output_put_sample(r, s, o->output) < 0 ? -1 : 0;
}

int
cmdsample_heap(struct opts *o, struct run_state *r, const char *fixture_sum,
	     long n, struct valgrind_setup *fixed)
{
	struct heap_runs hr = {0}, *h = &hr;
	struct argv_build fixed_argv = {0};
	struct prof_err err = {0};
	long i;
	int k = 0, rc = -1, called = 0;

	h->mo = *o;
	h->mo.phase = RUNNER_MEMORY;
	h->fixed = fixed;
	if (prof_tmpdir_new("prof-cmd", h->tmp, sizeof(h->tmp), &err) < 0) {
		cli_err(&err);
		return -1;
	}
	snprintf(h->preload_env, sizeof(h->preload_env), "LD_PRELOAD=%s",
		 o->preload);
	h->set[k++] = h->preload_env;
	h->set[k++] = h->log_env;
	if (fixed) {
		int j;

		for (j = 0; fixed->env[j] && k < VALGRIND_MAX_ENV + 2; j++)
			h->set[k++] = fixed->env[j];
		argv_add(&fixed_argv, fixed->program);
		argv_add_all(&fixed_argv, o->argv + 1);
		h->argv = argv_done(&fixed_argv);
		if (!h->argv) {
			cli_say("out of memory");
			goto out;
		}
	}
	h->set[k] = NULL;
	for (i = 0; i < n && !signals_interrupted && called == 0; i++)
		called = heap_call(o, r, h, fixture_sum, i);
	if (called >= 0)
		rc = 0;
out:
	argv_free(&fixed_argv);
	prof_tmpdir_remove(h->tmp);
	return rc;
}

/* Why a run of a command failed, or "" when it succeeded. */
void
cmdsample_outcome(struct opts *o, const struct prof_spawn_result *res,
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

/*
 * Split a command string into words as a shell would without expanding
 * anything: blanks separate words; '...' keeps everything literally;
 * "..." keeps everything but \" and \\; a backslash outside quotes keeps
 * the next character. Returns a NULL-terminated vector in one block, or
 * NULL with why filled (an open quote, no word at all).
 */
char **
cmdsample_split_words(const char *s, char *why, size_t n)
{
	size_t len = strlen(s), max = len / 2 + 2;
	char **v = malloc(max * sizeof(*v) + len + 1 + max);
	char *out, quote = 0;
	size_t k = 0;
	int in_word = 0;

	if (!v) {
		snprintf(why, n, "out of memory");
		return NULL;
	}
	out = (char *)(v + max);
	for (; *s; s++) {
		if (quote == '\'') {
			if (*s == '\'')
				quote = 0;
			else
				*out++ = *s;
			continue;
		}
		if (quote == '"') {
			if (*s == '"')
				quote = 0;
			else if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
				*out++ = *++s;
			else
				*out++ = *s;
			continue;
		}
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			if (in_word) {
				*out++ = '\0';
				in_word = 0;
			}
			continue;
		}
		if (!in_word) {
			v[k++] = out;
			in_word = 1;
		}
		if (*s == '\'' || *s == '"')
			quote = *s;
		else if (*s == '\\' && s[1])
			*out++ = *++s;
		else
			*out++ = *s;
	}
	*out = '\0';
	v[k] = NULL;
	if (quote) {
		snprintf(why, n, "an open %c quote", quote);
		free(v);
		return NULL;
	}
	if (!k) {
		snprintf(why, n, "no command");
		free(v);
		return NULL;
	}
	return v;
}

static int
hash_data(void *arg, const char *p, size_t len)
{
	prof_sum_raw(arg, p, len);
	return 0;
}

int
cmdsample_stdout(struct opts *o, struct prof_spawn *sp, struct prof_sum *sum)
{
	sp->stdout_fd = PROF_SPAWN_DEVNULL;
	if (!o->check_output)
		return 0;
	if (prof_sum_init(sum) < 0)
		return -1;
	sp->stdout_fd = PROF_SPAWN_PIPE;
	sp->on_data = hash_data;
	sp->arg = sum;
	return 0;
}

/* A timed call of the command set up in sp: o's timeout, its stderr's
 * tail kept, stopped by an interruption (signals_interrupted), its
 * run-queue delay read into delay (cmdsample_exited()) and its stdout as
 * cmdsample_stdout() has it. 0, or -1 (said: out of memory). */
static int
cmdsample_watch(struct opts *o, struct prof_spawn *sp, struct cmd_delay *delay,
		struct prof_sum *sum)
{
	sp->timeout_s = o->timeout_s;
	sp->stderr_fd = -1;
	sp->cancel = &signals_interrupted;
	sp->exited = cmdsample_exited;
	sp->exited_arg = delay;
	if (cmdsample_stdout(o, sp, sum) < 0) {
		cli_say("out of memory");
		return -1;
	}
	return 0;
}

/* The run's output checksum into hex, or NULL without --check-output;
 * frees the state either way. */
static const char *
cmdsample_stdout_sum(struct opts *o, struct prof_sum *sum,
		     char hex[PROF_SUM_HEX])
{
	if (!o->check_output)
		return NULL;
	prof_sum_final(sum, hex);
	return hex;
}

int
cmdsample_run(struct opts *o, const struct prof_spawn *sp,
	      struct prof_sum *sum, const char *program, const char *side,
	      struct prof_spawn_result *res, char hex[PROF_SUM_HEX],
	      const char **out_sum)
{
	struct prof_err err = {0};
	char why[1200];
	int rc = prof_spawn_run(sp, res, &err);

	*out_sum = cmdsample_stdout_sum(o, sum, hex);
	if (rc < 0) {
		cli_err(&err);
		return -1;
	}
	if (res->cancelled) {
		prof_spawn_free(res);
		return 1;
	}
	if (res->exec_errno) {
		prof_spawn_describe(res, program, o->timeout_s, why,
				    sizeof(why));
		if (side)
			cli_say("%s side: %s", side, why);
		else
			cli_say("%s", why);
		prof_spawn_free(res);
		return -1;
	}
	return 0;
}

int
cmdsample_timed(struct opts *o, char **argv, char **set, const char *side,
		struct cmd_delay *delay, struct prof_spawn_result *res,
		char hex[PROF_SUM_HEX], const char **out_sum)
{
	struct prof_spawn sp = {0};
	struct prof_sum osum;

	sp.argv = argv;
	sp.env_set = set;
	sp.env_unset = cmd_unset;
	if (cmdsample_watch(o, &sp, delay, &osum) < 0)
		return -1;
	return cmdsample_run(o, &sp, &osum, argv[0], side, res, hex, out_sum);
}

/*
 * Samples in a gperftools CPU profile: the file is machine words, a
 * five-word header, then records (count, depth, pcs...) up to the trailer
 * (0, 1, 0). Returns -1 when the file is not one.
 */
long long
cmdsample_profile_samples(const char *path)
{
	FILE *fp = prof_input_open(path, 0, 0, NULL);
	uintptr_t h[5], rec[2], pc;
	long long total = 0;
	uintptr_t i;

	if (!fp)
		return -1;
	if (fread(h, sizeof(h[0]), 5, fp) != 5 || h[0] != 0 || h[1] != 3) {
		fclose(fp);
		return -1;
	}
	while (fread(rec, sizeof(rec[0]), 2, fp) == 2) {
		if (rec[0] == 0 && rec[1] == 1)
			break;
		total += (long long)rec[0];
		for (i = 0; i < rec[1]; i++)
			if (fread(&pc, sizeof(pc), 1, fp) != 1)
				break;
	}
	fclose(fp);
	return total;
}
