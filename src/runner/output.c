/* output.c: samples out, one JSON line each, to stdout or to a file
 * that is committed only when the run ends well. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "verdict/verdict.h"
#include "runner-int.h"

/* What the run line of the output says: the mode and the options that
 * decide what is measured (shards of one run must agree on them). */
static int
run_line(struct run_state *r)
{
	struct opts *o = r->o;
	struct json_object *opt = json_object_new_object(), *a;
	int i;

	if (!opt)
		return -1;
	json_object_object_add(opt, "phase",
			       json_object_new_string(runner_phase_name(o->phase)));
	if (o->backend)
		json_object_object_add(opt, "backend",
				       json_object_new_string(o->backend));
	json_object_object_add(opt, "repeat", json_object_new_int64(o->repeat));
	json_object_object_add(opt, "warmup", json_object_new_int64(o->warmup));
	a = json_object_new_array();
	for (i = 0; a && i < o->n_cats; i++)
		json_object_array_add(a, json_object_new_string(o->cats[i]));
	json_object_object_add(opt, "categories", a);
	a = json_object_new_array();
	for (i = 0; a && i < o->n_excl; i++)
		json_object_array_add(a, json_object_new_string(o->excl[i]));
	json_object_object_add(opt, "exclude_categories", a);
	if (o->diagnose_id)
		json_object_object_add(opt, "workload",
				       json_object_new_string(o->diagnose_id));
	if (o->name)
		json_object_object_add(opt, "name",
				       json_object_new_string(o->name));
	if (o->shard_n) {
		char shard[32];

		snprintf(shard, sizeof(shard), "%d/%d", o->shard_i,
			 o->shard_n);
		return prof_lines_run(&r->out_lines, NULL, o->mode, opt, shard);
	}
	return prof_lines_run(&r->out_lines, NULL, o->mode, opt, NULL);
}

/* The run line alone, for a run that wrote no sample: a shard that holds
 * no workload of the selection is still one of the run's shards, and
 * make merge-shards looks for each. Returns 0, or -1 after a message. */
int
output_write_run(struct run_state *r)
{
	struct prof_err err = {0};

	if (r->out_lines.fp != r->out) {
		prof_lines_free(&r->out_lines);
		prof_lines_init(&r->out_lines, r->out);
		if (run_line(r) < 0) {
			cli_say("out of memory");
			return -1;
		}
	}
	if (prof_lines_flush_run(&r->out_lines, &err) < 0) {
		cli_err(&err);
		return -1;
	}
	return 0;
}

double
output_time_threshold(const struct opts *o, struct json_object *desc, int ab)
{
	double t = prof_json_numf(desc, "time_threshold_pct");

	if (o->time_threshold_pct > 0)
		return o->time_threshold_pct;
	if (t > 0 && t <= PROF_CMP_THRESHOLD_MAX)
		return t;
	return ab ? PROF_CMP_AB_THRESHOLD : 0;
}

int
output_write_sample(struct run_state *r, struct json_object *s)
{
	struct prof_err err = {0};

	json_object_object_add(s, "order_seed",
			       json_object_new_int64((int64_t)r->o->seed));
	/* The threshold prof-diff judges the time row by (the one an A/B
	 * settled by). */
	if (r->time_threshold_pct > 0 && prof_sample_is(s, "phase", "timing"))
		json_object_object_add(
			s, "time_threshold_pct",
			prof_json_double(r->time_threshold_pct));
	if (r->o->shard_n) {
		char shard[32];

		snprintf(shard, sizeof(shard), "%d/%d", r->o->shard_i,
			 r->o->shard_n);
		json_object_object_add(s, "shard", json_object_new_string(shard));
	}
	/* A memory sample's call index in its worker (workloads.c), where
	 * it has none of its own (a command's runs are each call 0). */
	if (r->o->phase == RUNNER_MEMORY &&
	    !json_object_object_get_ex(s, "call", NULL))
		json_object_object_add(
			s, "call",
			json_object_new_int64(json_object_get_int64(
				json_object_object_get(s, "index"))));
	if (r->index_base)
		json_object_object_add(
			s, "index",
			json_object_new_int64(
				json_object_get_int64(
					json_object_object_get(s, "index")) +
				r->index_base));
	if (r->ab_side) {
		struct json_object *ab = json_object_new_object();

		const struct output_field at[] = {
			{"slot", r->ab_slot},
			{"round", r->ab_round},
			{"repeat", r->ab_first},
			{"max_repeat", r->ab_max},
		};

		json_object_object_add(ab, "side",
				       json_object_new_string(r->ab_side));
		output_add_fields(ab, at, sizeof(at) / sizeof(at[0]));
		json_object_object_add(s, "ab", ab);
	}
	if (r->out_lines.fp != r->out) {
		prof_lines_free(&r->out_lines);
		prof_lines_init(&r->out_lines, r->out);
		if (run_line(r) < 0)
			return -1;
	}
	if (prof_lines_write(&r->out_lines, s, &err) < 0)
		return -1;
	if (r->out == stdout)
		fflush(stdout);
	r->samples++;
	if (prof_sample_is(s, "outcome", "error")) {
		if (!r->first_error[0])
			snprintf(r->first_error, sizeof(r->first_error), "%s",
				 prof_sample_str(s, "reason"));
		r->errors++;
	}
	return 0;
}

/* A record line (calibration, machine) into a sample stream. */
int
output_write_record(FILE *out, struct json_object *rec)
{
	char *own;
	size_t n;
	const char *text = prof_json_text(
		rec, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
		&n, &own);
	int rc = text && fwrite(text, 1, n, out) == n &&
			 fputc('\n', out) != EOF ?
			 0 :
			 -1;

	free(own);
	if (rc < 0)
		return -1;
	if (out == stdout)
		fflush(stdout);
	return 0;
}

/* What the progress line says of a memory or profile sample. */
void
output_note_result(struct run_state *r, struct json_object *s)
{
	struct json_object *m = NULL, *v = NULL;

	r->note[0] = '\0';
	if (r->o->phase == RUNNER_MEMORY &&
	    json_object_object_get_ex(s, "memory", &m)) {
		double peak = prof_json_number(
			json_object_object_get(m, "host_peak_bytes"));
		double rss = prof_json_number(
			json_object_object_get(m, "rss_peak_bytes"));

		if (json_object_object_get_ex(m, "host_peak_bytes", NULL))
			snprintf(r->note, sizeof(r->note),
				 "host heap peak %.2f MiB, RSS peak %.2f MiB",
				 peak / 1048576.0, rss / 1048576.0);
		else	/* not counted (heap_tracked false): no 0 */
			snprintf(r->note, sizeof(r->note),
				 "no heap numbers, RSS peak %.2f MiB",
				 rss / 1048576.0);
		if (json_object_object_get_ex(m, "device_peak_allocated_bytes",
					      &v) && v)
			snprintf(r->note + strlen(r->note),
				 sizeof(r->note) - strlen(r->note),
				 ", device peak %.2f MiB",
				 prof_json_number(v) / 1048576.0);
	} else if (r->o->phase == RUNNER_PROFILE &&
		   json_object_object_get_ex(s, "metrics", &m)) {
		snprintf(r->note, sizeof(r->note),
			 "%.0f calls, %.0f profile samples, %s",
			 prof_json_number(json_object_object_get(m, "calls")),
			 prof_json_number(
				 json_object_object_get(m, "profile_samples")),
			 json_object_get_string(json_object_array_get_idx(
				 json_object_object_get(s, "artifacts"), 0)));
	}
}

int
output_open(struct opts *o, struct prof_afile *af, FILE **fp)
{
	struct prof_err err = {0};

	if (!strcmp(o->output, "-")) {
		*fp = stdout;
		return 0;
	}
	*fp = prof_afile_open(af, o->output, &err);
	if (!*fp) {
		cli_err(&err);
		return -1;
	}
	return 0;
}

int
output_close(struct opts *o, struct prof_afile *af, FILE *fp, int ok)
{
	struct prof_err err = {0};

	if (fp == stdout)
		return cli_finish(0) == 0 ? 0 : -1;
	if (!ok) {
		prof_afile_abort(af);
		return 0;
	}
	if (prof_afile_commit(af, &err) < 0) {
		cli_err(&err);
		return -1;
	}
	return 0;
}

/* What an interrupted run says: the truth about what was written. */
void
output_say_interrupted(struct opts *o, struct run_state *r)
{
	if (r->out == stdout && r->samples)
		cli_say("interrupted; %ld complete sample(s) were written to "
			"standard output before it, none after: the run is "
			"incomplete",
			r->samples);
	else if (r->out == stdout)
		cli_say("interrupted; no sample written");
	else
		cli_say("interrupted; no output written ('%s' left as it was)",
			o->output);
}

/* output_write_sample() of a command's sample s, which is taken over; a failed
 * write is said once, naming output. Returns 0 or -1. */
int
output_put_sample(struct run_state *r, struct json_object *s,
		  const char *output)
{
	int rc = output_write_sample(r, s);

	json_object_put(s);
	if (rc < 0)
		cli_say("cannot write the samples to '%s'", output);
	return rc < 0 ? -1 : 0;
}

void
output_add_fields(struct json_object *o, const struct output_field *f,
		  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		json_object_object_add(o, f[i].key,
				       json_object_new_int64(f[i].value));
}

int
output_end(struct opts *o, struct prof_afile *af, struct run_state *r, int ok)
{
	prof_lines_free(&r->out_lines);
	if (output_close(o, af, r->out ? r->out : stdout, ok) < 0)
		ok = 0;
	return ok;
}
