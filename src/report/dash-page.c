/* dash-page.c: the dashboard's page kit: its stylesheet and head, numbers and
 * commits in words, the verdicts' badges (dash-int.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kit/glossary.h"
#include "style.h"
#include "dash-int.h"

static const char CSS[] =
	PAGE_CSS
	"body{margin:0}th,td{vertical-align:middle}"
	"main{max-width:1180px;margin:0 auto;padding:16px}"
	"h1{font-size:20px;margin:0 0 4px}"
	"p.sub{color:var(--mute);margin:0 0 12px;overflow-wrap:anywhere}"
	".wrap{overflow-x:auto}"
	"th{font-weight:600;background:#f6f8fa}"
	".ok{color:var(--ok)}.bad{color:var(--err)}.warn{color:#9a6700}"
	".none{color:#8c959f}"
	".differs{color:var(--mute);font-size:12px}"
	".segw{color:var(--mute);font-size:12px}"
	"td.name{min-width:140px;max-width:280px;overflow-wrap:anywhere}"
	"tr.series td{vertical-align:top}"
	"td[data-status]{white-space:nowrap;text-align:right}"
	"tr.series td:last-child{max-width:170px}"
	"td.why{color:var(--mute);font-size:12px;overflow-wrap:anywhere}"
	".latest{font-size:12px;text-align:right}"
	".differs b{font-weight:600;color:var(--fg)}"
	"dl.seg{display:grid;grid-template-columns:max-content 1fr;"
	"gap:2px 12px;margin:0}"
	"dl.seg dt{color:var(--mute)}dl.seg dd{margin:0;overflow-wrap:anywhere}"
	"dl.seg .d{font-weight:600;color:#9a6700}"
	"p.unset{color:var(--mute);font-size:12px;overflow-wrap:anywhere}"
	"section{margin:16px 0}"
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

/* The class of a verdict's colour: improved, warning and unsettled
 * stand out. */
const char *
dash_verdict_class(const char *status)
{
	static const char *const cls[] = {"", "v-improved", "v-warning",
					  "v-unsettled"};

	return cls[chart_stands_out(status)];
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
