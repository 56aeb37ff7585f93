/* prof-export: a results file in other tools' formats: CSV, Bencher's BMF,
 * Google Benchmark's JSON. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/afile.h"
#include "base/json.h"
#include "base/out.h"
#include "cli/cli.h"
#include "verdict/verdict.h"
#include "model/runview.h"
#include "model/sample.h"

struct opts {
	const char *format, *output, *comparisons;
};

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-export --format csv|bmf|gbench [-o FILE]\n" "            [--comparisons FILE] RESULTS"),
	CLI_TEXT(
	"Write the results file RESULTS (schema 1 or 2; - for stdin) in\n"
	"another tool's format:\n"
	"  csv     one row per sample with a header: run_id, commit,\n"
	"          workload, backend, segment_id, category, phase, kind,\n"
	"          index, duration_ms, outcome, reason, instructions,\n"
	"          host_peak_bytes, host_allocs, host_allocated_bytes,\n"
	"          rss_peak_bytes, device_peak_allocated_bytes (RFC 4180\n"
	"          quoting; empty for none; a\n"
	"          text that begins with = + - @, a tab or a CR gets a ' in\n"
	"          front, so that no spreadsheet runs it as a formula)\n"
	"  bmf     Bencher Metric Format JSON: per row, \"latency\" with\n"
	"          value = median, lower_value = min, upper_value = max in\n"
	"          nanoseconds, \"instructions\" where counted (a time\n"
	"          row's: its count row's, whose segment differs only in\n"
	"          valgrind's version), and the\n"
	"          memory measures heap-peak-bytes, allocations,\n"
	"          bytes-allocated, rss-peak-bytes, device-peak-bytes\n"
	"          (median, min, max)\n"
	"  gbench  Google Benchmark JSON, as tools/compare.py reads it: a\n"
	"          context and one iteration entry per sample (the row's\n"
	"          repetitions), real_time in ns; cpu_time the sample's\n"
	"          CPU time (its wall time where it says none), iterations\n"
	"          and threads the sample's (1: one call); the row's memory\n"
	"          medians as max_bytes_used, allocs_per_iter,\n"
	"          total_allocated_bytes, rss_peak_bytes and\n"
	"          device_peak_allocated_bytes\n"
	"A row is named WORKLOAD/BACKEND (and /SEGMENT_ID when the file\n"
	"holds it in several segments, a count row that a time row\n"
	"carries not counted); a Google Benchmark row (whatever its\n"
	"category) by its benchmark's own name, its fixture (BM_crc32/4096),\n"
	"so that compare.py matches the export with the original. Only the\n"
	"warm timing and browser\n"
	"samples that succeeded enter bmf and gbench. With --comparisons,\n"
	"each row's verdict comes too, as status (improved, warning,\n"
	"stable, unsettled, new, incomparable) and status_reason, and a time\n"
	"row's threshold_pct (its time threshold, %): three more csv\n"
	"columns (status and reason for timing, browser, instruction and\n"
	"memory samples: a memory sample's is its metrics' most severe;\n"
	"threshold_pct for timing and browser samples; empty for the\n"
	"others), three more keys in each bmf metric of time and gbench\n"
	"entry (status and status_reason in a count metric; and a gbench\n"
	"entry's memory_status and memory_status_reason)."),
	CLI_GROUP("options:"),
	CLI_STRING("format", 'f', "F", struct opts, format,
		"csv, bmf or gbench"),
	CLI_STRING("output", 'o', "FILE", struct opts, output,
		"write there, atomically (default -, stdout)"),
	CLI_STRING("comparisons", 0, "FILE", struct opts, comparisons,
		"prof-diff's comparisons.json of RESULTS (of\n"
		"its run id, and of its rows only)"),
	CLI_TEXT(
	"example:\n"
	"  prof-export --format bmf run/results.json >bmf.json &&\n"
	"      bencher run --adapter json --file bmf.json"),
	CLI_TEXT(
	"Exit status: 0 written, 2 bad arguments, a malformed results file,\n"
	"comparisons that are not of it, or a failed write."),
	CLI_STANDARD,
	CLI_END,
};

struct export {
	struct prof_runview v;
	const struct prof_runrow *rows;
	long n;
	FILE *fp;
	/* With --comparisons: each row's verdicts (else NULL), borrowed
	 * from the document. */
	struct prof_runverdict *verdicts;
	struct json_object *comparisons;
	/* Of each row: the row that holds its instruction count
	 * (prof_runview_count_row(); -1: none), and whether it is a count
	 * row whose count a time row carries, with no entry of its own. */
	long *count_of;
	unsigned char *carried;
	/* Of each row: whether it is a Google Benchmark benchmark's (its
	 * segment keys libbenchmark's build type: prof-merge --gbench, or a
	 * binary's run, whatever category its side file gives); for
	 * --format gbench, what each of its aggregated samples says beside
	 * its time, in the row's order (reps[i][k] is r->v[k]'s). */
	unsigned char *gbench;
	struct gb_rep **reps;
	size_t *n_reps;
};

/* What a Google Benchmark entry gives of a sample besides its time. */
struct gb_rep {
	double cpu_ms;		/* NAN: the sample says none */
	long long iterations;	/* 1: one call */
	long long threads;
};

/* The order of severity of a status, for a memory sample's one cell. */
static int
severity(const char *status)
{
	static const char *const order[] = {"stable", "improved", "new",
					    "unsettled", "incomparable",
					    "warning", NULL};
	int i;

	for (i = 0; status && order[i]; i++)
		if (!strcmp(status, order[i]))
			return i;
	return -1;
}

/* The name gbench's list stands in for while its frame is printed. */
#define LIST_MARK "prof-export: the benchmarks"

/*
 * One CSV text field: quoted when it holds a comma, quote or line break.
 * A text that a spreadsheet would take for a formula (it begins with '=',
 * '+', '-', '@', a tab or a carriage return: a commit or a reason from
 * outside) is neutralised as OWASP advises: a single quote before it, the
 * whole quoted. Numbers are written by csv_num(), never through here.
 */
static void
csv_field(FILE *fp, const char *s, int last)
{
	int formula = s && s[0] && strchr("=+-@\t\r", s[0]);

	if (s && (formula || strpbrk(s, ",\"\r\n"))) {
		fputc('"', fp);
		if (formula)
			fputc('\'', fp);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', fp);
			fputc(*s, fp);
		}
		fputc('"', fp);
	} else if (s) {
		fputs(s, fp);
	}
	fputs(last ? "\r\n" : ",", fp);
}

/* A number as its shortest text, or "" for none. */
static void
csv_num(FILE *fp, struct json_object *o)
{
	if (json_object_is_type(o, json_type_int))
		fprintf(fp, "%lld", (long long)json_object_get_int64(o));
	else if (prof_json_is_number(o))
		fprintf(fp, "%.15g", prof_json_number(o));
	fputc(',', fp);
}

/*
 * The verdict of a sample's row that speaks of it: the time verdict for
 * timing and browser samples, the count verdict for instruction samples,
 * for a memory sample the most severe of its metrics' (warning,
 * incomparable, new, improved, stable) with the reasons of the metrics
 * that have it ("host_peak_bytes: heap peak ...; ..."), none for the other
 * phases (profile). *buf holds such a joined reason; the caller frees it.
 */
static void
mem_verdict(const struct prof_runverdict *vd, struct json_object *s,
	    const char **status, const char **reason, char **buf)
{
	size_t len = 0;
	double x;
	int m, worst = -1;

	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (vd->mem_status[m] &&
		    (prof_cmp_mem_value(s, (enum prof_cmp_mem)m, &x) ||
		     prof_sample_is(s, "outcome", "error")) &&
		    severity(vd->mem_status[m]) > worst)
			worst = severity(vd->mem_status[m]);
	for (m = 1; worst >= 0 && m < PROF_CMP_MEM_N; m++) {
		const char *r = vd->mem_reason[m];
		char *nb;

		if (!vd->mem_status[m] ||
		    severity(vd->mem_status[m]) != worst ||
		    !(prof_cmp_mem_value(s, (enum prof_cmp_mem)m, &x) ||
		      prof_sample_is(s, "outcome", "error")))
			continue;
		*status = vd->mem_status[m];
		if (!r)
			continue;
		nb = realloc(*buf, len + strlen(prof_cmp_metrics[m].key) +
					   strlen(r) + 5);
		if (!nb)
			break;
		*buf = nb;
		len += (size_t)sprintf(*buf + len, "%s%s: %s", len ? "; " : "",
				       prof_cmp_metrics[m].key, r);
	}
	*reason = *buf;
}

static void
sample_verdict(struct export *e, struct json_object *s, const char **status,
	       const char **reason, char **buf, double *threshold)
{
	const char *w = prof_json_str(s, "workload");
	const char *b = prof_json_str(s, "backend");
	const char *seg = prof_runview_segment(&e->v,
					       prof_json_str(s, "segment_id"));
	const struct prof_runverdict *vd;
	long k;

	*status = *reason = NULL;
	*threshold = 0;
	k = prof_runview_row(&e->v, w ? w : "", b ? b : "", seg);
	if (k < 0)
		return;
	vd = &e->verdicts[k];
	if (prof_sample_is(s, "phase", "timing") ||
	    prof_sample_is(s, "phase", "browser")) {
		*status = vd->status;
		*reason = vd->reason;
		*threshold = vd->threshold_pct;
	} else if (prof_sample_is(s, "phase", "instructions")) {
		*status = vd->count_status;
		*reason = vd->count_reason;
	} else if (prof_sample_is(s, "phase", "memory")) {
		mem_verdict(vd, s, status, reason, buf);
	}
}

/* Whether a row has values of any memory metric. */
static int
has_memory(const struct prof_runrow *r)
{
	int m;

	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (r->mem_st[m].n)
			return 1;
	return 0;
}

/* A status and its reason as a bmf metric's keys (null for none). */
static void
add_status(struct json_object *o, const char *status, const char *reason)
{
	json_object_object_add(o, "status",
			       status ? json_object_new_string(status) : NULL);
	json_object_object_add(o, "status_reason",
			       reason ? json_object_new_string(reason) : NULL);
}

/* A row's time (or count) verdict into a bmf metric or a gbench entry as
 * status and status_reason (null where the row has none), and a time
 * verdict's threshold_pct (null: none). */
static void
add_verdict(struct json_object *o, const struct prof_runverdict *vd,
	    int count)
{
	add_status(o, count ? vd->count_status : vd->status,
		   count ? vd->count_reason : vd->reason);
	if (!count)
		json_object_object_add(o, "threshold_pct",
				       vd->threshold_pct > 0 ?
					       prof_json_double(
						       vd->threshold_pct) :
					       NULL);
}

/* One CSV line of a sample, on the second walk over the file. */
static int
csv_line(void *arg, struct json_object *s, struct prof_err *err)
{
	struct export *e = arg;
	char sid[17];
	int m;

	if (prof_sample_id(prof_runview_segment(&e->v,
			prof_json_str(s, "segment_id")), sid) < 0)
		return prof_err_set(err, "out of memory");
	{
		csv_field(e->fp, prof_runview_str(&e->v, "run_id"), 0);
		csv_field(e->fp, prof_runview_str(&e->v, "commit"), 0);
		csv_field(e->fp, prof_json_str(s, "workload"), 0);
		csv_field(e->fp, prof_json_str(s, "backend"), 0);
		csv_field(e->fp, sid, 0);
		csv_field(e->fp, prof_json_str(s, "category"), 0);
		csv_field(e->fp, prof_json_str(s, "phase"), 0);
		csv_field(e->fp, prof_json_str(s, "kind"), 0);
		csv_num(e->fp, prof_json_get(s, "index"));
		csv_num(e->fp, prof_json_get(s, "duration_ms"));
		csv_field(e->fp, prof_json_str(s, "outcome"), 0);
		csv_field(e->fp, prof_json_str(s, "reason"), 0);
		csv_num(e->fp, json_object_is_type(prof_json_get(s, "instructions"),
						   json_type_int) ?
				       prof_json_get(s, "instructions") :
				       NULL);
		/* The sample's memory numbers as it records them. */
		for (m = 1; m < PROF_CMP_MEM_N; m++) {
			struct json_object *x = prof_json_get(
				prof_json_get(s, "memory"),
				prof_cmp_metrics[m].key);

			if (prof_json_is_number(x))
				fprintf(e->fp, "%.15g", prof_json_number(x));
			if (m + 1 < PROF_CMP_MEM_N)
				fputc(',', e->fp);
		}
		if (e->verdicts) {
			const char *status = NULL, *reason = NULL;
			char *buf = NULL;
			double th;

			sample_verdict(e, s, &status, &reason, &buf, &th);
			fputc(',', e->fp);
			csv_field(e->fp, status, 0);
			csv_field(e->fp, reason, 0);
			if (th > 0)
				fprintf(e->fp, "%g", th);
			fputs("\r\n", e->fp);
			free(buf);
		} else {
			fputs("\r\n", e->fp);
		}
	}
	return 0;
}

/* One line per sample: the file is walked again, so memory holds one. */
static int
write_csv(struct export *e, struct prof_err *err)
{
	int m;

	fputs("run_id,commit,workload,backend,segment_id,category,phase,kind,"
	      "index,duration_ms,outcome,reason,instructions",
	      e->fp);
	/* A column per memory metric, as csv_line() writes them. */
	for (m = 1; m < PROF_CMP_MEM_N; m++)
		fprintf(e->fp, ",%s", prof_cmp_metrics[m].key);
	fputs(e->verdicts ? ",status,status_reason,threshold_pct\r\n" : "\r\n",
	      e->fp);
	return prof_runview_each(&e->v, csv_line, e, err);
}

/*
 * Whether row i has an entry of its own in bmf: time samples, memory
 * values or a count that no time row carries.
 */
static int
has_entry(const struct export *e, long i)
{
	const struct prof_runrow *r = &e->rows[i];

	return !e->carried[i] &&
	       (r->n || r->instructions >= 0 || has_memory(r));
}

/*
 * WORKLOAD/BACKEND, and /SEGMENT_ID when that pair has entries of several
 * rows: a count row that a time row carries is not one, so that a run
 * with counts names its rows as a run without them.
 */
static void
row_name(struct export *e, long i, char *buf, size_t n)
{
	const struct prof_runrow *r = &e->rows[i];
	size_t from, to, k;
	int entries = 0, several;

	prof_runrow_span(e->rows, (size_t)e->n, (size_t)i, &from, &to);
	for (k = from; k < to; k++)
		entries += (long)k == i || has_entry(e, (long)k);
	several = entries > 1;
	/* A Google Benchmark row (prof-merge --gbench, a gbench binary's
	 * workload, whatever its category) has the benchmark's own name as
	 * its fixture: given back, so that compare.py matches the export
	 * with the original. */
	if (e->gbench[i] && r->fixture)
		snprintf(buf, n, "%s%s%s", r->fixture, several ? "/" : "",
			 several ? r->segment_id : "");
	else
		snprintf(buf, n, "%s/%s%s%s", r->workload, r->backend,
			 several ? "/" : "", several ? r->segment_id : "");
}

/* Whether row r is a Google Benchmark benchmark's: its category says so
 * (a file of before side files), or its segment keys libbenchmark's build
 * type (gbench.h). */
static int
is_gbench_row(const struct prof_runrow *r)
{
	struct json_object *seg;
	int yes;

	if (!strcmp(r->category, "gbench"))
		return 1;
	seg = r->segment ? json_tokener_parse(r->segment) : NULL;
	yes = json_object_object_get_ex(seg, "gbench_build_type", NULL);
	json_object_put(seg);
	return yes;
}

/* Find each row's count and the count rows the time rows carry, and the
 * Google Benchmark rows. 0, or -1 when out of memory. */
static int
pair_counts(struct export *e)
{
	long i;

	e->count_of = calloc(e->n ? (size_t)e->n : 1, sizeof(*e->count_of));
	e->carried = calloc(e->n ? (size_t)e->n : 1, 1);
	e->gbench = calloc(e->n ? (size_t)e->n : 1, 1);
	if (!e->count_of || !e->carried || !e->gbench)
		return -1;
	for (i = 0; i < e->n; i++)
		e->gbench[i] = (unsigned char)is_gbench_row(&e->rows[i]);
	for (i = 0; i < e->n; i++)
		e->count_of[i] = prof_runview_count_row(&e->v, (size_t)i);
	for (i = 0; i < e->n; i++)
		if (e->rows[i].n && e->count_of[i] >= 0 && e->count_of[i] != i)
			e->carried[e->count_of[i]] = 1;
	return 0;
}

static struct json_object *
metric(double value, double lower, double upper)
{
	struct json_object *m = json_object_new_object();

	json_object_object_add(m, "value", prof_json_double(value));
	if (isfinite(lower))
		json_object_object_add(m, "lower_value",
				       prof_json_double(lower));
	if (isfinite(upper))
		json_object_object_add(m, "upper_value",
				       prof_json_double(upper));
	return m;
}

static struct json_object *
make_bmf(struct export *e)
{
	struct json_object *doc = json_object_new_object();
	long i;
	int k;

	for (i = 0; doc && i < e->n; i++) {
		const struct prof_runrow *r = &e->rows[i];
		struct json_object *b;
		char name[1024];

		long c = e->count_of[i];

		if (!has_entry(e, i))
			continue;
		b = json_object_new_object();
		if (r->n) {
			struct json_object *m = metric(r->st.median * 1e6,
						       r->st.min * 1e6,
						       r->st.max * 1e6);

			if (e->verdicts)
				add_verdict(m, &e->verdicts[i], 0);
			json_object_object_add(b, "latency", m);
		}
		if (c >= 0) {
			struct json_object *m = json_object_new_object();

			json_object_object_add(m, "value",
					       json_object_new_int64(
						       e->rows[c].instructions));
			if (e->verdicts)
				add_verdict(m, &e->verdicts[c], 1);
			json_object_object_add(b, "instructions", m);
		}
		/* Each memory metric as a measure of its own: the median,
		 * min and max of the values its memory row judges. */
		for (k = 1; k < PROF_CMP_MEM_N; k++) {
			const struct prof_stats *st = &r->mem_st[k];
			struct json_object *m;

			if (!st->n)
				continue;
			m = metric(st->median, st->min, st->max);
			if (e->verdicts)
				add_status(m, e->verdicts[i].mem_status[k],
					   e->verdicts[i].mem_reason[k]);
			json_object_object_add(b, prof_cmp_metrics[k].bmf, m);
		}
		row_name(e, i, name, sizeof(name));
		json_object_object_add(doc, name, b);
	}
	return doc;
}

/* Google Benchmark's context: the run and its first sample's machine. */
static struct json_object *
gbench_context(struct export *e)
{
	struct json_object *ctx = json_object_new_object();
	struct json_object *env = prof_runview_env(&e->v);

	json_object_object_add(ctx, "date", json_object_new_string(
		prof_runview_str(&e->v, "timestamp_utc")));
	json_object_object_add(ctx, "executable",
			       json_object_new_string("prof"));
	json_object_object_add(ctx, "num_cpus", json_object_new_int64(
		(long long)prof_json_number(prof_json_get(env, "cpu_count"))));
	json_object_object_add(ctx, "mhz_per_cpu", json_object_new_int(0));
	json_object_object_add(ctx, "cpu_scaling_enabled",
			       json_object_new_boolean(0));
	json_object_object_add(ctx, "caches", json_object_new_array());
	json_object_object_add(ctx, "library_build_type",
			       json_object_new_string("release"));
	json_object_object_add(ctx, "prof_run_id", json_object_new_string(
		prof_runview_str(&e->v, "run_id")));
	json_object_object_add(ctx, "prof_commit", json_object_new_string(
		prof_runview_str(&e->v, "commit")));
	json_object_object_add(ctx, "prof_cpu_model",
			       json_object_get(prof_json_get(env, "cpu_model")));
	return ctx;
}

/* One iteration entry: repetition k of row r, rep what its sample says
 * besides its time. */
static struct json_object *
gbench_entry(const struct prof_runrow *r, const struct gb_rep *rep,
	     long long instructions, const char *name, long family, size_t k)
{
	struct json_object *b = json_object_new_object();
	int m;

	json_object_object_add(b, "name", json_object_new_string(name));
	json_object_object_add(b, "family_index",
			       json_object_new_int64(family));
	json_object_object_add(b, "per_family_instance_index",
			       json_object_new_int(0));
	json_object_object_add(b, "run_name", json_object_new_string(name));
	json_object_object_add(b, "run_type",
			       json_object_new_string("iteration"));
	json_object_object_add(b, "repetitions",
			       json_object_new_int64((long long)r->n));
	json_object_object_add(b, "repetition_index",
			       json_object_new_int64((long long)k));
	json_object_object_add(b, "threads",
			       json_object_new_int64(rep->threads));
	json_object_object_add(b, "iterations",
			       json_object_new_int64(rep->iterations));
	json_object_object_add(b, "real_time",
			       prof_json_double(r->v[k] * 1e6));
	/* compare.py reads a CPU time of every entry: a sample that says
	 * none (a browser row, a file older than cpu_ms) gives its wall
	 * time, as the export did for all before. */
	json_object_object_add(b, "cpu_time",
			       prof_json_double((isnan(rep->cpu_ms) ?
							 r->v[k] :
							 rep->cpu_ms) *
						1e6));
	json_object_object_add(b, "time_unit", json_object_new_string("ns"));
	if (instructions >= 0)
		json_object_object_add(b, "instructions",
				       json_object_new_int64(instructions));
	/* The row's memory: the median of each metric, under the keys of
	 * Google Benchmark's memory manager (one call is one iteration),
	 * the RSS peak as a user counter. */
	for (m = 1; m < PROF_CMP_MEM_N; m++)
		if (r->mem_st[m].n)
			json_object_object_add(
				b, prof_cmp_metrics[m].gbench,
				prof_json_double(r->mem_st[m].median));
	return b;
}

/* The memory verdicts of a gbench entry: "memory_status" and
 * "memory_status_reason", objects by the counters' keys (null where the
 * row has no memory values). */
static void
add_mem_verdicts(struct json_object *b, const struct prof_runrow *r,
		 const struct prof_runverdict *vd)
{
	struct json_object *st = NULL, *why = NULL;
	int m;

	for (m = 1; has_memory(r) && m < PROF_CMP_MEM_N; m++) {
		if (!r->mem_st[m].n)
			continue;
		if (!st) {
			st = json_object_new_object();
			why = json_object_new_object();
		}
		json_object_object_add(st, prof_cmp_metrics[m].gbench,
				       vd->mem_status[m] ?
					       json_object_new_string(
						       vd->mem_status[m]) :
					       NULL);
		json_object_object_add(why, prof_cmp_metrics[m].gbench,
				       vd->mem_reason[m] ?
					       json_object_new_string(
						       vd->mem_reason[m]) :
					       NULL);
	}
	json_object_object_add(b, "memory_status", st);
	json_object_object_add(b, "memory_status_reason", why);
}

#define JSON_FLAGS                                                        \
	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |               \
	 JSON_C_TO_STRING_NOSLASHESCAPE)

/* An entry as the pretty printer puts it two levels in: each of its lines
 * indented by four spaces (json-c escapes a newline inside a string). */
static void
put_entry(FILE *fp, struct json_object *b, int first)
{
	const char *t = json_object_to_json_string_ext(b, JSON_FLAGS);

	fputs(first ? "    " : ",\n    ", fp);
	for (; *t; t++) {
		fputc(*t, fp);
		if (*t == '\n')
			fputs("    ", fp);
	}
}

/* One sample into its row's reps (prof_runview_each()). */
static int
take_rep(void *arg, struct json_object *s, struct prof_err *err)
{
	struct export *e = arg;
	const char *w = prof_json_str(s, "workload");
	const char *b = prof_json_str(s, "backend");
	struct json_object *it = prof_json_get(s, "iterations");
	struct json_object *th = prof_json_get(s, "threads");
	struct gb_rep *reps, *rep;
	long k;

	if (!prof_runview_aggregated(s))
		return 0;
	k = prof_runview_row(&e->v, w ? w : "", b ? b : "",
			     prof_runview_segment(&e->v,
						  prof_json_str(s, "segment_id")));
	if (k < 0 || e->n_reps[k] >= e->rows[k].n)
		return prof_err_set(err, "a sample of no row read again");
	reps = e->reps[k];
	if (!reps) {
		reps = calloc(e->rows[k].n, sizeof(*reps));
		if (!reps)
			return prof_err_set(err, "out of memory");
		e->reps[k] = reps;
	}
	rep = &reps[e->n_reps[k]++];
	rep->cpu_ms = prof_json_numf(s, "cpu_ms");
	rep->iterations = json_object_is_type(it, json_type_int) &&
				  json_object_get_int64(it) >= 1 ?
			  json_object_get_int64(it) :
			  1;
	rep->threads = json_object_is_type(th, json_type_int) &&
			       json_object_get_int64(th) >= 1 ?
		       json_object_get_int64(th) :
		       1;
	return 0;
}

/* Each row's reps, from a second walk of the file. 0, or -1 with err. */
static int
collect_reps(struct export *e, struct prof_err *err)
{
	e->reps = calloc(e->n ? (size_t)e->n : 1, sizeof(*e->reps));
	e->n_reps = calloc(e->n ? (size_t)e->n : 1, sizeof(*e->n_reps));
	if (!e->reps || !e->n_reps)
		return prof_err_set(err, "out of memory");
	return prof_runview_each(&e->v, take_rep, e, err);
}

static void
free_reps(struct export *e)
{
	long i;

	for (i = 0; e->reps && i < e->n; i++)
		free(e->reps[i]);
	free(e->reps);
	free(e->n_reps);
}

/*
 * Google Benchmark JSON has one entry per aggregated sample, too many to
 * hold as objects: the document is printed around a stand-in for its list
 * and the entries one at a time in its place, as prof_out_json() would
 * print the whole.
 */
static int
write_gbench(struct export *e, struct prof_err *err)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *list = json_object_new_array();
	const char *text, *mark, *line;
	long i, family = 0;
	size_t k, entries = 0;

	for (i = 0; i < e->n; i++)
		entries += e->rows[i].n;
	if (collect_reps(e, err) < 0) {
		json_object_put(doc);
		json_object_put(list);
		return -1;
	}
	if (!doc || !list) {
		json_object_put(doc);
		json_object_put(list);
		return prof_err_set(err, "out of memory");
	}
	json_object_object_add(doc, "context", gbench_context(e));
	if (entries)
		json_object_array_add(list, json_object_new_string(LIST_MARK));
	json_object_object_add(doc, "benchmarks", list);
	text = json_object_to_json_string_ext(doc, JSON_FLAGS);
	mark = entries ? strstr(text, "\"" LIST_MARK "\"") : NULL;
	if (!mark) {
		fprintf(e->fp, "%s\n", text);
		json_object_put(doc);
		return 0;
	}
	for (line = mark; line > text && line[-1] == ' '; line--)
		;
	fwrite(text, 1, (size_t)(line - text), e->fp);
	for (i = 0; i < e->n; i++) {
		const struct prof_runrow *r = &e->rows[i];
		char name[1024];

		if (!r->n)
			continue;
		row_name(e, i, name, sizeof(name));
		if (e->n_reps[i] != r->n) {
			json_object_put(doc);
			return prof_err_set(err, "the file changed while it "
						 "was read");
		}
		for (k = 0; k < r->n; k++) {
			long c = e->count_of[i];
			struct json_object *b = gbench_entry(
				r, &e->reps[i][k],
				c >= 0 ? e->rows[c].instructions : -1, name,
				family, k);

			if (b && e->verdicts) {
				add_verdict(b, &e->verdicts[i], 0);
				add_mem_verdicts(b, r, &e->verdicts[i]);
			}
			if (!b) {
				json_object_put(doc);
				return prof_err_set(err, "out of memory");
			}
			put_entry(e->fp, b, !family && !k);
			json_object_put(b);
		}
		family++;
	}
	fprintf(e->fp, "%s\n", mark + strlen(LIST_MARK) + 2);
	json_object_put(doc);
	return 0;
}

/* The comparisons of the results, checked: each row's verdicts. 0, or
 * -1 after saying why. */
static int
load_verdicts(struct export *e, const char *comparisons)
{
	struct prof_err err = {0};
	struct json_object *cmp;

	e->verdicts = calloc(e->n ? (size_t)e->n : 1, sizeof(*e->verdicts));
	if (!e->verdicts) {
		cli_say("out of memory");
		return -1;
	}
	cmp = prof_json_load(comparisons, &err);
	if (!cmp || prof_runview_verdicts(&e->v, cmp, e->verdicts, &err) < 0) {
		json_object_put(cmp);
		prof_err_file(&err, comparisons);
		cli_err(&err);
		return -1;
	}
	e->comparisons = cmp;
	return 0;
}

static int
export(const char *format, const char *output, const char *results,
       const char *comparisons)
{
	struct export e = {0};
	struct prof_err err = {0};
	struct prof_afile af = {0};
	struct json_object *doc = NULL;
	int rc = PROF_EXIT_FAILURE, to_stdout = !strcmp(output, "-");
	int csv = !strcmp(format, "csv");

	/* CSV and gbench walk the file twice: stdin is kept in a temporary
	 * file. */
	if (prof_runview_load(&e.v, results, csv || !strcmp(format, "gbench"),
			      &err) < 0) {
		cli_err(&err);
		goto out;
	}
	e.n = (long)prof_runview_rows(&e.v, &e.rows);
	if (pair_counts(&e) < 0) {
		cli_say("out of memory");
		goto out;
	}
	if (comparisons && load_verdicts(&e, comparisons) < 0)
		goto out;
	if (!strcmp(format, "bmf")) {
		doc = make_bmf(&e);
		if (!doc) {
			cli_say("out of memory");
			goto out;
		}
		if (prof_out_json(output, doc, &err) < 0)
			goto failed;
		rc = PROF_EXIT_OK;
		goto out;
	}
	/* Every check passed on the first walk: what is written now is
	 * written whole (to a file through a temporary sibling). */
	e.fp = to_stdout ? stdout : prof_afile_open(&af, output, &err);
	if (!e.fp) {
		cli_err(&err);
		goto out;
	}
	if ((csv ? write_csv(&e, &err) : write_gbench(&e, &err)) < 0) {
		if (!to_stdout)
			prof_afile_abort(&af);
		cli_err(&err);
		goto out;
	}
	if (!to_stdout && prof_afile_commit(&af, &err) < 0)
		goto failed;
	rc = PROF_EXIT_OK;
	goto out;
failed:
	/* A failed stdout is reported once, by cli_finish(). */
	if (!to_stdout)
		cli_err(&err);
out:
	json_object_put(doc);
	free(e.verdicts);
	free(e.count_of);
	free(e.carried);
	free(e.gbench);
	free_reps(&e);
	json_object_put(e.comparisons);
	prof_runview_free(&e.v);
	return cli_finish(rc);
}

int
main(int argc, char **argv)
{
	struct opts o = {.output = "-"};
	const char *format, *output, *comparisons;
	const char *inputs[2];

	cli_init(argv[0]);
	if (cli_opt_parse_all(option_table, argc, argv, &o) < 0)
		return PROF_EXIT_FAILURE;
	format = o.format;
	output = o.output;
	comparisons = o.comparisons;
	if (!format)
		return cli_fail("give the format: --format csv, bmf or gbench");
	if (strcmp(format, "csv") && strcmp(format, "bmf") &&
	    strcmp(format, "gbench"))
		return cli_fail("--format: '%s' is not csv, bmf or gbench",
				format);
	if (optind >= argc)
		return cli_fail("give the results file (- for stdin)");
	if (optind + 1 < argc)
		return cli_fail("unexpected argument '%s'", argv[optind + 1]);
	if (!output[0] || (comparisons && !comparisons[0]))
		return cli_fail("empty file name");
	if (comparisons && !strcmp(comparisons, "-") &&
	    !strcmp(argv[optind], "-"))
		return cli_fail("stdin ('-') can be given once");
	inputs[0] = argv[optind];
	inputs[1] = comparisons;
	if (cli_not_input("-o", output, inputs, 2) < 0 ||
	    cli_trap_signals(output) < 0)
		return PROF_EXIT_FAILURE;
	return export(format, output, argv[optind], comparisons);
}
