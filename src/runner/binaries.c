/* binaries.c: asking workload binaries what they hold (--list) and
 * whether they have a usable GPU (--probe). */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/id.h"
#include "model/gbench.h"
#include "runner-int.h"

/*
 * A file of prof's beside this program (its workload binary, its preload
 * libraries in a build tree), or else in ../lib/prof/ (the preload
 * libraries of an installed prof). The path beside it when neither is
 * there.
 */
const char *
binaries_beside_me(const char *name, char *path, size_t n)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (len <= 0) {
		snprintf(path, n, "%s", name);
		return path;
	}
	self[len] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, n, "%s/../lib/prof/%s", self, name);
	if (access(path, F_OK) == 0)
		return path;
	snprintf(path, n, "%s/%s", self, name);
	return path;
}

const char *
binaries_default(void)
{
	static char path[PATH_MAX + 32];

	return binaries_beside_me("prof-workloads", path, sizeof(path));
}

struct collect {
	struct json_object *arr;
	struct prof_err err;
	const char *name;
	int line;
	int bad;
};

static int
collect_line(void *arg, char *line, size_t len, int complete)
{
	struct collect *c = arg;
	struct json_object *o;

	c->line++;
	if (c->bad)
		return 0;
	o = prof_json_parse(line, len, c->name, c->line, &c->err);
	if (!o) {
		c->bad = 1;
		return 0;
	}
	json_object_array_add(c->arr, o);
	(void)complete;
	return 0;
}

/* Say why (cli_say()), or with msg put it there. */
static void __attribute__((format(printf, 3, 4)))
say(char *msg, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (msg) {
		vsnprintf(msg, n, fmt, ap);
	} else {
		char buf[1400];

		vsnprintf(buf, sizeof(buf), fmt, ap);
		cli_say("%s", buf);
	}
	va_end(ap);
}

/* How long a binary's listing may take: --timeout, 60 s at most. */
static double
list_timeout(const struct opts *o)
{
	return o && o->timeout_s > 0 && o->timeout_s < 60 ? o->timeout_s : 60;
}

/* How ask_bin() failed. */
enum { ASK_FAILED, ASK_TIMED_OUT, ASK_NOT_RUN, ASK_BAD_JSON };

/*
 * Run "bin flag" and return its JSON lines as an array, or NULL after
 * printing why (exit 2 territory); with msg, why goes there instead, and
 * *how (when not NULL) says how it failed: it ran and failed (exited
 * other than 0, or was killed), ran out of timeout_s, could not be run,
 * or exited 0 with lines that are not JSON.
 */
static struct json_object *
ask_bin(const char *bin, const char *flag, double timeout_s, char *msg,
	size_t msg_n, int *how)
{
	char *argv[] = {(char *)bin, (char *)flag, NULL};
	struct collect c = {.arr = json_object_new_array(), .name = bin};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	char why[1024];

	if (how)
		*how = ASK_NOT_RUN;
	if (access(bin, X_OK) != 0 && strchr(bin, '/')) {
		say(msg, msg_n, "workload binary '%s': %s%s", bin, strerror(errno),
			errno == ENOENT ? " (run make to build it, or pass "
					  "--workloads BIN)" :
					  "");
		json_object_put(c.arr);
		return NULL;
	}
	if (prof_spawn_read(argv, timeout_s, collect_line, &c, &res, &err) < 0) {
		say(msg, msg_n, "%s", prof_err_str(&err, why, sizeof(why)));
		json_object_put(c.arr);
		return NULL;
	}
	if (how)
		*how = res.exec_errno ? ASK_NOT_RUN :
		       res.timed_out ? ASK_TIMED_OUT :
				       ASK_FAILED;
	if (!prof_spawn_ok(&res)) {
		prof_spawn_describe(&res, bin, timeout_s, why, sizeof(why));
		say(msg, msg_n, "workload binary '%s' %s failed: %s", bin, flag, why);
		prof_spawn_free(&res);
		json_object_put(c.arr);
		return NULL;
	}
	prof_spawn_free(&res);
	if (c.bad) {
		if (how)
			*how = ASK_BAD_JSON;
		say(msg, msg_n, "workload binary '%s' %s wrote bad JSON: %s", bin, flag,
			prof_err_str(&c.err, why, sizeof(why)));
		json_object_put(c.arr);
		return NULL;
	}
	return c.arr;
}

/* The lines of a Google Benchmark binary's --benchmark_list_tests. */
static int
collect_name(void *arg, char *line, size_t len, int complete)
{
	struct collect *c = arg;

	(void)complete;
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	if (len)
		json_object_array_add(c->arr,
				      json_object_new_string_len(line, (int)len));
	return 0;
}

/*
 * Whether bin is a Google Benchmark binary: it answers
 * --benchmark_list_tests=true with its benchmarks' names, one a line, and
 * exits 0, within timeout_s. Returns the names, or NULL with why in
 * words ("timed out after 60 s", "listed no benchmark: ...").
 */
static struct json_object *
gbench_names(const char *bin, double timeout_s, char *why, size_t n)
{
	char *argv[] = {(char *)bin, "--benchmark_list_tests=true", NULL};
	struct collect c = {.arr = json_object_new_array(), .name = bin};
	struct prof_spawn_result res;
	struct prof_err err = {0};
	char d[1024];

	if (!c.arr ||
	    prof_spawn_read(argv, timeout_s, collect_name, &c, &res, &err) < 0) {
		snprintf(why, n, "%s", c.arr ? prof_err_str(&err, d, sizeof(d)) :
					       "out of memory");
		json_object_put(c.arr);
		return NULL;
	}
	if (!prof_spawn_ok(&res)) {
		prof_spawn_describe(&res, bin, timeout_s, d, sizeof(d));
		snprintf(why, n, "%s%s", d,
			 res.timed_out ? ": its listing hangs (a listing "
					 "waits --timeout, 60 s at most)" :
					 "");
	} else if (json_object_array_length(c.arr) == 0) {
		snprintf(why, n, "it lists no benchmark (it exited 0 and wrote "
				 "no name)");
	} else {
		prof_spawn_free(&res);
		return c.arr;
	}
	prof_spawn_free(&res);
	json_object_put(c.arr);
	return NULL;
}

/*
 * The side file of a Google Benchmark binary, BIN.workloads beside it, when
 * there is one: a line "PATTERN CATEGORY quick|full FLOOR_MS" per rule
 * (blank lines and '#' comments aside), PATTERN a shell pattern on the
 * benchmark's name (fnmatch), the first that matches deciding. Returns
 * the rules as [{pattern, category, quick, floor}] ([] without a file),
 * or NULL after a message naming FILE:LINE.
 */
static struct json_object *
gbench_rules(const char *bin)
{
	struct json_object *rules = json_object_new_array();
	struct prof_err err = {0};
	char path[PATH_MAX], *line = NULL, why[200];
	size_t cap = 0;
	FILE *fp;
	int n = 0;

	snprintf(path, sizeof(path), "%s.workloads", bin);
	if (!rules) {
		cli_say("out of memory");
		return NULL;
	}
	/* A regular file only: a FIFO named so would wait for ever. */
	fp = prof_input_open(path, 0, 0, &err);
	if (!fp) {
		if (errno == ENOENT)
			return rules;
		if (errno)
			cli_say("'%s': %s", path, strerror(errno));
		else
			cli_err(&err);
		json_object_put(rules);
		return NULL;
	}
	while (getline(&line, &cap, fp) > 0) {
		char *f[5] = {0}, *save = NULL, *t = line;
		const char *end = NULL;
		struct json_object *r;
		double floor = 0;
		int k = 0;

		n++;
		for (; k < 5 && (f[k] = strtok_r(t, " \t\r\n", &save)); k++)
			t = NULL;
		if (!k || f[0][0] == '#')
			continue;
		if (k != 4) {
			cli_say("%s:%d: expected PATTERN CATEGORY quick|full "
				"FLOOR_MS, got %d field%s",
				path, n, k, k == 1 ? "" : "s");
			goto fail;
		}
		if (!prof_id_valid(f[1], why, sizeof(why))) {
			cli_say("%s:%d: category '%.100s': %s", path, n, f[1],
				why);
			goto fail;
		}
		if (strcmp(f[2], "quick") && strcmp(f[2], "full")) {
			cli_say("%s:%d: '%.100s' is not quick or full", path, n,
				f[2]);
			goto fail;
		}
		if (prof_range_real(f[3], &end, 0, PROF_MS_MAX, "FLOOR_MS",
				    &floor, &err) != 0 ||
		    *end || prof_range_ms(floor, &err) < 0) {
			cli_say("%s:%d: FLOOR_MS '%.100s': %s", path, n, f[3],
				err.reason[0] ? err.reason :
						"expected a number of ms");
			goto fail;
		}
		r = json_object_new_object();
		json_object_object_add(r, "pattern",
				       json_object_new_string(f[0]));
		json_object_object_add(r, "category",
				       json_object_new_string(f[1]));
		json_object_object_add(r, "quick",
				       json_object_new_boolean(!strcmp(f[2],
								       "quick")));
		json_object_object_add(r, "floor", json_object_new_double(floor));
		json_object_array_add(rules, r);
	}
	free(line);
	fclose(fp);
	return rules;
fail:
	free(line);
	fclose(fp);
	json_object_put(rules);
	return NULL;
}

/* The first rule whose pattern matches name, or NULL. */
static struct json_object *
gbench_rule(struct json_object *rules, const char *name)
{
	size_t i;

	for (i = 0; i < json_object_array_length(rules); i++) {
		struct json_object *r = json_object_array_get_idx(rules, i);

		if (!fnmatch(prof_json_str(r, "pattern"), name, 0))
			return r;
	}
	return NULL;
}

/* The workload of id among like's n, or NULL. */
static const struct workload *
like_of(const struct workload *like, long n, const char *id)
{
	long k;

	for (k = 0; like && k < n; k++)
		if (!strcmp(like[k].id, id))
			return &like[k];
	return NULL;
}

/*
 * The descriptions of a Google Benchmark binary's benchmarks, as --list
 * would give them: id by prof_gbench_id(), category, quick flag and
 * warning floor from the first rule of its side file that matches
 * (gbench_rules(); none: category gbench, quick, floor 0, the times being
 * per iteration), the CPU backend, fixture and gbench the benchmark's
 * name. A reference binary of an A/B without a side file of its own (one
 * built by hand) takes them from the current side's workload of the same
 * id (o->like), so that both sides plan the same benchmarks. NULL after
 * a message (a bad side file, a name without an id, or two names of one
 * id).
 */
static struct json_object *
gbench_descs(const struct opts *o, const char *bin, struct json_object *names)
{
	struct json_object *arr, *seen, *rules = gbench_rules(bin);
	size_t i;

	if (!rules)
		return NULL;
	arr = json_object_new_array();
	seen = json_object_new_object();
	for (i = 0; arr && seen && i < json_object_array_length(names); i++) {
		const char *name = json_object_get_string(
			json_object_array_get_idx(names, i));
		struct json_object *d, *prev = NULL, *backends, *rule;
		const struct workload *like;
		char id[PROF_ID_MAX + 1], why[160];

		if (prof_gbench_id(name, id, sizeof(id), why, sizeof(why)) <
		    0) {
			cli_say("Google Benchmark binary '%s': benchmark "
				"'%.200s': %s",
				bin, name, why);
			goto fail;
		}
		if (json_object_object_get_ex(seen, id, &prev)) {
			cli_say("Google Benchmark binary '%s': '%.200s' and "
				"'%.200s' are both workload '%s': rename one",
				bin, json_object_get_string(prev), name, id);
			goto fail;
		}
		json_object_object_add(seen, id, json_object_new_string(name));
		d = json_object_new_object();
		backends = json_object_new_array();
		json_object_array_add(backends, json_object_new_string("cpu"));
		json_object_object_add(d, "id", json_object_new_string(id));
		json_object_object_add(d, "version", json_object_new_int(1));
		rule = gbench_rule(rules, name);
		like = json_object_array_length(rules) ?
			       NULL :
			       like_of(o->like, o->n_like, id);
		json_object_object_add(
			d, "category",
			json_object_new_string(
				like ? like->category :
				rule ? prof_json_str(rule, "category") :
				       "gbench"));
		json_object_object_add(
			d, "quick",
			json_object_new_boolean(
				like ? like->quick :
				!rule || json_object_get_boolean(
						 json_object_object_get(
							 rule, "quick"))));
		json_object_object_add(d, "fixture",
				       json_object_new_string(name));
		json_object_object_add(
			d, "warning_floor_ms",
			json_object_new_double(
				like ? prof_json_numf(like->desc,
						      "warning_floor_ms") :
				rule ? prof_json_numf(rule, "floor") : 0));
		json_object_object_add(d, "backends", backends);
		/* As gbench.h's samples say (an error sample's env too). */
		json_object_object_add(d, "dtype", json_object_new_string("none"));
		json_object_object_add(d, "problem_size",
				       json_object_new_string("none"));
		json_object_object_add(d, "tile", json_object_new_string("none"));
		json_object_object_add(d, "gbench",
				       json_object_new_string(name));
		json_object_array_add(arr, d);
	}
	json_object_put(seen);
	json_object_put(rules);
	return arr;
fail:
	json_object_put(seen);
	json_object_put(rules);
	json_object_put(arr);
	return NULL;
}

static int
has_backend(struct json_object *desc, const char *b)
{
	struct json_object *a;
	size_t i;

	if (!json_object_object_get_ex(desc, "backends", &a))
		return 0;
	for (i = 0; i < json_object_array_length(a); i++)
		if (!strcmp(json_object_get_string(
				    json_object_array_get_idx(a, i)),
			    b))
			return 1;
	return 0;
}

/*
 * --only: keep the workloads whose id matches one of the patterns (shell
 * patterns, fnmatch()), freeing the others; each pattern must match a
 * workload, except on the reference side of an A/B (o->like), which may
 * lack a workload the current side has. Returns how many are kept, or -1
 * after a message (every workload freed).
 */
static long
keep_only(const struct opts *o, struct workload *all, long n)
{
	long k, kept = 0;
	int p, hit[64] = {0};

	if (!o->n_only)
		return n;
	for (k = 0; k < n; k++) {
		int match = 0;

		for (p = 0; p < o->n_only; p++)
			if (!fnmatch(o->only[p], all[k].id, 0))
				match = hit[p] = 1;
		if (match)
			all[kept++] = all[k];
		else
			json_object_put(all[k].desc);
	}
	for (p = 0; !o->like && p < o->n_only; p++)
		if (!hit[p]) {
			cli_say("--only '%s' (W= in make): no workload's id "
				"matches it (prof-time --list lists them)",
				o->only[p]);
			while (kept > 0)
				json_object_put(all[--kept].desc);
			return -1;
		}
	return kept;
}

/* Binary b's listing: its --list, or a Google Benchmark binary's
 * benchmarks as workloads (bins[b].gbench set). NULL (said) on a
 * failure. */
static struct json_object *
listing_of(struct opts *o, struct workload_binary *bins, int b)
{
	char msg[1400], gwhy[1400];
	double limit = list_timeout(o);
	int how;
	struct json_object *arr = ask_bin(o->bins[b], "--list", limit, msg,
					  sizeof(msg), &how);
	struct json_object *names = NULL;

	bins[b].path = o->bins[b];
	if (!arr && how != ASK_FAILED) {
		cli_say("%s%s", msg,
			how == ASK_TIMED_OUT ?
				": its listing hangs (a listing waits "
				"--timeout, 60 s at most)" :
				"");
		return NULL;
	}
	/* Not prof's protocol: a Google Benchmark binary answers
	 * --benchmark_list_tests; anything else fails as --list did, and
	 * the line says both. */
	if (!arr && (names = gbench_names(o->bins[b], limit, gwhy,
					  sizeof(gwhy)))) {
		bins[b].gbench = 1;
		arr = gbench_descs(o, o->bins[b], names);
		json_object_put(names);
	} else if (!arr) {
		cli_say("%s; as a Google Benchmark binary, "
			"--benchmark_list_tests=true: %s",
			msg, gwhy);
	}
	return arr;
}

/* Entry i of binary bin's listing checked: an id and a category, the id
 * valid and in no binary before. 0, or -1 (said). */
static int
entry_check(const char *bin, struct json_object *d, size_t i,
	    const struct workload *all, long n)
{
	char why[256];
	long k;

	if (!prof_json_str(d, "id") || !prof_json_str(d, "category")) {
		cli_say("workload binary '%s' --list: entry %zu has no id or "
			"category",
			bin, i + 1);
		return -1;
	}
	if (!prof_id_valid(prof_json_str(d, "id"), why, sizeof(why))) {
		cli_say("workload binary '%s' --list: entry %zu: not a "
			"workload id: %s",
			bin, i + 1, why);
		return -1;
	}
	for (k = 0; k < n; k++)
		if (!strcmp(all[k].id, prof_json_str(d, "id"))) {
			cli_say("workload '%s' is in both '%s' and '%s'",
				all[k].id, all[k].bin, bin);
			return -1;
		}
	return 0;
}

/* Binary bin's listing arr added to *all (*n of them so far). 0, or -1
 * (said). */
static int
add_listing(const char *bin, int gbench, struct json_object *arr,
	    struct workload **all, long *n)
{
	size_t i;

	/* A binary that answers with no workload is no workload binary of
	 * the protocol (or one with none registered): said by its name, not
	 * as a selection that matched nothing. */
	if (json_object_array_length(arr) == 0) {
		cli_say("workload binary '%s' --list listed no workload (it "
			"exited 0 and wrote no JSON line): not a workload "
			"binary of prof's protocol, or one with no workload "
			"registered",
			bin);
		return -1;
	}
	for (i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *d = json_object_array_get_idx(arr, i);
		struct workload *w;
		struct json_object *q;

		if (entry_check(bin, d, i, *all, *n) < 0 ||
		    PROF_RESIZE(*all, (size_t)*n + 1) < 0)
			return -1;
		w = &(*all)[(*n)++];
		memset(w, 0, sizeof(*w));
		w->bin = bin;
		w->desc = json_object_get(d);
		w->id = prof_json_str(d, "id");
		w->category = prof_json_str(d, "category");
		w->cold_group = prof_json_str(d, "cold_group");
		w->quick = json_object_object_get_ex(d, "quick", &q) &&
			   json_object_get_boolean(q);
		w->cpu = has_backend(d, "cpu");
		w->gpu = has_backend(d, "gpu");
		w->gbench = gbench ? prof_json_str(d, "gbench") : NULL;
	}
	return 0;
}

/* Read every binary's list. Returns the count, or -1 after a message. */
long
binaries_load_workloads(struct opts *o, struct workload_binary *bins,
			struct workload **out)
{
	struct workload *all = NULL;
	long n = 0;
	int b;

	for (b = 0; b < o->n_bins; b++) {
		struct json_object *arr = listing_of(o, bins, b);
		int rc;

		if (!arr)
			goto fail;
		rc = add_listing(o->bins[b], bins[b].gbench, arr, &all, &n);
		json_object_put(arr);
		if (rc < 0)
			goto fail;
	}
	n = keep_only(o, all, n);
	if (n < 0)
		goto fail_kept;
	*out = all;
	return n;
fail_kept:
	n = 0;
fail:
	while (n > 0)
		json_object_put(all[--n].desc);
	free(all);
	return -1;
}

/* Ask a binary once whether it has a usable GPU. */
void
binaries_probe(struct workload_binary *b)
{
	struct json_object *arr, *g = NULL, *av;

	if (b->probed)
		return;
	b->probed = 1;
	if (b->gbench) {
		snprintf(b->gpu_why, sizeof(b->gpu_why),
			 "'%s' is a Google Benchmark binary, without a GPU "
			 "backend",
			 b->path);
		return;
	}
	arr = ask_bin(b->path, "--probe", 60, NULL, 0, NULL);
	if (!arr || json_object_array_length(arr) < 1) {
		snprintf(b->gpu_why, sizeof(b->gpu_why),
			 "'%s' --probe did not answer", b->path);
		json_object_put(arr);
		return;
	}
	b->probe = json_object_get(json_object_array_get_idx(arr, 0));
	json_object_put(arr);
	if (json_object_object_get_ex(b->probe, "gpu", &g) &&
	    json_object_object_get_ex(g, "available", &av) &&
	    json_object_get_boolean(av)) {
		b->gpu_ok = 1;
		return;
	}
	snprintf(b->gpu_why, sizeof(b->gpu_why), "%s",
		 g && prof_json_str(g, "reason") ? prof_json_str(g, "reason") :
						   "unknown reason");
}

struct workload_binary *
binaries_find(struct workload_binary *bins, int n, const char *path)
{
	int i;

	for (i = 0; i < n; i++)
		if (bins[i].path == path)
			return &bins[i];
	return NULL;
}

/* --backend gpu needs a device in some binary: exit 2 otherwise. */
int
binaries_require_gpu(struct opts *o, struct workload_binary *bins)
{
	const char *why = NULL;
	int i;

	for (i = 0; i < o->n_bins; i++) {
		binaries_probe(&bins[i]);
		if (bins[i].gpu_ok)
			return 0;
		/* Prefer the reason of a binary that has a GPU backend. */
		if (!why || strstr(why, "without a GPU backend"))
			why = bins[i].gpu_why;
	}
	return cli_fail("--backend gpu: no CUDA device found: %s",
			why ? why : "no workload binary");
}
