/* prof-why: which functions made a workload's instruction count change,
 * from the callgrind outputs of its two sides. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/afile.h"
#include "base/buf.h"
#include "base/json.h"
#include "base/out.h"
#include "cli/cli.h"
#include "model/callgrind.h"
#include "model/runview.h"
#include "verdict/channels.h"
#include "verdict/read.h"
#include "why/dhat.h"
#include "why/flame.h"
#include "why/why.h"

enum {
	OPT_BY = 256,
};

struct opts {
	int by_incl;
	const char *by;		/* --by as given, or NULL */
	long long top;
	int json;
	const char *svg;
	const char *output;
	const char *comparisons, *results, *baseline;
	const char *time_dir;	/* --time DIR: CPU profiles of both sides */
	const char *memory_dir;	/* --memory DIR: DHAT outputs of both */
};

static const struct cli_opt option_table[] = {
	CLI_USAGE("prof-why [--by self|inclusive] [--top N] [--json] [--svg FILE]\n" "         [-o FILE] BEFORE AFTER"),
	CLI_USAGE("prof-why [--by bytes|allocations|max-live] [--top N] [--json]\n" "         [-o FILE] BEFORE.dhat.json AFTER.dhat.json"),
	CLI_USAGE("prof-why --comparisons FILE [--results FILE] [--baseline FILE]\n" "         [--time DIR] [--memory DIR] [--top N] [-o FILE]"),
	CLI_TEXT(
	"Say which functions made a workload's instruction count change. BEFORE\n"
	"and AFTER are callgrind outputs of the same workload from two builds\n"
	"(the reference, or the older commit, first): full dumps, or the\n"
	"functions-only files the count phase keeps (prof-count --functions).\n"
	"Each function is matched across the builds by name and source file;\n"
	"one whose file alone changed is matched by its name (and says so),\n"
	"and a function only AFTER has is new, one only BEFORE has vanished.\n"
	"The functions are ranked by the change of their self count (the\n"
	"instructions in the function itself) or of their inclusive count\n"
	"(with what their calls cost), largest first, each with its share of\n"
	"the whole count's change. C++ names are demangled: those callgrind\n"
	"or pprof wrote mangled (_ZN3foo3barEv) go through c++filt\n"
	"(binutils), and are left so, said once, when it cannot be run."),
	CLI_TEXT(
	"BEFORE and AFTER may be DHAT outputs (valgrind --tool=dhat\n"
	"--dhat-out-file=FILE, JSON; read as such when the file starts with\n"
	"'{'): then the allocation sites that changed, per function: each\n"
	"allocation is the site of the first frame of its stack inside the\n"
	"project (not the allocator, not a shared library, not a source file\n"
	"under /usr/ or a relative one, as the system's libraries record\n"
	"theirs; valgrind --fullpath-after= makes the project's paths\n"
	"absolute); in a prof workload binary only those made inside run()\n"
	"(the harness's timed call on their stack) and on the workload's own\n"
	"threads (a stack from start_thread); sites of two builds are\n"
	"matched by name and\n"
	"the file's last part (a C++ site left over by its bare name, as\n"
	"valgrind names an inlined frame); ranked by the change of bytes allocated\n"
	"(default), of allocations or of the most bytes live at once\n"
	"(max-live: DHAT's max bytes of each program point, summed). valgrind\n"
	"demangles the names."),
	CLI_GROUP("options:"),
	CLI_OPTION("by", 0, "self|inclusive|bytes|allocations|max-live", OPT_BY,
		"self or inclusive (default self); for DHAT files\n"
		"bytes, allocations or max-live (default bytes)"),
	CLI_NUMBER("top", 0, "N", struct opts, top, 0, 1000000,
		"the N largest changes (default 10; 0: all)"),
	CLI_TRUE("json", 0, struct opts, json,
		"write JSON instead of the table: total_before,\n"
		"total_after, by, new, vanished, unchanged and\n"
		"functions: [{name, file, file_before, state,\n"
		"self_before, self_after, inclusive_before,\n"
		"inclusive_after, share, inclusive_share}]; for DHAT\n"
		"files by, scope_before, scope_after (run or\n"
		"process), bytes_, allocs_ and max_live_before and\n"
		"_after, new, vanished, unchanged and sites: [{name,\n"
		"file, state, bytes_before, bytes_after,\n"
		"allocs_before, allocs_after, max_live_before,\n"
		"max_live_after, share}]"),
	CLI_STRING("svg", 0, "FILE", struct opts, svg,
		"also write the differential flame graph"),
	CLI_STRING("output", 'o', "FILE", struct opts, output,
		"write there, atomically (default -, stdout)"),
	CLI_TEXT(
	"With --comparisons (prof-diff's output), every row whose status is\n"
	"warning or improved gets \"functions\" (the --top entries, as in\n"
	"--json) and \"functions_artifacts\" (the two callgrind files, relative\n"
	"to the comparisons' folder), when both sides kept a callgrind file\n"
	"for the workload: the current side's artifact (a sample's artifact\n"
	"ending in .callgrind) in --results, the other in --baseline (by\n"
	"default results.json and baseline.json beside the comparisons); an\n"
	"artifact whose file is not there (a promoted baseline keeps none)\n"
	"leaves its row as it is. A\n"
	"timing row gets its workload's instruction differences too. Other\n"
	"rows are left as they are. The comparisons are rewritten in place\n"
	"unless -o says otherwise. With --time DIR, a changed time row also\n"
	"gets \"time_functions\" and \"time_artifacts\" from the CPU profiles\n"
	"of both sides as pprof --callgrind wrote them (DIR/reference/\n"
	"W.BACKEND.callgrind and DIR/current/W.BACKEND.callgrind), each with\n"
	"W.BACKEND.calls beside it (\"CALLS HZ\": the calls it covers and the\n"
	"profiler's frequency), so that both are nanoseconds of CPU per call;\n"
	"DIR/W.BACKEND.pprof.txt (pprof --base) is named as its listing when\n"
	"it is there. With --memory DIR, a changed memory row (\"phase\":\n"
	"\"memory\") gets \"memory_sites\" (the --top sites, as in --json) and\n"
	"\"memory_sites_artifacts\" (the two files, by, the scopes and totals)\n"
	"from DIR/reference/W.BACKEND.dhat.json and DIR/current/\n"
	"W.BACKEND.dhat.json, ranked by what its metric counts: the heap peak\n"
	"by max-live, allocations by allocations, the others by bytes. A side\n"
	"without its file leaves the row as it is; a DHAT file that cannot be\n"
	"read is said in one line and kept as the row's \"memory_sites_note\":\n"
	"it never fails the comparisons. Where no site changed, the note is\n"
	"the line that says so (run() allocated nothing on either side, or N\n"
	"sites allocated the same)."),
	CLI_GROUP("options of --comparisons:"),
	CLI_STRING("comparisons", 0, "FILE", struct opts, comparisons,
		"prof-diff's comparisons to fill (see above)"),
	CLI_STRING("results", 0, "FILE", struct opts, results,
		"the current side's results (default results.json\n"
		"beside the comparisons)"),
	CLI_STRING("baseline", 0, "FILE", struct opts, baseline,
		"the reference side's results (default\n"
		"baseline.json beside the comparisons)"),
	CLI_STRING("time", 0, "DIR", struct opts, time_dir,
		"the CPU profiles of both sides of the changed time\n"
		"rows (see above)"),
	CLI_STRING("memory", 0, "DIR", struct opts, memory_dir,
		"the DHAT outputs of both sides of the changed memory\n"
		"rows (see above)"),
	CLI_TEXT(
	"Both sides must count the same event (Ir, or pprof's Hits). A\n"
	"cost, count or id beyond 64 bits, costs that add up to more, and a\n"
	"totals: (summary:) that is not the sum of the cost lines are refused\n"
	"with the file and line; so is a CALLS HZ file that is not CALLS from\n"
	"1 to 1e12 and HZ from 1 to 1e6 on its first line. A DHAT file that is\n"
	"not dhatFileVersion 2 in mode heap, or whose program points are not\n"
	"counts and frames of its frame table, is refused with its JSON path."),
	CLI_TEXT(
	"example:\n"
	"  prof-why old/functions/pipeline.reorder_nearest.cpu.callgrind \\\n"
	"      run/functions/pipeline.reorder_nearest.cpu.callgrind\n"
	"  prof-why run/memory/reference/test.ab_copy.cpu.dhat.json \\\n"
	"      run/memory/current/test.ab_copy.cpu.dhat.json"),
	CLI_TEXT(
	"Exit status: 0 done, 2 bad arguments, an unreadable or malformed\n"
	"callgrind, CALLS HZ, DHAT or JSON file, two profiles of different\n"
	"events, or a failed write."),
	CLI_STANDARD,
	CLI_END,
};

/*
 * A callgrind file read, its C++ names demangled (c++filt); when c++filt
 * cannot be run, said once, and the names are left as they are. Returns
 * 0 or -1 with err.
 */
static int
load(const char *path, struct prof_callgrind_profile *p, struct prof_err *err)
{
	static int said;
	int rc;

	if (prof_callgrind_load(path, p, err) < 0)
		return -1;
	rc = prof_why_demangle(p, "c++filt", err);
	if (rc < 0)
		return -1;
	if (rc == 0 && !said) {
		said = 1;
		cli_say("c++filt (binutils) cannot be run: C++ names are "
			"left mangled (apt-get install binutils)");
	}
	return 0;
}

static struct json_object *
ll(long long v)
{
	return json_object_new_int64(v);
}

/* Member key of o: the string s, or null where there is none. */
static void
add_str(struct json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, s ? json_object_new_string(s) : NULL);
}

/* The n whole numbers v into o, each under its key. */
static void
add_counts(struct json_object *o, const char *const *keys,
	   const long long *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		json_object_object_add(o, keys[i], ll(v[i]));
}

/* The keys of a site's or a profile's memory, before and after. */
static const char *const mem_keys[] = {
	"bytes_before",	   "bytes_after",    "allocs_before",
	"allocs_after",	   "max_live_before", "max_live_after",
};

/* The entries of w as a JSON array, at most top of them (0: all). */
static struct json_object *
entries_json(const struct prof_why *w, long long top)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < w->n && (!top || (long long)i < top); i++) {
		const struct prof_why_fn *f = &w->fns[i];
		struct json_object *o = json_object_new_object();
		int moved = w->total_after != w->total_before;

		static const char *const keys[] = {
			"self_before", "self_after", "inclusive_before",
			"inclusive_after",
		};
		const long long v[] = {f->self_before, f->self_after,
				       f->incl_before, f->incl_after};

		add_str(o, "name", f->name);
		add_str(o, "file", f->file);
		add_str(o, "file_before", f->file_before);
		add_str(o, "state", prof_why_state_name(f->state));
		add_counts(o, keys, v, 4);
		json_object_object_add(o, "share",
				       moved ? prof_json_double(f->share) :
					       NULL);
		json_object_object_add(o, "inclusive_share",
				       moved ? prof_json_double(f->incl_share) :
					       NULL);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *
why_json(const struct prof_why *w, const struct opts *o)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "total_before", ll(w->total_before));
	json_object_object_add(j, "total_after", ll(w->total_after));
	json_object_object_add(j, "by", json_object_new_string(
						o->by_incl ? "inclusive" :
							     "self"));
	json_object_object_add(j, "new", ll((long long)w->n_new));
	json_object_object_add(j, "vanished", ll((long long)w->n_vanished));
	json_object_object_add(j, "unchanged", ll((long long)w->unchanged));
	json_object_object_add(j, "functions", entries_json(w, o->top));
	return j;
}

/* The end of a ranking's text (n entries of what, one in words): that
 * none changed where none did, then how many are new, vanished and
 * unchanged. */
static void
put_tail(struct prof_buf *b, size_t n, const char *one, size_t n_new,
	 size_t n_vanished, size_t unchanged, const char *what)
{
	if (!n)
		prof_buf_printf(b, "no %s changed\n", one);
	prof_buf_printf(b, "%zu new, %zu vanished, %zu unchanged %s\n", n_new,
			n_vanished, unchanged, what);
}

static void
why_text(struct prof_buf *b, const struct prof_why *w, const struct opts *o,
	 const char *unit)
{
	long long delta = w->total_after - w->total_before;
	char x[40], y[40], s[40], tb[40], ta[40];
	char safe[512], safe2[512];
	size_t i;

	prof_buf_printf(b, "%s %s -> %s (%s, %+.2f%%)\n", unit,
			prof_fmt_count(tb, sizeof(tb), w->total_before, 0),
			prof_fmt_count(ta, sizeof(ta), w->total_after, 0),
			prof_fmt_count(s, sizeof(s), delta, 1),
			w->total_before ? 100.0 * (double)delta /
						  (double)w->total_before :
					  0.0);
	prof_buf_printf(b, "%14s %7s %14s  %-8s  %s\n", "self", "share",
			"inclusive", "", "function (file)");
	for (i = 0; i < w->n && (!o->top || (long long)i < o->top); i++) {
		const struct prof_why_fn *f = &w->fns[i];
		char share[16] = "";

		if (delta)
			snprintf(share, sizeof(share), "%.1f%%",
				 100.0 * (o->by_incl ? f->incl_share :
						       f->share));
		prof_buf_printf(
		    b, "%14s %7s %14s  %-8s  %s (%s)",
		    prof_fmt_count(x, sizeof(x), f->self_after - f->self_before,
				   1),
		    share,
		    prof_fmt_count(y, sizeof(y), f->incl_after - f->incl_before,
				   1),
		    f->state == PROF_WHY_CHANGED ? "" :
						   prof_why_state_name(f->state),
		    cli_safe(f->name, safe, sizeof(safe)),
		    cli_safe(f->file, safe2, sizeof(safe2)));
		if (f->file_before)
			prof_buf_printf(
			    b, ", was in %s",
			    cli_safe(f->file_before, safe, sizeof(safe)));
		prof_buf_printf(b, "\n");
	}
	put_tail(b, w->n, "function", w->n_new, w->n_vanished, w->unchanged,
		 "function(s)");
}

/*
 * Whether path holds DHAT's JSON (its first byte that is no white space
 * is '{'), not a callgrind file. 0 when it cannot be opened: the reader
 * says why; -1 with err when it is no regular file (prof_input_open()).
 */
static int
is_dhat(const char *path, struct prof_err *err)
{
	FILE *fp = prof_input_open(path, 0, 0, err);
	int c = EOF;

	if (!fp)
		return errno ? 0 : -1;
	do
		c = getc(fp);
	while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
	fclose(fp);
	return c == '{';
}

/* The sites of d as a JSON array, at most top of them (0: all). */
static struct json_object *
sites_json(const struct prof_dhat_diff *d, long long top)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < d->n && (!top || (long long)i < top); i++) {
		const struct prof_dhat_change *c = &d->c[i];
		struct json_object *o = json_object_new_object();

		const long long v[] = {c->bytes_before, c->bytes_after,
				       c->allocs_before, c->allocs_after,
				       c->live_before, c->live_after};

		add_str(o, "name", c->name);
		add_str(o, "file", c->file);
		add_str(o, "state", prof_dhat_state_name(c->state));
		add_counts(o, mem_keys, v, 6);
		json_object_object_add(o, "share", prof_json_double(c->share));
		json_object_array_add(a, o);
	}
	return a;
}

static const char *
scope_name(enum prof_dhat_scope s)
{
	return s == PROF_DHAT_RUN ? "run" : "process";
}

/* The totals of both sides and what was ranked, into o. */
static void
sites_totals(struct json_object *o, const struct prof_dhat_profile *b,
	     const struct prof_dhat_profile *a, const struct prof_dhat_diff *d)
{
	const long long v[] = {b->bytes, a->bytes, b->allocs, a->allocs,
			       b->max_live, a->max_live};

	add_str(o, "by", prof_dhat_by_name(d->by));
	add_str(o, "scope_before", scope_name(b->scope));
	add_str(o, "scope_after", scope_name(a->scope));
	add_counts(o, mem_keys, v, 6);
}

/* The text of a site comparison: the totals, then a line per site. */
static void
sites_text(struct prof_buf *b, const struct prof_dhat_profile *bef,
	   const struct prof_dhat_profile *aft, const struct prof_dhat_diff *d,
	   const struct opts *o)
{
	long long tb = prof_dhat_total(bef, d->by), ta = prof_dhat_total(aft, d->by);
	char x[3][40], t[2][40], safe[512], safe2[512], pct[32];
	size_t i;

	if (tb)
		snprintf(pct, sizeof(pct), "%+.2f%%",
			 100.0 * (double)(ta - tb) / (double)tb);
	else
		snprintf(pct, sizeof(pct), "from 0");
	prof_buf_printf(
	    b, "%s %s -> %s (%s, %s), %s\n",
	    d->by == PROF_DHAT_BY_ALLOCS ? "allocations" :
	    d->by == PROF_DHAT_BY_LIVE	 ? "max live bytes" :
					   "bytes allocated",
	    prof_fmt_count(t[0], sizeof(t[0]), tb, 0),
	    prof_fmt_count(t[1], sizeof(t[1]), ta, 0),
	    prof_fmt_count(x[0], sizeof(x[0]), ta - tb, 1), pct,
	    bef->scope == PROF_DHAT_RUN && aft->scope == PROF_DHAT_RUN ?
		    "inside run()" :
		    "in the whole process (no prof worker: the harness is "
		    "on no stack)");
	prof_buf_printf(b, "%14s %7s %10s %14s  %-8s  %s\n", "bytes", "share",
			"allocs", "max live", "", "function (file)");
	for (i = 0; i < d->n && (!o->top || (long long)i < o->top); i++) {
		const struct prof_dhat_change *c = &d->c[i];
		char share[16] = "";

		if (ta != tb)
			snprintf(share, sizeof(share), "%.1f%%",
				 100.0 * c->share);
		prof_buf_printf(
		    b, "%14s %7s %10s %14s  %-8s  %s (%s)\n",
		    prof_fmt_count(x[0], sizeof(x[0]),
				   c->bytes_after - c->bytes_before, 1),
		    share,
		    prof_fmt_count(x[1], sizeof(x[1]),
				   c->allocs_after - c->allocs_before, 1),
		    prof_fmt_count(x[2], sizeof(x[2]),
				   c->live_after - c->live_before, 1),
		    c->state == PROF_DHAT_CHANGED ? "" :
						    prof_dhat_state_name(c->state),
		    cli_safe(c->name, safe, sizeof(safe)),
		    cli_safe(c->file, safe2, sizeof(safe2)));
	}
	put_tail(b, d->n, "allocation site", d->n_new, d->n_vanished,
		 d->unchanged, "site(s)");
}

/* Two DHAT outputs compared: the allocation sites that changed. */
/*
 * Write what pair() or pair_sites() made to --output: j as JSON, else the
 * text in b. A failed stdout is reported once, by cli_finish().
 */
static int
write_result(const struct opts *o, struct json_object *j,
	     const struct prof_buf *b)
{
	struct prof_err err = {0};
	int r = j ? prof_out_json(o->output, j, &err) :
		    prof_out_write(o->output, b->p ? b->p : "", b->len, &err);

	if (r < 0 && strcmp(o->output, "-"))
		cli_err(&err);
	return r < 0 ? PROF_EXIT_FAILURE : PROF_EXIT_OK;
}

static int
pair_sites(const char *before_path, const char *after_path,
	   const struct opts *o)
{
	struct prof_dhat_profile before = {0}, after = {0};
	struct prof_dhat_diff d = {0};
	struct prof_err err = {0};
	struct prof_buf b = {0};
	struct json_object *j = NULL;
	enum prof_dhat_by by = PROF_DHAT_BY_BYTES;
	int rc = PROF_EXIT_FAILURE;

	if (o->by && prof_dhat_by_parse(o->by, &by) < 0) {
		cli_say("--by %s is for callgrind files; DHAT's sites are "
			"ranked by bytes, allocations or max-live", o->by);
		goto out;
	}
	if (o->svg) {
		cli_say("--svg: no flame graph of allocation sites");
		goto out;
	}
	if (prof_dhat_load(before_path, &before, &err) < 0 ||
	    prof_dhat_load(after_path, &after, &err) < 0 ||
	    prof_dhat_diff(&before, &after, by, &d, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	if (o->json) {
		j = json_object_new_object();
		sites_totals(j, &before, &after, &d);
		json_object_object_add(j, "new", ll((long long)d.n_new));
		json_object_object_add(j, "vanished",
				       ll((long long)d.n_vanished));
		json_object_object_add(j, "unchanged",
				       ll((long long)d.unchanged));
		json_object_object_add(j, "sites", sites_json(&d, o->top));
	} else {
		sites_text(&b, &before, &after, &d, o);
	}
	rc = write_result(o, j, &b);
out:
	json_object_put(j);
	prof_buf_free(&b);
	prof_dhat_diff_free(&d);
	prof_dhat_free(&before);
	prof_dhat_free(&after);
	return cli_finish(rc);
}

/* Two callgrind files compared. */
static int
pair(const char *before_path, const char *after_path, const struct opts *o)
{
	struct prof_callgrind_profile before = {0}, after = {0};
	struct prof_why w = {0};
	struct prof_err err = {0};
	struct prof_buf b = {0};
	struct json_object *j = NULL;
	int rc = PROF_EXIT_FAILURE, db, da;

	db = is_dhat(before_path, &err);
	da = db < 0 ? 0 : is_dhat(after_path, &err);
	if (db < 0 || da < 0) {
		cli_err(&err);
		return cli_finish(rc);
	}
	if (db || da) {
		if (!db || !da) {
			cli_say("'%s' is %s output and '%s' is not: give two "
				"callgrind files or two DHAT files",
				db ? before_path : after_path, "DHAT's",
				db ? after_path : before_path);
			return cli_finish(rc);
		}
		return pair_sites(before_path, after_path, o);
	}
	if (o->by && strcmp(o->by, "self") && strcmp(o->by, "inclusive")) {
		cli_say("--by %s is for DHAT files; functions are ranked by "
			"self or inclusive", o->by);
		return cli_finish(rc);
	}
	if (load(before_path, &before, &err) < 0 ||
	    load(after_path, &after, &err) < 0 ||
	    prof_why_diff(&before, &after, o->by_incl, &w, &err) < 0) {
		prof_err_file(&err, after_path);
		cli_err(&err);
		goto out;
	}
	if (o->svg) {
		struct prof_flame_opts fo = {"flame", "differential flame graph",
					     NULL};
		struct prof_buf svg = {0};

		if (prof_flame_svg(&before, &after, &fo, &svg, &err) < 0 ||
		    prof_out_write(o->svg, svg.p, svg.len, &err) < 0) {
			prof_buf_free(&svg);
			cli_err(&err);
			goto out;
		}
		prof_buf_free(&svg);
	}
	if (o->json)
		j = why_json(&w, o);
	else
		why_text(&b, &w, o,
			 after.event[0] ? "samples" : "instructions");
	rc = write_result(o, j, &b);
out:
	json_object_put(j);
	prof_buf_free(&b);
	prof_why_free(&w);
	prof_callgrind_profile_free(&before);
	prof_callgrind_profile_free(&after);
	return cli_finish(rc);
}

/* The folder of path ("." when it has none), into dir. */
static void
folder_of(const char *path, char *dir, size_t n)
{
	const char *slash = strrchr(path, '/');

	if (slash)
		snprintf(dir, n, "%.*s", (int)(slash - path + (slash == path)),
			 path);
	else
		snprintf(dir, n, ".");
}

/*
 * The callgrind artifact of workload x backend in a results file's view,
 * as a path that works from here (into path). Returns 1 found, 0 none.
 */
static int
artifact_of(const struct prof_runview *v, const char *results_path,
	    const char *workload, const char *backend, char *path, size_t n)
{
	const struct prof_runrow *rows;
	size_t nr = prof_runview_rows(v, &rows), i, k;
	char dir[PATH_MAX / 2];

	folder_of(results_path, dir, sizeof(dir));
	for (i = 0; i < nr; i++) {
		if (strcmp(rows[i].workload, workload) ||
		    strcmp(rows[i].backend, backend))
			continue;
		for (k = 0; k < rows[i].n_artifacts; k++) {
			const char *a = rows[i].artifacts[k];
			size_t len = strlen(a);

			if (len < 10 || strcmp(a + len - 10, ".callgrind"))
				continue;
			if (a[0] == '/')
				snprintf(path, n, "%s", a);
			else
				snprintf(path, n, "%s/%s", dir, a);
			return 1;
		}
	}
	return 0;
}

/* path as the comparisons' folder sees it: relative when inside it. */
static struct json_object *
relative_to(const char *path, const char *dir)
{
	char rp[PATH_MAX], rd[PATH_MAX];
	size_t len;

	if (!realpath(path, rp))
		return json_object_new_string(path);
	if (!realpath(dir, rd))
		return json_object_new_string(rp);
	len = strlen(rd);
	if (!strncmp(rp, rd, len) && rp[len] == '/')
		return json_object_new_string(rp + len + 1);
	return json_object_new_string(rp);
}

/*
 * Ranks the functions of two profiles of one row and adds them to it:
 * fkey (the entries) and akey (the artifacts: both paths relative to
 * cmp_dir, the totals, and for time the unit and pprof's listing when it
 * is there). per_call: the profiles are CPU samples of sides that ran
 * different numbers of calls, compared as nanoseconds per call. Returns 0,
 * or -1 with err.
 */
static int
explain_pair(struct json_object *row, const char *before_path,
	     const char *after_path, int per_call, const char *listing,
	     const char *fkey, const char *akey, const struct opts *o,
	     const char *cmp_dir, struct prof_err *err)
{
	struct prof_callgrind_profile before = {0}, after = {0};
	struct prof_why why = {0};
	struct json_object *arts;
	int rc = -1;

	if (load(before_path, &before, err) < 0 ||
	    load(after_path, &after, err) < 0)
		goto out;
	if (per_call && (prof_callgrind_per_call(&before, before_path,
						 err) < 0 ||
			 prof_callgrind_per_call(&after, after_path, err) < 0))
		goto out;
	if (prof_why_diff(&before, &after, 0, &why, err) < 0) {
		prof_err_file(err, after_path);
		goto out;
	}
	json_object_object_add(row, fkey, entries_json(&why, o->top));
	arts = json_object_new_object();
	json_object_object_add(arts, "before",
			       relative_to(before_path, cmp_dir));
	json_object_object_add(arts, "after", relative_to(after_path, cmp_dir));
	if (per_call) {
		json_object_object_add(arts, "listing",
				       access(listing, R_OK) ? NULL :
				       relative_to(listing, cmp_dir));
		json_object_object_add(arts, "unit",
				       json_object_new_string("ns per call"));
	}
	json_object_object_add(arts, "total_before", ll(why.total_before));
	json_object_object_add(arts, "total_after", ll(why.total_after));
	json_object_object_add(row, akey, arts);
	rc = 0;
out:
	prof_why_free(&why);
	prof_callgrind_profile_free(&before);
	prof_callgrind_profile_free(&after);
	return rc;
}

/* Whether a callgrind artifact that a results file names is not there
 * (a promoted baseline keeps none): its row is left as it is. */
static int
not_kept(const char *path)
{
	struct stat sb;

	return stat(path, &sb) != 0 && (errno == ENOENT || errno == ENOTDIR);
}

/* "functions" for one changed row (v, read from row). Returns 0 (also
 * when a side has no artifact, or its file is not there), or -1 with
 * err. */
static int
explain_row(struct json_object *row, const struct prof_verdict *v,
	    const struct prof_runview *cur, const struct prof_runview *base,
	    const struct opts *o, const char *cmp_dir, struct prof_err *err)
{
	const char *w = v->workload;
	const char *b = v->backend;
	char after_path[PATH_MAX], before_path[PATH_MAX];

	if (!w || !b ||
	    !artifact_of(cur, o->results, w, b, after_path,
			 sizeof(after_path)) ||
	    !artifact_of(base, o->baseline, w, b, before_path,
			 sizeof(before_path)) ||
	    not_kept(after_path) || not_kept(before_path))
		return 0;
	return explain_pair(row, before_path, after_path, 0, NULL,
			    "functions", "functions_artifacts", o, cmp_dir,
			    err);
}

/* The files of a row's two sides under dir, DIR/reference/W.B.EXT and
 * DIR/current/W.B.EXT, into before and after (n bytes each). */
static void
side_paths(const char *dir, const char *w, const char *b, const char *ext,
	   char *before, char *after, size_t n)
{
	snprintf(before, n, "%s/reference/%s.%s.%s", dir, w, b, ext);
	snprintf(after, n, "%s/current/%s.%s.%s", dir, w, b, ext);
}

/*
 * --time DIR: a changed time row's CPU profiles, as pprof --callgrind
 * wrote them (DIR/reference/W.B.callgrind and DIR/current/W.B.callgrind,
 * event Hits: samples), ranked as the instructions are, into
 * "time_functions" and "time_artifacts" (with DIR/W.B.pprof.txt, pprof's
 * --base listing, when it is there). Returns 0 (also when a side has no
 * profile), or -1 with err.
 */
static int
explain_time(struct json_object *row, const struct prof_verdict *v,
	     const struct opts *o, const char *cmp_dir, struct prof_err *err)
{
	const char *w = v->workload;
	const char *b = v->backend;
	char before_path[PATH_MAX], after_path[PATH_MAX], listing[PATH_MAX];

	if (!w || !b)
		return 0;
	side_paths(o->time_dir, w, b, "callgrind", before_path, after_path,
		   sizeof(after_path));
	snprintf(listing, sizeof(listing), "%s/%s.%s.pprof.txt", o->time_dir,
		 w, b);
	if (access(before_path, R_OK) || access(after_path, R_OK))
		return 0;
	return explain_pair(row, before_path, after_path, 1, listing,
			    "time_functions", "time_artifacts", o, cmp_dir,
			    err);
}

/*
 * --memory DIR: a changed memory row's allocation sites from the DHAT
 * outputs of both sides (DIR/reference/W.B.dhat.json and DIR/current/
 * W.B.dhat.json), ranked by what its metric counts, into "memory_sites"
 * and "memory_sites_artifacts". A side without its file leaves the row
 * as it is; a file that cannot be read is the row's "memory_sites_note",
 * said once here, and never fails the run. Returns 0, or -1 with err
 * (out of memory).
 */
static int
explain_memory(struct json_object *row, const struct prof_verdict *v,
	       const struct opts *o, const char *cmp_dir, struct prof_err *err)
{
	const char *w = v->workload;
	const char *b = v->backend;
	char before_path[PATH_MAX], after_path[PATH_MAX], buf[1200];
	struct prof_dhat_profile before = {0}, after = {0};
	struct prof_dhat_diff d = {0};
	struct prof_err lerr = {0};
	struct json_object *arts;
	int rc = 0;

	if (!w || !b)
		return 0;
	side_paths(o->memory_dir, w, b, "dhat.json", before_path, after_path,
		   sizeof(after_path));
	if (access(before_path, F_OK) || access(after_path, F_OK))
		return 0;
	if (prof_dhat_load(before_path, &before, &lerr) < 0 ||
	    prof_dhat_load(after_path, &after, &lerr) < 0) {
		prof_err_str(&lerr, buf, sizeof(buf));
		cli_say("no allocation sites for %s (%s): %s", w, b, buf);
		json_object_object_add(row, "memory_sites_note",
				       json_object_new_string(buf));
		goto out;
	}
	/* A metric prof-diff does not write reads as none, whose NULL key
	 * ranks by bytes as an unknown name does. */
	if (prof_dhat_diff(&before, &after,
			   prof_dhat_by_metric(prof_cmp_metrics[v->metric].key),
			   &d, err) < 0) {
		rc = -1;
		goto out;
	}
	json_object_object_add(row, "memory_sites", sites_json(&d, o->top));
	/* No site changed: the one line that says why there are none
	 * (a changed RSS peak of a run() that allocates nothing). */
	if (!d.n) {
		if (!before.counted && !after.counted)
			snprintf(buf, sizeof(buf),
				 "%s allocated nothing on either side "
				 "(valgrind's DHAT, one call of each)",
				 after.scope == PROF_DHAT_RUN ? "run()" :
								"the process");
		else
			snprintf(buf, sizeof(buf),
				 "no allocation site changed: %zu site(s) "
				 "allocated the same on both sides (valgrind's "
				 "DHAT, one call of each)",
				 d.unchanged);
		json_object_object_add(row, "memory_sites_note",
				       json_object_new_string(buf));
	}
	arts = json_object_new_object();
	json_object_object_add(arts, "before",
			       relative_to(before_path, cmp_dir));
	json_object_object_add(arts, "after", relative_to(after_path, cmp_dir));
	sites_totals(arts, &before, &after, &d);
	json_object_object_add(row, "memory_sites_artifacts", arts);
out:
	prof_dhat_diff_free(&d);
	prof_dhat_free(&before);
	prof_dhat_free(&after);
	return rc;
}

/* Every changed row of the comparisons explained where both sides kept
 * their callgrind output. */
static int
comparisons(struct opts *o)
{
	char dir[PATH_MAX - 32], results[PATH_MAX], baseline[PATH_MAX];
	struct prof_runview cur = {0}, base = {0};
	struct prof_err err = {0};
	struct json_object *rows;
	size_t i, n, explained = 0, sited = 0;
	int rc = PROF_EXIT_FAILURE;

	folder_of(o->comparisons, dir, sizeof(dir));
	if (!o->results) {
		snprintf(results, sizeof(results), "%s/results.json", dir);
		o->results = results;
	}
	if (!o->baseline) {
		snprintf(baseline, sizeof(baseline), "%s/baseline.json", dir);
		o->baseline = baseline;
	}
	rows = prof_json_load(o->comparisons, &err);
	if (!rows) {
		prof_err_file(&err, o->comparisons);
		cli_err(&err);
		goto out;
	}
	if (!json_object_is_type(rows, json_type_array)) {
		cli_say("%s: expected an array of comparisons", o->comparisons);
		goto out;
	}
	n = json_object_array_length(rows);
	for (i = 0; i < n; i++) {
		struct json_object *row = json_object_array_get_idx(rows, i);
		struct prof_verdict v;

		if (!json_object_is_type(row, json_type_object)) {
			cli_say("%s: .[%zu]: expected an object",
				o->comparisons, i);
			goto out;
		}
		/* Unchecked, as ever: a row whose phase, metric or status
		 * prof-diff does not write reads as time, none or unjudged
		 * (and is left as it is). What prof-why adds below replaces
		 * only its own keys, never one v's strings lie in. */
		(void)prof_verdict_read(row, &v);
		if (v.status != PROF_CMP_WARNING &&
		    v.status != PROF_CMP_IMPROVED)
			continue;
		/* Memory rows: their allocation sites, and nothing else. */
		if (v.phase == PROF_VERDICT_MEMORY) {
			sited++;
			if (o->memory_dir &&
			    explain_memory(row, &v, o, dir, &err) < 0) {
				cli_err(&err);
				goto out;
			}
			continue;
		}
		if (!explained &&
		    (prof_runview_load(&cur, o->results, 0, &err) < 0 ||
		     prof_runview_load(&base, o->baseline, 0, &err) < 0)) {
			cli_err(&err);
			goto out;
		}
		explained++;
		if (explain_row(row, &v, &cur, &base, o, dir, &err) < 0 ||
		    (o->time_dir && v.phase != PROF_VERDICT_COUNT &&
		     explain_time(row, &v, o, dir, &err) < 0)) {
			cli_err(&err);
			goto out;
		}
	}
	if (!explained && !(sited && o->memory_dir) &&
	    !strcmp(o->output, o->comparisons)) {
		rc = PROF_EXIT_OK;	/* nothing changed: nothing to write */
		goto out;
	}
	/* The comparisons are rewritten in place on purpose. */
	prof_afile_forget_input(o->comparisons);
	if (prof_out_json(o->output, rows, &err) < 0) {
		if (strcmp(o->output, "-"))
			cli_err(&err);
		goto out;
	}
	rc = PROF_EXIT_OK;
out:
	json_object_put(rows);
	if (explained) {
		prof_runview_free(&cur);
		prof_runview_free(&base);
	}
	return cli_finish(rc);
}

int
main(int argc, char **argv)
{
	struct cli_getopt g;
	struct opts o = {0};

	o.top = 10;

	cli_init(argv[0]);
	if (cli_opt_init(&g, option_table, NULL) < 0)
		return cli_fail("%s", g.why);
	/* --by alone is the tool's: its words choose the kind of file. */
	while (cli_opt_parse(&g, argc, argv, &o) == OPT_BY) {
		enum prof_dhat_by by;

		if (!strcmp(optarg, "self"))
			o.by_incl = 0;
		else if (!strcmp(optarg, "inclusive"))
			o.by_incl = 1;
		else if (prof_dhat_by_parse(optarg, &by) < 0)
			return cli_fail("--by: '%s' is not self, inclusive, "
					"bytes, allocations or max-live",
					optarg);
		o.by = optarg;
	}
	if (o.output && !o.output[0])
		return cli_fail("-o: empty file name");
	if (o.comparisons) {
		if (optind < argc)
			return cli_fail("unexpected argument '%s'",
					argv[optind]);
		if (o.svg || o.json)
			return cli_fail("--comparisons writes JSON rows; "
					"--svg and --json are for two files");
		if (!strcmp(o.comparisons, "-"))
			return cli_fail("--comparisons: give a file, not "
					"stdin (it is rewritten)");
		if (!o.output)
			o.output = o.comparisons;
		if (cli_trap_signals(o.output) < 0)
			return PROF_EXIT_FAILURE;
		return comparisons(&o);
	}
	if (o.results || o.baseline || o.time_dir || o.memory_dir)
		return cli_fail("--results, --baseline, --time and --memory go "
				"with --comparisons");
	if (argc - optind < 2)
		return cli_fail("give two callgrind outputs: BEFORE AFTER");
	if (argc - optind > 2)
		return cli_fail("unexpected argument '%s'", argv[optind + 2]);
	if (!o.output)
		o.output = "-";
	{
		const char *inputs[] = {argv[optind], argv[optind + 1]};

		if (cli_not_input("-o", o.output, inputs, 2) < 0 ||
		    (o.svg && cli_not_input("--svg", o.svg, inputs, 2) < 0) ||
		    cli_trap_signals(o.output) < 0)
			return PROF_EXIT_FAILURE;
	}
	return pair(argv[optind], argv[optind + 1], &o);
}
