/* worker.c: main() of every workload binary: --list, --probe, --worker. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/env.h"
#include "base/json.h"
#include "base/prof.h"
#include "internal.h"
#include "model/sample.h"
#include "phases.h"

static const char usage_text[] =
	"usage: %s --list\n"
	"       %s --probe\n"
	"       %s --worker ID [--backend cpu|gpu] [--requested B]\n"
	"              [--phase timing|memory|profile|instructions]\n"
	"              [--kind warm|cold] [--warmup N] [--repeat N]\n"
	"              [--artifacts DIR] [--min-seconds S]\n"
	"              [--valgrind VERSION]\n"
	"\n"
	"A prof workload binary. prof-time runs it as a worker, one workload x\n"
	"backend x phase per process, and reads its samples (JSON lines).\n"
	"  --list      one JSON object per registered workload\n"
	"  --probe     whether a GPU backend and device are available\n"
	"  --worker ID run workload ID and print its samples\n";

static void
usage(FILE *fp)
{
	fprintf(fp, usage_text, prof_progname, prof_progname, prof_progname);
}

static int
die(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prof_progname);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return PROF_EXIT_FAILURE;
}

static struct json_object *
backends_json(unsigned b)
{
	struct json_object *a = json_object_new_array();

	if (b & PROF_CPU)
		json_object_array_add(a, json_object_new_string("cpu"));
	if (b & PROF_GPU)
		json_object_array_add(a, json_object_new_string("gpu"));
	return a;
}

static struct json_object *
build_json(void)
{
	struct json_object *o = json_object_new_object();
	const struct prof_gpu_ops *gpu = prof_gpu_backend();

	json_object_object_add(o, "compiler",
			       json_object_new_string(prof_build_compiler));
	json_object_object_add(
		o, "compiler_version",
		json_object_new_string(prof_build_compiler_version));
	json_object_object_add(o, "cflags",
			       json_object_new_string(prof_build_cflags));
	json_object_object_add(o, "gpu_backend",
			       gpu ? json_object_new_string(gpu->name) : NULL);
	return o;
}

static const char *
or_none(const char *s)
{
	return s && s[0] ? s : "none";
}

static int
cmd_list(void)
{
	size_t i;

	for (i = 0; i < prof_registry_count(); i++) {
		const struct prof_workload *w = prof_registry_at(i);
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_string(w->id));
		json_object_object_add(o, "version",
				       json_object_new_int(w->version));
		json_object_object_add(o, "category",
				       json_object_new_string(w->category));
		json_object_object_add(o, "fixture",
				       json_object_new_string(or_none(w->fixture)));
		json_object_object_add(o, "quick",
				       json_object_new_boolean(w->quick));
		json_object_object_add(o, "backends", backends_json(w->backends));
		json_object_object_add(o, "warning_floor_ms",
				       prof_json_double(w->warning_floor_ms));
		json_object_object_add(
			o, "count_threshold_pct",
			prof_json_double(prof_count_threshold(w)));
		json_object_object_add(o, "threads",
				       json_object_new_int64(prof_threads(w)));
		/* 0: none of its own (prof-time's, or the default). */
		json_object_object_add(
			o, "time_threshold_pct",
			w->time_threshold_pct > 0 ?
				prof_json_double(w->time_threshold_pct) :
				NULL);
		json_object_object_add(o, "dtype",
				       json_object_new_string(or_none(w->dtype)));
		json_object_object_add(
			o, "problem_size",
			json_object_new_string(or_none(w->problem_size)));
		json_object_object_add(o, "tile",
				       json_object_new_string(or_none(w->tile)));
		json_object_object_add(
			o, "cold_group",
			w->cold_group && w->cold_group[0] ?
				json_object_new_string(w->cold_group) :
				NULL);
		json_object_object_add(o, "build", build_json());
		prof_emit(o);
		json_object_put(o);
	}
	return PROF_EXIT_OK;
}

static int
cmd_probe(void)
{
	struct prof_gpu_device dev;
	char why[512] = "";
	struct json_object *o = json_object_new_object(), *g;
	int ok = prof_gpu_probe(&dev, why, sizeof(why)) == 0;

	g = json_object_new_object();
	json_object_object_add(g, "available", json_object_new_boolean(ok));
	json_object_object_add(g, "reason",
			       ok ? NULL : json_object_new_string(why));
	if (ok) {
		json_object_object_add(g, "name",
				       json_object_new_string(dev.name));
		json_object_object_add(g, "cc", json_object_new_string(dev.cc));
		json_object_object_add(g, "sms", json_object_new_int(dev.sms));
		json_object_object_add(g, "memory_bytes",
				       json_object_new_int64(dev.memory_bytes));
		json_object_object_add(g, "driver",
				       json_object_new_string(dev.driver));
		json_object_object_add(g, "runtime",
				       json_object_new_string(dev.runtime));
	}
	json_object_object_add(o, "gpu", g);
	json_object_object_add(o, "build", build_json());
	prof_emit(o);
	json_object_put(o);
	return PROF_EXIT_OK;
}

/* A non-negative integer argument, or -1. */
static long
parse_count(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT_MAX)
		return -1;
	return v;
}

/* A count option's argument into *out: 0, or the exit code (said). */
static int
take_count(const char *opt, const char *arg, long *out)
{
	*out = parse_count(arg);
	if (*out >= 0)
		return 0;
	fprintf(stderr, "%s: %s: '%s' is not a count\n", prof_progname, opt,
		arg);
	return PROF_EXIT_FAILURE;
}

/* The worker's command line into a, *list and *probe: -1, or the exit
 * code (said) where it ends here. */
static int
parse_args(int argc, char **argv, struct prof_worker_args *a, int *list,
	   int *probe)
{
	static const struct option opts[] = {
		{"list", no_argument, NULL, 'l'},
		{"probe", no_argument, NULL, 'P'},
		{"worker", required_argument, NULL, 'w'},
		{"backend", required_argument, NULL, 'b'},
		{"requested", required_argument, NULL, 'r'},
		{"phase", required_argument, NULL, 'p'},
		{"kind", required_argument, NULL, 'k'},
		{"warmup", required_argument, NULL, 'W'},
		{"repeat", required_argument, NULL, 'n'},
		{"artifacts", required_argument, NULL, 'a'},
		{"min-seconds", required_argument, NULL, 's'},
		{"valgrind", required_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, rc = 0;
	char *end;

	while (rc == 0 && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			*list = 1;
			break;
		case 'P':
			*probe = 1;
			break;
		case 'w':
			a->id = optarg;
			break;
		case 'b':
			a->backend = optarg;
			break;
		case 'r':
			a->requested = optarg;
			break;
		case 'p':
			a->phase = optarg;
			break;
		case 'k':
			a->kind = optarg;
			break;
		case 'W':
			rc = take_count("--warmup", optarg, &a->warmup);
			break;
		case 'n':
			rc = take_count("--repeat", optarg, &a->repeat);
			break;
		case 'a':
			a->artifacts = optarg;
			break;
		case 's':
			a->min_seconds = strtod(optarg, &end);
			if (end == optarg || *end || a->min_seconds < 0)
				return die("--min-seconds: '%s' is not a "
					   "number of seconds",
					   optarg);
			break;
		case 'V':
			a->valgrind = optarg;
			break;
		case 'h':
			usage(stdout);
			return PROF_EXIT_OK;
		default:
			usage(stderr);
			return PROF_EXIT_FAILURE;
		}
	}
	if (rc)
		return rc;
	if (optind < argc)
		return die("unexpected argument '%s'", argv[optind]);
	return -1;
}

/* The registry as linked: no id twice, none invalid. 0, or the exit code
 * (said). */
static int
registry_check(void)
{
	const char *dup = prof_registry_duplicate(), *why = NULL;
	const struct prof_workload *bad;
	const unsigned char *ch;

	if (dup)
		return die("workload id '%s' is registered twice", dup);
	bad = prof_registry_invalid(&why);
	if (!bad)
		return 0;
	/* The id as printable ASCII: it may be what makes it bad. */
	fprintf(stderr, "%s: workload '", prof_progname);
	for (ch = (const unsigned char *)bad->id; ch && *ch; ch++)
		if (*ch >= 0x20 && *ch < 0x7f && *ch != '\\' && *ch != '\'')
			fputc(*ch, stderr);
		else
			fprintf(stderr, "\\x%02x", *ch);
	fprintf(stderr, "%s': %s\n", bad->id ? "" : "?", why);
	return PROF_EXIT_FAILURE;
}

int
main(int argc, char **argv)
{
	struct prof_worker_args a = {
		.backend = "cpu",
		.phase = "timing",
		.kind = "warm",
		.warmup = 0,
		.repeat = 1,
		.artifacts = ".",
		.min_seconds = 2.0,
	};
	int rc, list = 0, probe = 0;
	char *slash;

	slash = strrchr(argv[0], '/');
	prof_progname = slash ? slash + 1 : argv[0];
	rc = parse_args(argc, argv, &a, &list, &probe);
	if (rc >= 0)
		return rc;
	rc = registry_check();
	if (rc)
		return rc;
	if (list + probe + (a.id != NULL) != 1) {
		usage(stderr);
		return PROF_EXIT_FAILURE;
	}
	if (list)
		return cmd_list();
	if (probe)
		return cmd_probe();
	a.w = prof_registry_find(a.id);
	if (!a.w)
		return die("unknown workload '%s'", a.id);
	if (strcmp(a.backend, "cpu") && strcmp(a.backend, "gpu"))
		return die("--backend: '%s' is not cpu or gpu", a.backend);
	if (strcmp(a.kind, "warm") && strcmp(a.kind, "cold"))
		return die("--kind: '%s' is not warm or cold", a.kind);
	if (!a.requested)
		a.requested = a.backend;
	a.progname = prof_progname;
	return prof_worker_run(&a);
}
