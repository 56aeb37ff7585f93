/* table.c: the compact table on stdout, its notes and memory rows, and the CI
 * annotations (report-int.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "cli/cli.h"
#include "kit/page.h"
#include "report-int.h"

/* The compact table's notes: one line per row that did not settle or
 * whose samples were mostly contended, then the settling command. */
static void
print_notes(struct report *r)
{
	size_t i, n = r->judged ? prof_cmpview_len(&r->rows) : 0;
	long repeat, max, k, m;
	long unsettled = rep_unsettled_budget(r, &repeat, &max);
	char s1[512], s2[64], cmd[2300], safe[2400];

	for (i = 0; i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);

		if (!v)
			continue;
		cli_safe(v->workload, s1, sizeof(s1));
		cli_safe(v->backend, s2, sizeof(s2));
		if (rep_row_unsettled(v) && v->ab.present)
			printf("%s %s: not settled after %lld samples a side "
			       "(p = %.3g): unsettled\n",
			       s1, s2, v->ab.samples_a_side, v->p_value);
		else if (rep_row_unsettled(v))
			printf("%s %s: not settled (p = %.3g): unsettled\n", s1,
			       s2, v->p_value);
		if (rep_row_contended(v, &k, &m))
			printf("%s %s: %ld of %ld current samples contended: "
			       "the machine may have been busy\n",
			       s1, s2, k, m);
	}
	if (!unsettled)
		return;
	rep_settle_command(r, repeat, max, cmd, sizeof(cmd));
	printf("to settle them: %s\n", cli_safe(cmd, safe, sizeof(safe)));
}

/* The compact table on stdout. */
/* The printf width that pads s to w columns: a 'µ' is two bytes in one
 * column. */
static int
cols(const char *s, int w)
{
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) == 0x80)
			w++;
	return w;
}

/* A row's first columns: its workload and backend, escaped. */
static void
row_names(const struct prof_verdict *v)
{
	char s1[512], s2[64];

	printf("%-36s %-8s ", cli_safe(v->workload, s1, sizeof(s1)),
	       cli_safe(v->backend, s2, sizeof(s2)));
}

void
rep_print_table(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	const char *commit = prof_json_str(r->meta, "commit");
	int counts = rep_has_counts(r);
	char s1[512], s2[64];

	/* Every field escaped: stdout is a terminal or a CI log, where a
	 * newline could start a workflow command. */
	printf("run %s  commit %.12s  %ld samples, %ld error%s\n",
	       cli_safe(prof_json_str(r->meta, "run_id"), s1, sizeof(s1)),
	       cli_safe(commit, s2, sizeof(s2)),
	       (long)prof_runview_count(&r->view), r->errors,
	       r->errors == 1 ? "" : "s");
	if (counts)
		printf("%-36s %-8s %4s %12s %10s %9s %12s %8s %6s %7s  %-12s "
		       "%12s %8s  %s\n",
		       "workload", "backend", "n", "median", "cpu",
		       "contended", "p90", "delta", "ratio", "p", "status",
		       "instructions", "delta", "status");
	else
		printf("%-36s %-8s %4s %12s %10s %9s %12s %8s %6s %7s  %s\n",
		       "workload", "backend", "n", "median", "cpu",
		       "contended", "p90", "delta", "ratio", "p", "status");
	for (i = 0; i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);
		char med[32], p90[32], pct[32], ic[32], ipct[32], rt[32];
		char pv[32], cpu[32], cont[48];
		const char *ist, *status;
		double d;

		if (!v)
			continue;
		status = r->judged ? v->status_name : "-";
		d = rep_row_pct(v);
		if (rep_is_count_row(v)) {
			if (rep_has_time_row(r, v))
				continue;
			rep_count_cells(r, v, ic, sizeof(ic), ipct,
					sizeof(ipct), &ist);
			row_names(v);
			printf("%4s %12s %10s %9s %12s %8s %6s %7s  %-12s "
			       "%12s %8s  %s\n",
			       "-", "-", "-", "-", "-", "-", "-", "-", "-", ic,
			       ipct, ist);
			continue;
		}

		prof_page_time(med, sizeof(med), v->cur.median, 0);
		prof_page_time(p90, sizeof(p90), v->cur.p90, 0);
		rep_cpu_cells(r, v, cpu, sizeof(cpu), cont, sizeof(cont));
		if (isfinite(d))
			snprintf(pct, sizeof(pct), "%+.1f%%", d);
		else
			snprintf(pct, sizeof(pct), "-");
		rep_ratio_cells(v, rt, sizeof(rt), pv, sizeof(pv));
		row_names(v);
		printf("%4lld %*s %*s %9s %*s %8s %6s %7s  ", v->cur.n,
		       cols(med, 12), med, cols(cpu, 10), cpu, cont,
		       cols(p90, 12), p90, pct, rt, pv);
		if (!counts) {
			printf("%s\n", status);
			continue;
		}
		rep_count_cells(r, rep_count_row_of(r, v), ic, sizeof(ic),
				ipct, sizeof(ipct), &ist);
		printf("%-12s %12s %8s  %s\n", status, ic, ipct, ist);
	}
	print_notes(r);
}

/* A GitHub workflow command's data: '%', CR and LF escaped. */
static void
gh_text(const char *s)
{
	for (; s && *s; s++) {
		if (*s == '%')
			fputs("%25", stdout);
		else if (*s == '\r')
			fputs("%0D", stdout);
		else if (*s == '\n')
			fputs("%0A", stdout);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			printf("\\x%02x", (unsigned char)*s);
		else
			putchar(*s);
	}
}

/* The compact table's memory lines, after its time rows. */
void
rep_print_memory(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->mem_rows);
	char s1[512], s2[64];

	if (!n)
		return;
	printf("%-36s %-8s %-26s %14s %14s %14s  %s\n", "memory", "backend",
	       "metric", "current", "baseline", "delta", "status");
	for (i = 0; i < n; i++) {
		struct rep_mem_cells c;
		const struct prof_verdict *v = rep_mem_row(r, i, &c);

		if (!v)
			continue;
		printf("%-36s %-8s %-26s %14s %14s %14s  %s\n",
		       cli_safe(v->workload, s1, sizeof(s1)),
		       cli_safe(v->backend, s2, sizeof(s2)), c.metric, c.cur,
		       c.base, c.delta, c.status);
	}
}

/* A CI annotation: its command and title (head), its text. */
static void
annotation(const char *head, const char *text)
{
	fputs(head, stdout);
	gh_text(text);
	putchar('\n');
}

/* An annotation of a row whose reason says it: "w (b): reason". */
static void
reason_annotation(const char *head, const struct prof_verdict *v)
{
	char text[1024];

	snprintf(text, sizeof(text), "%s (%s): %s", v->workload, v->backend,
		 v->reason);
	annotation(head, text);
}

void
rep_print_annotations(struct report *r)
{
	size_t i, n = prof_cmpview_len(&r->rows);
	const char *gha = getenv("GITHUB_ACTIONS");

	if (!gha || strcmp(gha, "true") || !r->judged)
		return;
	for (i = 0; i < n; i++) {
		const struct prof_verdict *v =
			prof_cmpview_verdict(&r->rows, i);
		char text[1024], s1[512], s2[128], tc[32], tb[32], td[32];

		if (!v)
			continue;
		/* An unsettled row is a notice: no verdict, and the way
		 * to one. */
		if (rep_row_unsettled(v)) {
			reason_annotation("::notice title=Performance not "
					  "settled::", v);
			continue;
		}
		if (v->status != PROF_CMP_WARNING)
			continue;
		if (rep_is_count_row(v)) {
			reason_annotation("::warning title=Instruction count "
					  "regression::", v);
			continue;
		}
		prof_page_time(tc, sizeof(tc), v->cur.median, 0);
		prof_page_time(tb, sizeof(tb), v->base.median, 0);
		prof_page_time(td, sizeof(td), v->delta_ms, 1);
		snprintf(text, sizeof(text),
			 "%s (%s): median %s vs baseline %s, %+.1f%% (%s)",
			 cli_safe(v->workload, s1, sizeof(s1)),
			 cli_safe(v->backend, s2, sizeof(s2)), tc, tb,
			 rep_row_pct(v), td);
		annotation("::warning title=Performance regression::", text);
	}
}
