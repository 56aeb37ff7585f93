/* prof-dashboard: a run history as a folder of static pages: an index of
 * every series with its trend, and a page per series; its options, the
 * output folder and the order of the walks, whose pages are src/report's
 * (dash-int.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/afile.h"
#include "base/id.h"
#include "base/json.h"
#include "cli/cli.h"
#include "cli/project.h"
#include "model/sample.h"
#include "report/dash-int.h"

struct opts {
	const char *db;
	const char *project;
	int projects;
	const char *repo_url;
	const char *title;
	const char *dir;
};

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-dashboard [--db DB] [--project NAME] [--repo-url URL]\n" "               [--title TEXT] -o DIR"),
	CLI_USAGE("prof-dashboard [--db DB] --projects [--repo-url URL]\n" "               [--title TEXT] -o DIR"),
	CLI_TEXT(
	"Write the run history (default artifacts/history.sqlite;\n"
	"$PROF_HISTORY when set) as static pages into DIR: index.html,\n"
	"first what changed recently (each series' last change point among\n"
	"its last 10 runs, and the latest run's warnings and improvements,\n"
	"largest first), then a row per workload x backend x segment: its\n"
	"latest status beside its name, its segment in words (the id on\n"
	"hover), its latest median, a small trend (and of its instruction\n"
	"count where counted) and its last change; and s-ID.html per\n"
	"series: its median and p90 over the runs with the change points\n"
	"marked (and its instruction counts), the commits under the x axis\n"
	"(a run's time under a commit that has several), each a link when\n"
	"the repository's URL is known, a y axis from 0 or a zoom that says\n"
	"so with its range, its segment's fields, and its last runs in a\n"
	"table; where the memory phase ran, a chart per memory metric\n"
	"(bytes or allocations, digits grouped) and, in the index, the heap\n"
	"peak's trend. A series of instruction counts only (prof-count's:\n"
	"their segment keys valgrind) is shown as counts, not as a failed\n"
	"series of times. A run's verdict against its baseline\n"
	"(prof-history add --comparisons) is shown and coloured as\n"
	"report.html colours it; a series' own lines and points are in\n"
	"colours no status has. The pages fetch nothing and run no script\n"
	"(a content policy says so); they read at a laptop's width and\n"
	"print. Each file is written whole or not at all."),
	CLI_GROUP("options:"),
	CLI_STRING("db", 0, "DB", struct opts, db,
		"the history (read only): a SQLite file or a\n"
		"PostgreSQL address (prof-history(1))"),
	CLI_STRING("project", 0, "NAME", struct opts, project,
		"the project whose series are drawn (of a\n"
		"PostgreSQL history; default $PROF_PROJECT, else\n"
		"the git repository's name)"),
	CLI_TRUE("projects", 0, struct opts, projects,
		"every project of the history: DIR/index.html\n"
		"lists them (runs, the latest in run order), each\n"
		"linking to its own dashboard in DIR/P/ (P the\n"
		"project's name where it is a plain id, else p-\n"
		"and the id of the name)"),
	CLI_STRING("repo-url", 0, "URL", struct opts, repo_url,
		"http(s) address of the repository: a point and\n"
		"an x axis label of commit C link to\n"
		"URL/commit/C (when C is an object name: 7 to 64\n"
		"hex digits); make dashboard takes it from the\n"
		"origin remote (REPO_URL=)"),
	CLI_STRING("title", 0, "TEXT", struct opts, title,
		"the index's title (default: prof dashboard)"),
	CLI_STRING("output", 'o', "DIR", struct opts, dir,
		"the folder to write (made when missing): new,\n"
		"empty or a dashboard's own (it holds\n"
		".prof-dashboard); never a run folder or a folder\n"
		"inside one"),
	CLI_TEXT(
	"example:\n"
	"  prof-dashboard --repo-url https://github.com/o/r -o dashboard"),
	CLI_TEXT(
	"Exit status: 0 written, 2 bad arguments, a history that cannot be\n"
	"read, or a failed write."),
	CLI_STANDARD,
	CLI_END,
};

static int
repo_url_ok(const char *u)
{
	const unsigned char *p;

	if (strncmp(u, "https://", 8) && strncmp(u, "http://", 7))
		return 0;
	for (p = (const unsigned char *)u; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || strchr("\"'<>\\`", *p))
			return 0;
	return strlen(u) < 1024;
}

/*
 * The output folder. A dashboard's own folder holds DASH_MARK (written
 * before its pages), so that it is written over again; any other folder
 * that holds anything is refused, and so is a run folder or a folder
 * inside one (prof_in_run(): one that holds a file of fragment/run-lib.sh's
 * RUN_MARKS). Returns 0, or prints why and returns 2.
 */
#define DASH_MARK ".prof-dashboard"

static int
dir_check(const char *dir)
{
	char p[PATH_MAX], safe[512], psafe[512];
	struct stat sb;
	struct dirent *e;
	DIR *d;
	int exists = stat(dir, &sb) == 0;

	cli_safe(dir, safe, sizeof(safe));
	if (exists && !S_ISDIR(sb.st_mode))
		return cli_fail("'%s' is not a folder: give the folder to "
				"write", safe);
	if (cli_not_in_run(dir, "a dashboard is never written into a run"))
		return PROF_EXIT_FAILURE;
	if (!exists)
		return 0;
	snprintf(p, sizeof(p), "%s/" DASH_MARK, dir);
	if (stat(p, &sb) == 0)
		return 0;
	d = opendir(dir);
	if (!d)
		return cli_fail("cannot read '%s': %s", safe, strerror(errno));
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			break;
	if (e) {
		cli_safe(e->d_name, psafe, sizeof(psafe));
		closedir(d);
		return cli_fail("'%s' is not empty (it holds '%s') and is no "
				"dashboard's folder (no " DASH_MARK "): a "
				"dashboard is written only into a new or empty "
				"folder or over an earlier dashboard; give "
				"another folder, or remove this one first",
				safe, psafe);
	}
	closedir(d);
	return 0;
}

/* The folder made, and marked as a dashboard's (dir_check()). */
static int
dir_make(const char *dir, struct prof_err *err)
{
	static const char text[] =
		"prof-dashboard wrote this folder; it writes over it again "
		"(prof-dashboard(1))\n";
	char p[PATH_MAX + 32];
	struct stat sb;

	snprintf(p, sizeof(p), "%s/" DASH_MARK, dir);
	if (prof_mkdirs(dir, err) < 0)
		return -1;
	return stat(p, &sb) == 0 ? 0 :
		prof_afile_write(p, text, sizeof(text) - 1, err);
}

static int
build(struct opts *o)
{
	struct prof_err err = {0};
	struct prof_history *h = NULL;
	struct json_object *runs = NULL;
	struct dash_site site = {o->repo_url, o->title, o->dir};
	struct dash d = {.o = &site};
	char name[4096];
	int rc = PROF_EXIT_FAILURE;

	h = prof_history_open(o->db, 0, &err);
	if (!h)
		goto fail;
	/* --project, else $PROF_PROJECT, else the git repository's name,
	 * where the history holds many (cli_project_default()) */
	if (o->project || prof_history_many_projects(h)) {
		if (cli_project_default(o->project, name, sizeof(name)) < 0)
			goto out;
		if (prof_history_project(h, name, &err) < 0)
			goto fail;
	}
	runs = prof_history_list(h, &err);
	if (!runs)
		goto fail;
	d.runs = json_object_array_length(runs);
	if (d.runs)
		snprintf(d.last_run, sizeof(d.last_run), "%s",
			 prof_json_str(json_object_array_get_idx(runs,
								 d.runs - 1),
				       "run_id"));
	json_object_put(runs);
	/* Two walks: the series and their segments first, so that each
	 * page can say what tells it from the other series of its
	 * workload; then each series' runs, one series in memory at once. */
	if (prof_history_walk(h, dash_on_key, &d, &err) < 0 ||
	    dash_find_differs(&d, &err) < 0 || dir_make(o->dir, &err) < 0 ||
	    prof_history_walk(h, dash_on_point, &d, &err) < 0 ||
	    dash_flush_series(&d, &err) < 0 || dash_write_index(&d, &err) < 0)
		goto fail;
	cli_say("wrote %zu series over %zu runs to '%s/index.html'",
		d.n_entries, d.runs, o->dir);
	rc = PROF_EXIT_OK;
	goto out;
fail:
	cli_err(&err);
out:
	dash_free_dash(&d);
	prof_history_close(h);
	return rc;
}

/* A project's folder under the index: its name where that is a plain id
 * (id.h), else "p-" and the id of the name (sample.h). */
static int
project_dir(const char *name, char *out, size_t n)
{
	char why[160], id[PROF_ID_SIZE];

	if (prof_id_valid(name, why, sizeof(why)) == 1) {
		snprintf(out, n, "%s", name);
		return 0;
	}
	if (prof_sample_id(name, id) < 0)
		return -1;
	snprintf(out, n, "p-%s", id);
	return 0;
}

/*
 * --projects: each project's dashboard in a folder of its own, and an
 * index of them. The projects are read first, then drawn one at a time
 * (each a build() of its own: one project's series in memory at once).
 */
static int
build_projects(struct opts *o)
{
	struct prof_err err = {0};
	struct prof_history *h = prof_history_open(o->db, 0, &err);
	struct json_object *ps = h ? prof_history_projects(h, &err) : NULL;
	struct prof_afile af = {0};
	char path[4096], sub[4096], dir[300], title[1024];
	size_t i, n;
	FILE *fp;
	int rc = PROF_EXIT_FAILURE;

	prof_history_close(h);
	if (!ps || dir_make(o->dir, &err) < 0)
		goto fail;
	n = json_object_array_length(ps);
	for (i = 0; i < n; i++) {
		const char *name = prof_json_str(json_object_array_get_idx(ps, i),
						 "project");
		struct opts one = *o;

		if (project_dir(name, dir, sizeof(dir)) < 0) {
			prof_err_set(&err, "out of memory");
			goto fail;
		}
		snprintf(sub, sizeof(sub), "%s/%s", o->dir, dir);
		snprintf(title, sizeof(title), "%s: %s", o->title,
			 name[0] ? name : "this history");
		one.project = name;
		one.projects = 0;
		one.dir = sub;
		one.title = title;
		if (build(&one) != PROF_EXIT_OK)
			goto out;
	}
	snprintf(path, sizeof(path), "%s/index.html", o->dir);
	fp = prof_afile_open(&af, path, &err);
	if (!fp)
		goto fail;
	dash_head(fp, o->title);
	fputs("<h1>", fp);
	prof_page_esc(fp, o->title);
	fprintf(fp, "</h1>\n<p class=\"sub\">%zu project%s in this history; "
		    "each links to its own series.</p>\n<div class=\"wrap\">"
		    "<table><thead><tr><th>project</th><th class=\"num\">runs"
		    "</th><th>latest run</th></tr></thead><tbody>\n",
		n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(ps, i);
		const char *name = prof_json_str(p, "project");
		const char *latest = prof_json_str(p, "latest");

		project_dir(name, dir, sizeof(dir));
		fputs("<tr><td><a href=\"", fp);
		prof_page_esc(fp, dir);
		fputs("/index.html\">", fp);
		prof_page_esc(fp, name[0] ? name : "this history");
		fprintf(fp, "</a></td><td class=\"num\">%lld</td><td "
			    "class=\"mono\">",
			(long long)json_object_get_int64(
				json_object_object_get(p, "runs")));
		prof_page_esc(fp, latest ? latest : "");
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table></div>\n</main></body></html>\n", fp);
	if (prof_afile_commit(&af, &err) < 0)
		goto fail;
	cli_say("wrote %zu project%s to '%s/index.html'", n, n == 1 ? "" : "s",
		o->dir);
	rc = PROF_EXIT_OK;
	goto out;
fail:
	cli_err(&err);
out:
	json_object_put(ps);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *env = getenv("PROF_HISTORY");
	struct opts o = {
		.db = env && env[0] ? env : "artifacts/history.sqlite",
		.title = "prof dashboard",
	};
	static char url[1024];
	char safe[512];

	cli_init(argv[0]);
	/* Every option is bound: the table stores them, and does -h and
	 * --version. */
	if (cli_opt_parse_all(option_table, argc, argv, &o) < 0)
		return PROF_EXIT_FAILURE;
	if (optind < argc)
		return cli_fail("unexpected argument '%s'",
				cli_safe(argv[optind], safe, sizeof(safe)));
	if (!o.dir)
		return cli_fail("give the folder to write: -o DIR");
	if (!o.dir[0] || !o.db[0] || (o.project && !o.project[0]))
		return cli_fail("empty argument");
	if (o.project && o.projects)
		return cli_fail("--project and --projects go apart (one project's "
				"dashboard, or every project's)");
	if (o.repo_url && o.repo_url[0]) {
		if (!repo_url_ok(o.repo_url))
			return cli_fail("--repo-url: '%s' is not an http(s) "
					"address",
					cli_safe(o.repo_url, safe,
						 sizeof(safe)));
		snprintf(url, sizeof(url), "%s", o.repo_url);
		while (url[0] && url[strlen(url) - 1] == '/')
			url[strlen(url) - 1] = '\0';
		o.repo_url = url;
	} else {
		o.repo_url = NULL;
	}
	if (dir_check(o.dir))
		return PROF_EXIT_FAILURE;
	if (dash_csp_init() < 0)
		return cli_fail("out of memory");
	return cli_finish(o.projects ? build_projects(&o) : build(&o));
}
