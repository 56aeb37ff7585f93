/* summary.c: summary.md: its opening, header, the table of rows, the
 * unsettled rows and the channels' disagreements, the segments and errors,
 * written whole (report-int.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/afile.h"
#include "base/id.h"
#include "base/json.h"
#include "base/out.h"
#include "cli/cli.h"
#include "kit/page.h"
#include "model/calib.h"
#include "model/stream.h"
#include "verdict/channels.h"
#include "report-int.h"

/* The environment of a sample in words: CPU, OS, compiler, backend,
 * device (and browser). */
static void
env_words(struct json_object *env, char *buf, size_t n)
{
	char os[256], dev[256], cpus[32] = "";
	const char *distro = prof_json_str(env, "distro_name");
	const char *req = prof_json_str(env, "backend_requested");
	const char *backend = str_or(env, "backend", "unknown");
	double ncpu = prof_json_numf(env, "cpu_count");
	size_t off;

	if (isfinite(ncpu))
		snprintf(cpus, sizeof(cpus), ", %.0f CPUs", ncpu);
	if (distro)
		snprintf(os, sizeof(os), "%s, %s %s", distro,
			 str_or(env, "os", "?"), str_or(env, "kernel", "?"));
	else
		snprintf(os, sizeof(os), "%s %s, %s %s",
			 str_or(env, "distro", "?"),
			 str_or(env, "distro_version", "?"),
			 str_or(env, "os", "?"), str_or(env, "kernel", "?"));
	if (prof_json_str(env, "device"))
		snprintf(dev, sizeof(dev), "%s (compute capability %s, CUDA "
			 "runtime %s, driver %s)",
			 prof_json_str(env, "device"),
			 str_or(env, "device_cc", "?"),
			 str_or(env, "cuda_runtime", "?"),
			 str_or(env, "cuda_driver", "?"));
	else
		snprintf(dev, sizeof(dev), "none");
	snprintf(buf, n, "CPU %s (%s%s); OS %s; ",
		 str_or(env, "cpu_model", "unknown"),
		 str_or(env, "machine", "?"), cpus, os);
	off = strlen(buf);
	if (prof_json_str(env, "compiler") && off < n)
		off += (size_t)snprintf(buf + off, n - off, "compiler %s %s; ",
					prof_json_str(env, "compiler"),
					str_or(env, "compiler_version", "?"));
	if (off < n)
		off += (size_t)snprintf(buf + off, n - off, "backend %s",
					backend);
	if (req && strcmp(req, backend) && off < n)
		off += (size_t)snprintf(buf + off, n - off, " (requested %s)",
					req);
	if (off < n)
		off += (size_t)snprintf(buf + off, n - off, "; device %s", dev);
	if (prof_json_str(env, "browser") && off < n)
		snprintf(buf + off, n - off, "; browser %s",
			 prof_json_str(env, "browser"));
}

void
rep_write_header(struct report *r)
{
	size_t i, j, n_words = 0;
	char **words = calloc(r->n_envs ? r->n_envs : 1, sizeof(*words));
	FILE *md = r->md;

	fprintf(md, "# Performance profile ");
	prof_md_write(md, prof_json_str(r->meta, "run_id"), PROF_MD_CODE);
	fprintf(md, "\n\n| | |\n|---|---|\n| run | ");
	prof_md_write(md, prof_json_str(r->meta, "run_id"), CELL_CODE);
	fprintf(md, " |\n| command | ");
	prof_md_write(md, prof_json_str(r->meta, "command"), CELL_CODE);
	fprintf(md, " |\n| commit | ");
	prof_md_write(md, prof_json_str(r->meta, "commit"), CELL_CODE);
	fprintf(md, " |\n| timestamp (UTC) | ");
	prof_md_write(md, prof_json_str(r->meta, "timestamp_utc"),
		      PROF_MD_TEXT);
	fprintf(md, " |\n| samples | %ld |\n| error samples | %ld |\n\n",
		(long)prof_runview_count(&r->view), r->errors);
	fprintf(md, "## Environment\n\n");
	for (i = 0; words && i < r->n_envs; i++) {
		char buf[2048];

		env_words(prof_stream_env(r->view.st, r->envs[i]), buf,
			  sizeof(buf));
		for (j = 0; j < n_words; j++)
			if (!strcmp(words[j], buf))
				break;
		if (j < n_words)
			continue;
		words[n_words] = strdup(buf);
		if (!words[n_words])
			break;
		fprintf(md, "- ");
		prof_md_write(md, buf, PROF_MD_TEXT);
		fputc('\n', md);
		n_words++;
	}
	if (!n_words)
		fprintf(md, "- no samples\n");
	fputc('\n', md);
	for (j = 0; j < n_words; j++)
		free(words[j]);
	free(words);
}

/* "`workload` (backend)": a row's name in summary.md. */
static void
write_row_name(FILE *md, const struct prof_verdict *v)
{
	prof_md_write(md, v->workload, PROF_MD_CODE);
	fprintf(md, " (");
	prof_md_write(md, v->backend, PROF_MD_TEXT);
	fputc(')', md);
}

/* Whether a row's status is a verdict the channels can be compared by. */
static int
settled(const struct prof_verdict *v)
{
	return v->status == PROF_CMP_STABLE || v->status == PROF_CMP_WARNING ||
	       v->status == PROF_CMP_IMPROVED;
}

/* Whether a time row and its instruction row both exist but one of them
 * did not settle: the two cannot be said to agree. */
static int
pair_open(const struct prof_verdict *t, const struct prof_verdict *c)
{
	return t && c && (!settled(t) || !settled(c));
}

/*
 * The rows with both channels where one did not settle, by name and
 * both statuses: of them, summary.md says neither that time and
 * instructions agree nor that they disagree.
 */
static void
write_open_pairs(struct report *r, int any, int agree)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	FILE *md = r->md;

	if (agree && !any)
		fprintf(md, "Time and instructions agree on every row where "
			    "both settled.\n");
	if (agree || any)
		fputc('\n', md);
	fprintf(md, "Time and instructions are not compared where one of "
		    "them did not settle:\n\n");
	for (i = 0; i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);
		const struct prof_verdict *c;

		if (!v || rep_is_count_row(v))
			continue;
		c = rep_count_row_of(r, v);
		if (!pair_open(v, c))
			continue;
		fprintf(md, "- ");
		write_row_name(md, v);
		fprintf(md, ": time **");
		prof_md_write(md, v->status_name, PROF_MD_TEXT);
		fprintf(md, "**, instructions **");
		prof_md_write(md, c->status_name, PROF_MD_TEXT);
		fprintf(md, "**\n");
	}
}

/*
 * Rows whose time and instruction statuses differ, each as two facts and
 * what they can mean: time is what the user waits for, counts are the
 * amount of work; more instructions is never read as more time.
 */
static void
write_disagreements(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	FILE *md = r->md;
	int any = 0, open = 0, both = 0;

	for (i = 0; i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);
		const struct prof_verdict *c;
		char line[1024];

		if (!v || rep_is_count_row(v))
			continue;
		c = rep_count_row_of(r, v);
		both += c != NULL;
		if (!prof_channels_time_count(v, c, "**", line, sizeof(line))) {
			open += pair_open(v, c);
			continue;
		}
		if (!any++)
			fprintf(md, "Time and instructions disagree:\n\n");
		fprintf(md, "- ");
		write_row_name(md, v);
		fprintf(md, ": %s\n", line);
	}
	if (!any && !open)
		fprintf(md, "Time and instructions agree on every row that "
			    "has both.\n");
	else if (open)
		write_open_pairs(r, any, both - open - any);
	fputc('\n', md);
}

/* One of prof-why's lists of row v (at most five entries) as a short
 * table. */
static void
write_fn_table(FILE *md, const struct prof_verdict *v,
	       enum prof_verdict_why_kind kind, const char *what)
{
	struct prof_verdict_fn f;
	size_t i;

	fprintf(md, "\n  %s:\n\n  | function | file | self before | "
		    "self after | Δ self | share | inclusive before | "
		    "inclusive after |\n  |---|---|--:|--:|--:|--:|--:|--:|\n",
		what);
	for (i = 0; i < 5 && prof_verdict_fn(v, kind, i, &f) == 0; i++) {
		int odd = f.state && strcmp(f.state, "changed");
		long long sb = prof_verdict_count(f.self_before);
		long long sa = prof_verdict_count(f.self_after);
		char c[4][40];

		prof_fmt_count(c[0], sizeof(c[0]), sb, 0);
		prof_fmt_count(c[1], sizeof(c[1]), sa, 0);
		prof_fmt_count(c[2], sizeof(c[2]), sa - sb, 1);
		prof_fmt_count(c[3], sizeof(c[3]),
			       prof_verdict_count(f.incl_before), 0);
		fprintf(md, "  | ");
		prof_md_write(md, f.name, CELL_CODE);
		if (odd) {
			fputc(' ', md);
			prof_md_write(md, f.state, PROF_MD_TEXT);
		}
		fprintf(md, " | ");
		prof_md_write(md, rep_short_file(f.file), PROF_MD_TEXT);
		fprintf(md, " | %s | %s | %s | ", c[0], c[1], c[2]);
		if (isfinite(f.share))
			fprintf(md, "%.1f%%", 100 * f.share);
		else
			fprintf(md, "-");
		prof_fmt_count(c[2], sizeof(c[2]),
			       prof_verdict_count(f.incl_after), 0);
		fprintf(md, " | %s | %s |\n", c[3], c[2]);
	}
	fputc('\n', md);
}

/*
 * Under a changed row's reason: the functions prof-why found, as short
 * tables: instructions (a time row whose instruction row has them leaves
 * them to that row) and, for a time row, CPU samples.
 */
static void
write_functions(struct report *r, const struct prof_verdict *v)
{
	const struct prof_verdict *c = NULL;

	if (!rep_is_count_row(v))
		c = rep_count_row_of(r, v);
	if (v->why[PROF_VERDICT_WHY_COUNT].n &&
	    !(c && c->why[PROF_VERDICT_WHY_COUNT].present))
		write_fn_table(r->md, v, PROF_VERDICT_WHY_COUNT,
			       "Instructions per function");
	if (v->why[PROF_VERDICT_WHY_TIME].n)
		write_fn_table(r->md, v, PROF_VERDICT_WHY_TIME,
			       "CPU time per function, ns per call "
			       "(gperftools)");
}

/*
 * " W=ID" or " W=\"ID ID...\"": the workloads of the unsettled rows, each
 * once, for a make compare that settles them and runs nothing else (a
 * quick run's selection kept: MODE=full alone would run every
 * workload). "" when they do not fit in n bytes.
 */
static void
settle_w(struct report *r, char *buf, size_t n)
{
	size_t i, k, rows = prof_cmpview_len(&r->rows), off = 0, words = 0;
	int quote;

	buf[0] = '\0';
	for (i = 0; i < rows; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);
		char w[PROF_ID_MAX + 1];

		/* A checked row's workload is an id (base/id.h). */
		if (!v || !v->workload || !rep_row_unsettled(v) ||
		    strlen(v->workload) >= sizeof(w))
			continue;
		/* Copied: the rows read below may let v's row go. */
		snprintf(w, sizeof(w), "%s", v->workload);
		for (k = 0; k < i; k++) {
			const struct prof_verdict *o =
				prof_cmpview_verdict(&r->rows, k);

			if (o && rep_row_unsettled(o) && o->workload &&
			    !strcmp(o->workload, w))
				break;
		}
		if (k < i)
			continue;
		words++;
		if (off + strlen(w) + 8 >= n) {
			buf[0] = '\0';
			return;
		}
		off += (size_t)snprintf(buf + off, n - off, "%s%s",
					off ? " " : "", w);
	}
	if (!words)
		return;
	quote = words > 1;
	memmove(buf + 3 + quote, buf, off + 1);
	memcpy(buf, " W=\"", 3 + quote);
	if (quote)
		strcat(buf, "\"");
}

/* The command that would settle the unsettled rows (compare.h), with W=
 * the unsettled rows' workloads. */
void
rep_settle_command(struct report *r, long repeat, long max, char *buf, size_t n)
{
	char w[1024];

	settle_w(r, w, sizeof(w));
	prof_cmp_settle_command(prof_json_str(r->meta, "command"), repeat, max,
				w, buf, n);
}

/* How many rows are unsettled, and the largest --repeat and --max-repeat
 * of those that are interleaved (0: none is). */
long
rep_unsettled_budget(struct report *r, long *repeat, long *max)
{
	size_t i, n = r->judged ? prof_cmpview_len(&r->rows) : 0;
	long count = 0;

	*repeat = *max = 0;
	for (i = 0; i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);
		long rp, mx;

		if (!v || !rep_row_unsettled(v))
			continue;
		/* -1 where the row is not interleaved: no budget. */
		rp = (long)v->ab.repeat;
		mx = (long)v->ab.max_repeat;
		count++;
		if (mx > *max)
			*max = mx;
		if (rp > *repeat)
			*repeat = rp;
	}
	return count;
}

/* A row's first two cells: its workload and backend. */
static void
row_start(FILE *md, const char *w, const char *b)
{
	fprintf(md, "| ");
	prof_md_write(md, w, CELL_CODE);
	fprintf(md, " | ");
	prof_md_write(md, b, PROF_MD_TEXT);
}

/* A row of the Results table: a time row with its counts beside where
 * the run has any (counts), or an instruction row that has no time row. */
static void
table_row(struct report *r, const struct prof_verdict *v, int counts)
{
	FILE *md = r->md;
	const struct prof_verdict_side *cur = &v->cur;
	double host_b, gpu_b;
	char mn[32], med[32], p90[32], mx[32], host[32], gpu[32];
	char dms[32], dpct[32], ic[32], ipct[32], rt[32], pv[32];
	char cpu[32], cont[48];
	const char *ist;

	if (rep_is_count_row(v)) {
		/* Beside its time row; alone when there is none. */
		if (rep_has_time_row(r, v))
			return;
		rep_count_cells(r, v, ic, sizeof(ic), ipct,
				sizeof(ipct), &ist);
		row_start(md, v->workload, v->backend);
		fprintf(md, " | 0 | - | - | - | - | - | - | - | - | - | "
			    "- | - | - | - | %s | %s | %s |\n",
			ic, ipct, ist);
		return;
	}
	rep_memory_of(r, v, &host_b, &gpu_b);
	prof_page_time(mn, sizeof(mn), cur->min, 0);
	prof_page_time(med, sizeof(med), cur->median, 0);
	prof_page_time(p90, sizeof(p90), cur->p90, 0);
	prof_page_time(mx, sizeof(mx), cur->max, 0);
	rep_cpu_cells(r, v, cpu, sizeof(cpu), cont, sizeof(cont));
	prof_page_bytes(host, sizeof(host), host_b);
	prof_page_bytes(gpu, sizeof(gpu), gpu_b);
	prof_page_time(dms, sizeof(dms), v->delta_ms, 1);
	prof_page_ratio_pct(dpct, sizeof(dpct), v->ratio);
	row_start(md, v->workload, v->backend);
	rep_ratio_cells(v, rt, sizeof(rt), pv, sizeof(pv));
	fprintf(md, " | %lld | %s | %s | %s | %s | %s | %s | %s | %s | "
		    "%s | %s | %s | %s | %s |",
		cur->n, mn, med, cpu, cont, p90, mx, host, gpu, dms, dpct, rt,
		pv, r->judged ? v->status_name : "-");
	if (counts) {
		rep_count_cells(r, rep_count_row_of(r, v), ic,
				sizeof(ic), ipct, sizeof(ipct), &ist);
		fprintf(md, " %s | %s | %s |", ic, ipct, ist);
	}
	fputc('\n', md);
}

/* A row's status against the baseline with its reason (and p), and the
 * functions that explain it; first: the list's heading before it. */
static void
write_reason(struct report *r, const struct prof_verdict *v, int first)
{
	FILE *md = r->md;
	double p = v->p_value;
	const char *why = v->reason;

	if (first)
		fprintf(md, "Statuses against the baseline (the "
			    "Mann-Whitney p-value is shown beside the "
			    "rule, never part of it):\n\n");
	fprintf(md, "- ");
	prof_md_write(md, v->workload, PROF_MD_CODE);
	fprintf(md, " (");
	prof_md_write(md, v->backend, PROF_MD_TEXT);
	fprintf(md, "%s): **%s**: ",
		rep_is_count_row(v) ? ", instructions" : "", v->status_name);
	prof_md_write(md, why, PROF_MD_TEXT);
	/* An unsettled row's reason names its p already. */
	if (isfinite(p) && !(why && strstr(why, "(p = ")))
		fprintf(md, "; p = %.3g", p);
	fputc('\n', md);
	write_functions(r, v);
}

/* summary.md: the unsettled rows, and the command that would settle
 * them. */
static void
write_unsettled(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	long repeat, max;
	char cmd[2300];

	if (!rep_unsettled_budget(r, &repeat, &max))
		return;
	fprintf(r->md, "Unsettled (the evidence did not settle within the "
		       "budget: neither warning, improved nor stable):\n\n");
	for (i = 0; i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);

		if (!v || !rep_row_unsettled(v))
			continue;
		fprintf(r->md, "- ");
		prof_md_write(r->md, v->workload, PROF_MD_CODE);
		fprintf(r->md, " (");
		prof_md_write(r->md, v->backend, PROF_MD_TEXT);
		if (v->ab.present)
			fprintf(r->md, "): %lld samples a side",
				v->ab.samples_a_side);
		else
			fprintf(r->md, "): %lld samples", v->cur.n);
		if (isfinite(v->p_value))
			fprintf(r->md, ", p = %.3g", v->p_value);
		fputc('\n', r->md);
	}
	rep_settle_command(r, repeat, max, cmd, sizeof(cmd));
	fprintf(r->md, "\nTo settle them, %s", max ? "run: " : "");
	prof_md_write(r->md, cmd, max ? PROF_MD_CODE : PROF_MD_TEXT);
	fprintf(r->md, "\n\n");
}

void
rep_write_table(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	FILE *md = r->md;
	int reasons = 0, counts = rep_has_counts(r);

	fprintf(md, "## Results\n\n");
	if (!n && !rep_any_memory(r)) {
		fprintf(md, "No timing samples.\n\n");
		return;
	}
	fprintf(md, "| workload | backend | n | min | median | CPU | "
		    "contended | p90 | max | host peak | GPU peak | "
		    "Δ median | "
		    "Δ median %% | ratio | p | status |%s\n",
		counts ? " instructions | Δ instructions % | instructions "
			 "status |" :
			 "");
	fprintf(md, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
		    "--:|--:|---|%s\n",
		counts ? "--:|--:|---|" : "");
	for (i = 0; i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);

		if (v)
			table_row(r, v, counts);
	}
	rep_write_memory_rows(r, counts);
	fputc('\n', md);
	if (!r->judged) {
		fprintf(md, "No baseline comparison was made.\n\n");
		return;
	}
	for (i = 0; i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);

		if (v)
			write_reason(r, v, !reasons++);
	}
	if (reasons)
		fputc('\n', md);
	/* Said, never silently skipped: rows whose outputs cannot be
	 * compared are judged on speed alone. */
	if (r->unchecked) {
		fprintf(md, "Output identity: not checked for %ld sample%s: ",
			r->unchecked, r->unchecked == 1 ? "" : "s");
		prof_md_write(md, r->unchecked_why, PROF_MD_TEXT);
		fprintf(md, ".\n\n");
	}
	write_unsettled(r);
	if (counts)
		write_disagreements(r);
}

/* Copy a temporary file into the summary. */
void
rep_copy_spool(FILE *from, FILE *to)
{
	char buf[65536];
	size_t got;

	if (!from || fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
		return;
	while ((got = fread(buf, 1, sizeof(buf), from)) > 0)
		fwrite(buf, 1, got, to);
}

/* A segment key in words: the fields that tell machines apart. */
static void
segment_words(const char *key, char *buf, size_t n)
{
	struct json_object *seg = json_tokener_parse(key);
	char dev[300] = "";

	if (!json_object_is_type(seg, json_type_object)) {
		snprintf(buf, n, "%s", key);
		json_object_put(seg);
		return;
	}
	if (prof_json_str(seg, "device"))
		snprintf(dev, sizeof(dev), ", device %s",
			 prof_json_str(seg, "device"));
	snprintf(buf, n, "CPU %s (%s); %s %s; compiler %s %s; backend %s%s; "
		 "dtype %s, problem size %s, tile %s%s%s",
		 str_or(seg, "cpu_model", "unknown"),
		 str_or(seg, "machine", "?"), str_or(seg, "distro", "?"),
		 str_or(seg, "distro_version", "?"),
		 str_or(seg, "compiler", "none"),
		 str_or(seg, "compiler_major", ""),
		 str_or(seg, "backend", "?"), dev, str_or(seg, "dtype", "?"),
		 str_or(seg, "problem_size", "?"), str_or(seg, "tile", "?"),
		 prof_json_str(seg, "browser") ? "; browser " : "",
		 prof_json_str(seg, "browser") ? prof_json_str(seg, "browser") :
						 "");
	json_object_put(seg);
}

/* A list of segments a (their keys) in words, one an item. */
static void
segment_list(FILE *md, struct json_object *a)
{
	char words[2048];
	size_t i;

	for (i = 0; i < json_object_array_length(a); i++) {
		segment_words(json_object_get_string(
				      json_object_array_get_idx(a, i)),
			      words, sizeof(words));
		fprintf(md, "- ");
		prof_md_write(md, words, PROF_MD_TEXT);
		fputc('\n', md);
	}
}

/*
 * Rows that are new because the baseline lacks their segment (a run on
 * another CPU model, say): the run's segments and the baseline's, so the
 * reader sees why.
 */
void
rep_write_segments(struct report *r)
{
	size_t i, j, n = prof_cmpview_len(&r->rows), n_new = 0;
	struct json_object *base = NULL, *mine = json_object_new_array();
	struct prof_htab seen = {0};

	for (i = 0; mine && i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);
		const char *seg = v ? v->segment : NULL;
		int has = 0;

		if (!v || v->status != PROF_CMP_NEW || !seg ||
		    !v->has_baseline_segments)
			continue;
		for (j = 0; j < v->n_baseline_segments; j++)
			if (!strcmp(prof_verdict_baseline_segment(v, j), seg))
				has = 1;
		if (has)
			continue;	/* new: only the workload is new */
		n_new++;
		/* Held: the rows read after it may let its row go. */
		json_object_put(base);
		base = json_object_new_array();
		for (j = 0; base && j < v->n_baseline_segments; j++)
			json_object_array_add(
				base, json_object_new_string(
					      prof_verdict_baseline_segment(v,
									    j)));
		if (prof_htab_get(&seen, seg, strlen(seg)) >= 0)
			continue;
		if (prof_htab_put(&seen, seg, strlen(seg), 0) < 0)
			break;
		json_object_array_add(mine, json_object_new_string(seg));
	}
	if (n_new && base) {
		fprintf(r->md, "## Segments\n\n%zu row%s %s `new` because "
			       "the baseline has no row in %s segment:\n\n",
			n_new, n_new == 1 ? "" : "s", n_new == 1 ? "is" : "are",
			json_object_array_length(mine) == 1 ? "this run's" :
							      "these");
		segment_list(r->md, mine);
		fprintf(r->md, "\nThe baseline has %s:\n\n",
			json_object_array_length(base) ?
				"these segments" :
				"no segment (no timing samples)");
		segment_list(r->md, base);
		fputc('\n', r->md);
	}
	prof_htab_free(&seen);
	json_object_put(mine);
	json_object_put(base);
}

void
rep_write_errors(struct report *r)
{
	FILE *md = r->md;

	fprintf(md, "## Errors\n\n");
	if (!r->errors) {
		fprintf(md, "No error samples.\n\n");
		return;
	}
	rep_copy_spool(r->errors_md, md);
	fputc('\n', md);
}

/*
 * The summary's first lines: the machine-drift notes the rows carry (one
 * line, the same on every row; in a merge of shards one per shard that
 * drifted), then the caller's notes.
 */
void
rep_write_opening(struct report *r, const char *const *notes, int n_notes)
{
	size_t i, n = r->judged ? prof_cmpview_len(&r->rows) : 0;
	struct prof_htab seen = {0};
	int k, any = 0;

	for (i = 0; i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);
		const char *d = v ? v->drift : NULL;

		if (!d || prof_htab_get(&seen, d, strlen(d)) >= 0)
			continue;
		if (prof_htab_put(&seen, d, strlen(d), 0) < 0)
			break;
		prof_md_write(r->md, d, PROF_MD_TEXT | PROF_MD_SPANS);
		fputc('\n', r->md);
		any = 1;
	}
	prof_htab_free(&seen);
	for (k = 0; k < n_notes; k++) {
		prof_md_write(r->md, notes[k], PROF_MD_TEXT);
		fputc('\n', r->md);
		any = 1;
	}
	if (any)
		fputc('\n', r->md);
}

/*
 * A first run has no baseline file: one line (of the summary with md set,
 * else the compact table's last) says how to make a baseline from this
 * run, apart from CI's own (cpu-ci: the README's bootstrap), and how to
 * keep judging against it (config.mak). A baseline of that name that is
 * there already is never named to be replaced: the line says ADD=1, which
 * only adds this run's rows to it. The command runs as printed: after a
 * run that prof-baseline would refuse as unsteady it says FORCE=1, and
 * why.
 */
void
rep_first_run_hint(FILE *fp, int md, const char *baseline, const char *results,
		   struct json_object *meta)
{
	static const char ci[] = "(the CI baseline is made from CI runs "
				 "only: the README's \"Baseline bootstrap\")";
	static const char local[] = "baselines/local.json";
	char cmd[4200], name[256], then[512], line[8192], safe[8192];
	char unsteady[300], force[400] = "";
	const char *b, *e;
	struct stat sb;
	int own = 0, there;

	if (!baseline || stat(baseline, &sb) == 0 || errno != ENOENT)
		return;
	/* BASELINE=baselines/NAME.json (not CI's): promote NAME, and the
	 * runs that name it are judged against it from then on. */
	b = !strncmp(baseline, "baselines/", 10) ? baseline + 10 : NULL;
	e = b ? strrchr(b, '.') : NULL;
	if (b && e && !strcmp(e, ".json") && e > b && !strchr(b, '/') &&
	    (size_t)(e - b) < sizeof(name) && strncmp(b, "cpu-ci.json", 12)) {
		snprintf(name, sizeof(name), "%.*s", (int)(e - b), b);
		own = 1;
	} else {
		snprintf(name, sizeof(name), "local");
	}
	there = !own && stat(local, &sb) == 0;
	if (prof_calib_unsteady(meta, unsteady, sizeof(unsteady)))
		snprintf(force, sizeof(force), " (FORCE=1: %s, so its times "
			 "may be noise; a run on a calm machine makes a "
			 "better baseline)", unsteady);
	snprintf(cmd, sizeof(cmd), "make baseline-update FROM=%s NAME=%s%s%s",
		 strcmp(results, "-") ? results : "<run>/results.json", name,
		 there ? " ADD=1" : "", force[0] ? " FORCE=1" : "");
	snprintf(then, sizeof(then), "%s",
		 own ? "" : md ? ", then judge against it: `BASELINE = "
				 "baselines/local.json` in config.mak (or "
				 "`BASELINE=` on each make)"
			       : ", then judge against it: BASELINE = "
				 "baselines/local.json in config.mak (or "
				 "BASELINE= on each make)");
	if (!md) {
		snprintf(line, sizeof(line),
			 "no baseline '%s' yet, so no row is judged: to judge "
			 "the next runs against this one, %s: %s%s%s%s%s",
			 baseline,
			 there ? "add its rows to the local baseline "
				 "that is there"
			       : "make a baseline of it",
			 cmd, force, then, own ? "" : " ", own ? "" : ci);
		printf("%s\n", cli_safe(line, safe, sizeof(safe)));
		return;
	}
	fputs("No baseline yet: ", fp);
	prof_md_write(fp, baseline, PROF_MD_CODE);
	fprintf(fp, " is not there, so no row is judged. To judge the next "
		    "runs against this one, %s: ",
		there ? "add its rows to the local baseline that is there"
		      : "make a baseline of it");
	prof_md_write(fp, cmd, PROF_MD_CODE);
	prof_md_write(fp, force, PROF_MD_TEXT);
	fprintf(fp, "%s%s%s.\n\n", then, own ? "" : " ", own ? "" : ci);
}

/*
 * The summary, written to its temporary file text, to output ("-":
 * stdout) a chunk at a time: a file through afile.h, so that it appears
 * whole or not at all. Returns 0, or -1 with err filled.
 */
int
rep_write_summary(const char *output, FILE *text, struct prof_err *err)
{
	struct prof_afile af;
	char buf[65536];
	size_t got;
	FILE *fp;

	if (fflush(text) != 0 || ferror(text) ||
	    fseek(text, 0, SEEK_SET) != 0)
		return prof_err_at(err, output, 0, 0,
				   "cannot keep the summary in a temporary "
				   "file: %s", strerror(errno));
	if (!strcmp(output, "-")) {
		while ((got = fread(buf, 1, sizeof(buf), text)) > 0)
			if (prof_out_write(output, buf, got, err) < 0)
				return -1;
		return 0;
	}
	fp = prof_afile_open(&af, output, err);
	if (!fp)
		return -1;
	while ((got = fread(buf, 1, sizeof(buf), text)) > 0)
		if (fwrite(buf, 1, got, fp) != got) {
			int e = errno;

			prof_afile_abort(&af);
			return prof_err_at(err, output, 0, 0,
					   "write failed: %s", strerror(e));
		}
	if (ferror(text)) {
		int e = errno;

		prof_afile_abort(&af);
		return prof_err_at(err, output, 0, 0,
				   "cannot read the summary back: %s",
				   strerror(e));
	}
	return prof_afile_commit(&af, err);
}
