/* dash-page.c: the dashboard's page kit: its stylesheet and head, numbers and
 * commits in words, the verdicts' badges (dash-int.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kit/glossary.h"
#include "palette.h"
#include "dash-int.h"

static const char CSS[] =
	"*{box-sizing:border-box}"
	"body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1b1f24;"
	"background:#fff}"
	"main{max-width:1180px;margin:0 auto;padding:16px}"
	"h1{font-size:20px;margin:0 0 4px}"
	"p.sub{color:#57606a;margin:0 0 12px;overflow-wrap:anywhere}"
	".wrap{overflow-x:auto}"
	"table{border-collapse:collapse;width:100%}"
	"th,td{padding:4px 8px;border-bottom:1px solid #d0d7de;"
	"text-align:left;vertical-align:middle}"
	"th{font-weight:600;background:#f6f8fa}"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}"
	".mono{font-family:ui-monospace,monospace;font-size:12px}"
	"svg{display:block}"
	"svg.spark{width:120px;height:28px}"
	"svg.trend{width:100%;height:auto;max-width:1140px}"
	".med{fill:none;stroke:" SERIES_TIME ";stroke-width:1.5}"
	".p90{fill:none;stroke:" SERIES_P90 ";stroke-width:1;"
	"stroke-dasharray:4 3}"
	".ins{fill:none;stroke:" SERIES_COUNT ";stroke-width:1.5}"
	".mline{fill:none;stroke:" SERIES_MEM ";stroke-width:1.5}"
	".pt{fill:" SERIES_TIME "}.ipt{fill:" SERIES_COUNT "}"
	".mpt{fill:" SERIES_MEM "}"
	".imp{fill:" PROF_PALETTE_IMPROVED "}"
	".wrn{fill:" PROF_PALETTE_WARNING "}"
	".uns{fill:" PROF_PALETTE_UNSETTLED "}"
	".pt.err{fill:#cf222e}"
	".v-improved{color:" PROF_PALETTE_IMPROVED ";font-weight:600}"
	".v-warning{color:" PROF_PALETTE_WARNING ";font-weight:600}"
	".v-unsettled{color:" PROF_PALETTE_UNSETTLED ";font-weight:600}"
	".cut{stroke:" SERIES_CHANGE ";stroke-width:1;stroke-dasharray:3 3}"
	".cutmark{fill:" SERIES_CHANGE "}"
	".cutlabel{fill:" SERIES_CHANGE ";font-size:11px}"
	".grid{stroke:#eaeef2;stroke-width:1}"
	".tick{fill:#57606a;font-size:11px}"
	".axis{stroke:#8c959f;stroke-width:1}"
	".ok{color:#1a7f37}.bad{color:#cf222e}.warn{color:#9a6700}"
	".none{color:#8c959f}"
	".legend span{margin-right:16px}"
	".legend .lm{color:" SERIES_TIME "}.legend .lp{color:#57606a}"
	".legend .lc{color:" SERIES_CHANGE "}"
	".legend .li{color:" PROF_PALETTE_IMPROVED "}"
	".legend .lw{color:" PROF_PALETTE_WARNING "}"
	".legend .lu{color:" PROF_PALETTE_UNSETTLED "}"
	".zoom{fill:#9a6700;font-size:11px}"
	".brk{stroke:#9a6700;stroke-width:1.5;fill:none}"
	"a .xc{fill:#0969da}"
	".differs{color:#57606a;font-size:12px}"
	".segw{color:#57606a;font-size:12px}"
	"td.name{min-width:140px;max-width:280px;overflow-wrap:anywhere}"
	"tr.series td{vertical-align:top}"
	"td[data-status]{white-space:nowrap;text-align:right}"
	"tr.series td:last-child{max-width:170px}"
	"td.why{color:#57606a;font-size:12px;overflow-wrap:anywhere}"
	"td.num{white-space:nowrap}"
	".latest{font-size:12px;text-align:right}"
	".differs b{font-weight:600;color:#1b1f24}"
	"dl.seg{display:grid;grid-template-columns:max-content 1fr;"
	"gap:2px 12px;margin:0}"
	"dl.seg dt{color:#57606a}dl.seg dd{margin:0;overflow-wrap:anywhere}"
	"dl.seg .d{font-weight:600;color:#9a6700}"
	"p.unset{color:#57606a;font-size:12px;overflow-wrap:anywhere}"
	"section{margin:16px 0}"
	"a.gl{color:inherit;text-decoration:none}"
	".glossary{font-size:13px}.glossary dt{font-weight:600}"
	".glossary dd{margin:0 0 4px 20px}"
	"h2{font-size:16px;margin:16px 0 8px}"
	"@media (max-width:820px){.wide{display:none}}"
	"@media print{main{max-width:none;padding:0}a{color:inherit;"
	"text-decoration:none}nav{display:none}.wrap{overflow:visible}"
	"tr{break-inside:avoid}section{break-inside:avoid}}";

static char csp_hash[PROF_PAGE_CSP];

/* A duration (ms) as every page writes it, in its unit
 * (prof_page_time()), in buf. */
const char *
dash_ms(double v, char buf[32])
{
	prof_page_time(buf, 32, v, 0);
	return buf;
}

/* An instruction count as every page writes it, grouped (prof_page_count()),
 * in buf. */
const char *
dash_count(long long v, char buf[32])
{
	prof_page_count(buf, 32, (double)v, 0);
	return buf;
}

/* Whether a commit is a hexadecimal object name, safe in a URL. */
static int
commit_linkable(const char *c)
{
	size_t n = strspn(c, "0123456789abcdefABCDEF");

	return n >= 7 && n <= 64 && !c[n];
}

/* The URL of a commit's page, or NULL. */
const char *
dash_commit_url(const struct dash_site *o, const char *commit, char *buf,
		size_t n)
{
	if (!o->repo_url || !commit_linkable(commit))
		return NULL;
	snprintf(buf, n, "%s/commit/%s", o->repo_url, commit);
	return buf;
}

void
dash_head(FILE *fp, const char *title)
{
	dash_head_start(fp);
	prof_page_esc(fp, title);
	dash_head_end(fp);
}

void
dash_head_start(FILE *fp)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head>"
	      "<meta charset=\"utf-8\"><meta name=\"viewport\" "
	      "content=\"width=device-width, initial-scale=1\">", fp);
	fprintf(fp,
		"<meta http-equiv=\"Content-Security-Policy\" content=\""
		"default-src 'none'; style-src %s; img-src 'none'; "
		"script-src 'none'; base-uri 'none'; form-action 'none'\">",
		csp_hash);
	fputs("<meta name=\"referrer\" content=\"no-referrer\"><title>", fp);
}

void
dash_head_end(FILE *fp)
{
	fprintf(fp, "</title><style>%s</style></head>\n<body><main>\n", CSS);
}

/* The stylesheet's hash, for dash_head()'s content policy: 0, or -1 (out of
 * memory). */
int
dash_csp_init(void)
{
	return prof_page_csp(csp_hash, CSS);
}

/* Which verdict that stands out status is: 1 improved, 2 warning, 3
 * unsettled (no verdict yet); 0 any other, or none. */
static int
stands_out(const char *status)
{
	static const char *const word[] = {"improved", "warning", "unsettled"};
	int i;

	for (i = 0; status && i < 3; i++)
		if (!strcmp(status, word[i]))
			return i + 1;
	return 0;
}

/* The class of a verdict's colour: improved, warning and unsettled
 * stand out. */
const char *
dash_verdict_class(const char *status)
{
	static const char *const cls[] = {"", "v-improved", "v-warning",
					  "v-unsettled"};

	return cls[stands_out(status)];
}

/* A verdict as a word: "-" when none was stored. */
void
dash_verdict(FILE *fp, const char *status)
{
	const char *cls = dash_verdict_class(status);
	const char *word = status && status[0] ? status : "-";

	int linked = prof_glossary_has(word);

	if (linked)
		prof_glossary_open(fp, word);
	fputs("<span", fp);
	if (cls[0])
		fprintf(fp, " class=\"%s\"", cls);
	fputs(" data-verdict=\"", fp);
	prof_page_esc(fp, word);
	fputs("\">", fp);
	prof_page_esc(fp, word);
	fputs("</span>", fp);
	if (linked)
		fputs("</a>", fp);
}

/*
 * The latest run's state of a series: "failed" when it measured nothing
 * (no time and no count), its errors, or ok. A series of instruction
 * counts has no times: its count is what it measures.
 */
void
dash_status_cell(FILE *fp, const struct entry *e, const char *history_last)
{
	if (strcmp(e->last_run, history_last)) {
		fputs("<td class=\"none\" data-status=\"absent\">not in the "
		      "latest run</td>", fp);
		return;
	}
	if (e->last_n == 0 && e->last_instructions < 0 && !e->last_memory)
		fputs("<td class=\"bad\" data-status=\"failed\">failed", fp);
	else if (e->last_errors > 0)
		fprintf(fp, "<td class=\"bad\" data-status=\"errors\">%lld "
			    "error%s",
			e->last_errors, e->last_errors == 1 ? "" : "s");
	else
		fputs("<td class=\"ok\" data-status=\"ok\">ok", fp);
	fputs(" \xc2\xb7 ", fp);
	dash_verdict(fp, e->last_status);
	fputs("</td>", fp);
}

void
dash_change_words(FILE *fp, const struct entry *e)
{
	if (!e->ncuts && !e->count_changed && !e->mem_changed) {
		fputs("<span class=\"none\">none</span>", fp);
		return;
	}
	if (isfinite(e->change_pct))
		fprintf(fp, "<span class=\"%s\">%+.*f%%</span> ",
			e->change_pct > 0 ? "bad" : "ok",
			e->count_changed ? 2 : 1, e->change_pct);
	fputs("<span class=\"mono\">", fp);
	prof_page_esc(fp, e->change);
	fputs("</span>", fp);
	if (e->count_changed)
		fputs(" <span class=\"none\">(count)</span>", fp);
	if (e->mem_changed)
		fprintf(fp, " <span class=\"none\">(%s)</span>",
			prof_cmp_metrics[e->mem_metric].name);
}

/* The class a point of a verdict gets: improved, warning and unsettled
 * stand out. */
const char *
dash_point_class(const char *status)
{
	static const char *const cls[] = {"", " imp", " wrn", " uns"};

	return cls[stands_out(status)];
}

/* A commit as a label: an object name's first 7 digits, else its first
 * 10 bytes. */
void
dash_commit_label(FILE *fp, const char *commit)
{
	prof_page_esc_cut(fp, commit, commit_linkable(commit) ? 7 : 10);
}

static size_t label_len(const char *commit);

/* The bytes of a commit its label shows (dash_commit_label()). */
static size_t
label_len(const char *commit)
{
	return commit_linkable(commit) ? 7 : 10;
}

/*
 * What tells run i from the other runs whose commit's label reads the
 * same (a run again of one commit, or commits alike in their first
 * digits), for a line under its label on the x axis: its time ("03-07
 * 10:00", UTC) where no other of them has the same minute, else "run K of
 * N" in run order. "" where its label is its own.
 */
void
dash_run_words(const struct dash *d, size_t i, char *buf, size_t n)
{
	const struct point *p = &d->pts[i];
	size_t j, of = 0, k = 0;
	int same_minute = 0;

	buf[0] = '\0';
	for (j = 0; j < d->n; j++) {
		if (label_len(d->pts[j].commit) != label_len(p->commit) ||
		    strncmp(d->pts[j].commit, p->commit, label_len(p->commit)))
			continue;
		of++;
		if (j <= i)
			k++;
		if (j != i && strlen(p->timestamp) >= 16 &&
		    !strncmp(d->pts[j].timestamp, p->timestamp, 16))
			same_minute = 1;
	}
	if (of < 2)
		return;
	if (!same_minute && strlen(p->timestamp) >= 16 &&
	    p->timestamp[10] == 'T')
		snprintf(buf, n, "%.5s %.5s", p->timestamp + 5,
			 p->timestamp + 11);
	else
		snprintf(buf, n, "run %zu of %zu", k, of);
}

/* A segment field's value as text: a string as it is, null as NULL,
 * anything else as JSON. Borrowed from v. */
const char *
dash_field_text(struct json_object *v)
{
	if (!v)
		return NULL;
	if (json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

/*
 * A segment in words, for the index: the machine (its device where it
 * has one, else its CPU model, else its architecture), the compiler, the
 * problem size, and the browser and valgrind where set. The id (its hash)
 * is the caller's to give on hover. A key that is no JSON object: its id.
 */
void
dash_segment_words(FILE *fp, const char *backend, const char *segment,
		   const char *segment_id)
{
	static const char *const machine[] = {"device", "cpu_model",
					      "machine"};
	struct json_object *o = json_tokener_parse(segment);
	const char *sep = "", *t, *u;
	size_t i;

	if (!o || !json_object_is_type(o, json_type_object)) {
		prof_page_esc(fp, segment_id);
		json_object_put(o);
		return;
	}
	prof_page_esc(fp, backend);
	sep = " \xc2\xb7 ";
	for (i = 0; i < sizeof(machine) / sizeof(*machine); i++) {
		t = dash_field_text(json_object_object_get(o, machine[i]));
		if (t && t[0]) {
			fputs(sep, fp);
			prof_page_esc(fp, t);
			break;
		}
	}
	t = dash_field_text(json_object_object_get(o, "compiler"));
	u = dash_field_text(json_object_object_get(o, "compiler_major"));
	if (t && t[0]) {
		fputs(sep, fp);
		prof_page_esc(fp, t);
		if (u && u[0] && strcmp(u, t)) {
			fputc(' ', fp);
			prof_page_esc(fp, u);
		}
	}
	t = dash_field_text(json_object_object_get(o, "problem_size"));
	if (t && t[0]) {
		fprintf(fp, "%ssize ", sep);
		prof_page_esc(fp, t);
	}
	t = dash_field_text(json_object_object_get(o, "browser"));
	if (t && t[0]) {
		fputs(sep, fp);
		prof_page_esc(fp, t);
	}
	t = dash_field_text(json_object_object_get(o, "valgrind"));
	if (t && t[0]) {
		fprintf(fp, "%svalgrind ", sep);
		prof_page_esc(fp, t);
	}
	json_object_put(o);
}
