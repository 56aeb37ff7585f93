/* prof-baseline: promote a results file to a named baseline, refusing runs
 * that are unfit to compare against. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "afile.h"
#include "cli.h"
#include "id.h"
#include "json.h"
#include "out.h"
#include "sample.h"

static const char usage_text[] =
	"usage: prof-baseline --from RESULTS --name NAME [--output DIR]\n"
	"\n"
	"Promote the results file RESULTS (- for stdin) to the baseline\n"
	"DIR/NAME.json, written atomically; later runs compare against it\n"
	"with prof-diff --baseline DIR/NAME.json. Commit it on its own, made\n"
	"from the machine class it names (CI data for cpu-ci); CI never\n"
	"promotes.\n"
	"\n"
	"It refuses, writing nothing, a run with an error sample, with no\n"
	"samples, with a sample that asked for the GPU but ran on the CPU\n"
	"(env.backend_requested gpu, env.backend cpu), or with mixed schema\n"
	"versions (exit 1); and a NAME that is not a valid name (exit 2):\n"
	"1 to 200 letters, digits, '.', '_' and '-', the first a letter or\n"
	"a digit, as for workload ids.\n"
	"\n"
	"options:\n"
	"  --from RESULTS    the results file, e.g.\n"
	"                    artifacts/profiling/RUN/results.json\n"
	"  --name NAME       the baseline's name, e.g. cpu-ci ('.json' is\n"
	"                    added unless NAME ends with it)\n"
	"  --output DIR      the baselines folder (default baselines; created\n"
	"                    when missing)\n"
	"\n"
	"example:\n"
	"  prof-baseline --from ci/results.json --name cpu-ci\n"
	"\n"
	"Exit status: 0 promoted, 1 refused, the run is unfit (the reason is\n"
	"printed), 2 bad arguments (a bad NAME included), a malformed results\n"
	"file, an output that is the input, or a failed write.\n";

enum {
	OPT_FROM = 256,
	OPT_NAME,
	OPT_VERSION,
};

/* The schema version of o as text ("1"); 0 when it is not an integer
 * (malformed input, for the schema check to report). */
static int
version_text(struct json_object *o, char *buf, size_t n)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, "schema_version", &v) ||
	    !json_object_is_type(v, json_type_int))
		return 0;
	snprintf(buf, n, "%lld", (long long)json_object_get_int64(v));
	return 1;
}

/*
 * Mixed schema versions are a refusal, not malformed input, so they are
 * looked for before the schema check (which would reject any version but
 * this prof's). A version that is missing or not an integer is malformed
 * input: the schema check says so (exit 2). Returns 1 and fills why when
 * mixed.
 */
static int
mixed_versions(struct json_object *r, char *why, size_t n)
{
	struct json_object *arr = NULL;
	char top[32], v[32];
	size_t i, len;

	if (!json_object_is_type(r, json_type_object) ||
	    !json_object_object_get_ex(r, "samples", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return 0;
	if (!version_text(r, top, sizeof(top)))
		return 0;
	len = json_object_array_length(arr);
	for (i = 0; i < len; i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);

		if (!json_object_is_type(s, json_type_object) ||
		    !version_text(s, v, sizeof(v)))
			return 0;
		if (strcmp(v, top)) {
			snprintf(why, n,
				 "mixed schema versions: the results file is "
				 "version %s, .samples[%zu] is version %s",
				 top, i, v);
			return 1;
		}
	}
	return 0;
}

/* The first reason to refuse a checked results file, or 0. */
static int
unfit(struct json_object *r, char *why, size_t n)
{
	struct json_object *arr = NULL;
	size_t i, len, errors = 0, first = 0;

	json_object_object_get_ex(r, "samples", &arr);
	len = json_object_array_length(arr);
	if (len == 0) {
		snprintf(why, n, "the run has no samples");
		return 1;
	}
	for (i = 0; i < len; i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);

		if (prof_sample_is(s, "outcome", "error") && !errors++)
			first = i;
	}
	if (errors) {
		struct json_object *s = json_object_array_get_idx(arr, first);

		snprintf(why, n,
			 "the run has %zu error sample%s; the first, "
			 ".samples[%zu] (%s, %s): %s",
			 errors, errors == 1 ? "" : "s", first,
			 prof_sample_str(s, "workload"),
			 prof_sample_str(s, "backend"),
			 prof_sample_str(s, "reason"));
		return 1;
	}
	for (i = 0; i < len; i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		struct json_object *env = NULL;

		json_object_object_get_ex(s, "env", &env);
		if (prof_sample_is(env, "backend_requested", "gpu") &&
		    prof_sample_is(env, "backend", "cpu")) {
			snprintf(why, n,
				 ".samples[%zu] (%s) asked for the GPU but ran "
				 "on the CPU",
				 i, prof_sample_str(s, "workload"));
			return 1;
		}
	}
	return 0;
}

static int
promote(const char *from, const char *name, const char *dir)
{
	struct json_object *r = NULL, *arr = NULL;
	struct prof_err err = {0};
	char why[1024], path[4096];
	size_t nlen = strlen(name);
	int rc = PROF_EXIT_FAILURE;

	if (snprintf(path, sizeof(path), "%s/%s%s", dir, name,
		     nlen > 5 && !strcmp(name + nlen - 5, ".json") ? "" :
								    ".json") >=
	    (int)sizeof(path)) {
		cli_say("--output: '%s': path too long",
			cli_safe(dir, why, sizeof(why)));
		goto out;
	}
	if (cli_not_input("--name", path, &from, 1) < 0)
		goto out;
	r = prof_json_load(from, &err);
	if (!r) {
		cli_err(&err);
		goto out;
	}
	if (mixed_versions(r, why, sizeof(why))) {
		cli_say("refusing '%s': %s", from, why);
		rc = PROF_EXIT_ERRORED;
		goto out;
	}
	if (prof_results_check(r, &err) < 0) {
		prof_err_file(&err, from);
		cli_err(&err);
		goto out;
	}
	if (unfit(r, why, sizeof(why))) {
		cli_say("refusing '%s': %s", from, why);
		rc = PROF_EXIT_ERRORED;
		goto out;
	}
	if (prof_mkdirs(dir, &err) < 0 ||
	    prof_out_json(path, r, &err) < 0) {
		cli_err(&err);
		goto out;
	}
	json_object_object_get_ex(r, "samples", &arr);
	cli_say("promoted run '%s' (%zu samples) to '%s'",
		prof_json_str(r, "run_id"), json_object_array_length(arr),
		path);
	rc = PROF_EXIT_OK;
out:
	json_object_put(r);
	return cli_finish(rc);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"from", required_argument, NULL, OPT_FROM},
		{"name", required_argument, NULL, OPT_NAME},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	const char *from = NULL, *name = NULL, *dir = "baselines";
	char why[256];
	int c;

	cli_init(argv[0]);
	while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FROM:
			from = optarg;
			break;
		case OPT_NAME:
			name = optarg;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return cli_finish(PROF_EXIT_OK);
		case OPT_VERSION:
			printf("prof-baseline %s\n", PROF_VERSION);
			return cli_finish(PROF_EXIT_OK);
		default:
			fputs(usage_text, stderr);
			return PROF_EXIT_FAILURE;
		}
	}
	if (optind < argc)
		return cli_fail("unexpected argument '%s'", argv[optind]);
	if (!from || !from[0])
		return cli_fail("give the results file: --from RESULTS");
	if (!name)
		return cli_fail("give the baseline's name: --name NAME");
	if (!dir[0])
		return cli_fail("--output: empty folder name");
	if (!prof_id_valid(name, why, sizeof(why))) {
		char safe[512];

		/* A bad argument (2), not an unfit run (1); the name is
		 * escaped, so a newline in it cannot split the message. */
		return cli_fail("--name: '%s' is not a valid baseline name: %s",
				cli_safe(name, safe, sizeof(safe)), why);
	}
	return promote(from, name, dir);
}
