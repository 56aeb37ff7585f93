/* bench-tools.c: make bench-tools: seeded synthetic results of many
 * samples, and what prof-merge, prof-diff and prof-report take on them
 * (wall time, peak RSS from wait4), each beside the time json-c's tokener
 * takes to parse the same bytes, measured in the same run; and the other
 * readers of a whole results file, prof-report --html and prof-history
 * add, for their memory; and prof-report --html on ever more rows, beside
 * the same parse, for how it grows; and prof-dashboard over a history of
 * many runs of many series. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

static const char usage_text[] =
	"usage: bench-tools [--bindir DIR] [--dir DIR] [--rows R] [--seed S]\n"
	"                   [--html-rows R]... [--dashboard RUNSxSERIES]\n"
	"                   [SAMPLES...]\n"
	"       bench-tools --parse FILE\n"
	"\n"
	"For each SAMPLES, write a sample stream of that many seeded\n"
	"synthetic samples over R rows (default 2000; fewer when there are\n"
	"under 5 samples a row) into DIR/SAMPLES/ (default a new folder under\n"
	"TMPDIR, removed after), then time prof-merge (stream -> results),\n"
	"prof-diff (the results against themselves) and prof-report, each in\n"
	"its own process, with its peak RSS (wait4), and json-c's tokener on\n"
	"the same bytes in a process of its own: the whole results document,\n"
	"or the stream line by line. prof-report --html (the page too) and\n"
	"prof-history add (into a new database) are timed the same way,\n"
	"outside the ratio. Prints a Markdown table.\n"
	"\n"
	"Each --html-rows R (repeatable) writes R rows of 5 samples, compares\n"
	"them with themselves and times prof-report --html with those\n"
	"comparisons and that baseline, beside json-c's parse of the same\n"
	"results document in the same run; the ratio of their CPU times stays\n"
	"flat while the page grows with the rows (the targets: the largest\n"
	"size's ratio at most 2x the smallest's, and 128 MB at every size;\n"
	"past 2000 rows the page draws the changed and errored ones only),\n"
	"with the CPU time and peak of the prof-merge and prof-diff steps\n"
	"before it (128 MB too; \"(over)\" marks a miss, of the page's\n"
	"peak too). A second table.\n"
	"\n"
	"--dashboard RUNSxSERIES writes RUNS seeded results files (schema\n"
	"2) of SERIES series each (3 samples a series; every fourth series\n"
	"also counted in instructions; one in ten steps up 20% halfway),\n"
	"imports them with prof-history import and times prof-dashboard on\n"
	"the history (the targets: 60 s of CPU time and 128 MB). A third\n"
	"table.\n"
	"\n"
	"--parse FILE parses FILE with json_tokener_parse_ex in 64 KiB chunks\n"
	"(a .jsonl file line by line) and prints the seconds it took.\n";

/* xorshift64*: the synthetic data depends on the seed alone. */
static uint64_t rng;

static uint64_t
next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static double
uniform(void)
{
	return (double)(next() >> 11) / 9007199254740992.0;
}

static void
hex64(char *out)
{
	static const char d[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 64; i++)
		out[i] = d[next() & 15];
	out[64] = '\0';
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *env_text[2] = {
	"{\"os\":\"linux\",\"distro\":\"debian\",\"distro_version\":\"12\","
	"\"distro_name\":\"Debian GNU/Linux 12 (bookworm)\",\"kernel\":"
	"\"6.1.0-18\",\"machine\":\"x86_64\",\"cpu_model\":\"Bench CPU\","
	"\"cpu_count\":2,\"cpu_governor\":null,\"libc\":\"glibc 2.36\","
	"\"compiler\":\"gcc\",\"compiler_version\":\"12.2.0\","
	"\"compiler_major\":\"12\",\"cflags\":\"-O2 -g\","
	"\"backend_requested\":\"all\",\"backend\":\"cpu\",\"device\":null,"
	"\"device_cc\":null,\"device_sms\":null,\"device_memory_bytes\":null,"
	"\"cuda_driver\":null,\"cuda_runtime\":null,\"browser\":null,"
	"\"dtype\":\"float64\",\"problem_size\":\"8000\",\"tile\":\"none\"}",
	"{\"os\":\"linux\",\"distro\":\"debian\",\"distro_version\":\"12\","
	"\"distro_name\":\"Debian GNU/Linux 12 (bookworm)\",\"kernel\":"
	"\"6.1.0-18\",\"machine\":\"x86_64\",\"cpu_model\":\"Bench CPU\","
	"\"cpu_count\":2,\"cpu_governor\":null,\"libc\":\"glibc 2.36\","
	"\"compiler\":\"gcc\",\"compiler_version\":\"12.2.0\","
	"\"compiler_major\":\"12\",\"cflags\":\"-O2 -g\","
	"\"backend_requested\":\"all\",\"backend\":\"gpu\",\"device\":"
	"\"Bench GPU\",\"device_cc\":\"9.0\",\"device_sms\":132,"
	"\"device_memory_bytes\":150754820096,\"cuda_driver\":\"12.4\","
	"\"cuda_runtime\":\"12.4\",\"browser\":null,\"dtype\":\"float32\","
	"\"problem_size\":\"8000\",\"tile\":\"256\"}",
};

/* Each env's segment key (prof_env_segment()), as a JSON string's
 * content: readers check that a segment is its env's key. */
static const char *seg_text[2] = {
	"{\\\"backend\\\":\\\"cpu\\\",\\\"browser\\\":null,"
	"\\\"compiler\\\":\\\"gcc\\\",\\\"compiler_major\\\":\\\"12\\\","
	"\\\"cpu_model\\\":\\\"Bench CPU\\\",\\\"cuda_driver\\\":null,"
	"\\\"cuda_runtime\\\":null,\\\"device\\\":null,\\\"device_cc\\\":null,"
	"\\\"device_memory_bytes\\\":null,\\\"device_sms\\\":null,"
	"\\\"distro\\\":\\\"debian\\\",\\\"distro_version\\\":\\\"12\\\","
	"\\\"dtype\\\":\\\"float64\\\",\\\"machine\\\":\\\"x86_64\\\","
	"\\\"os\\\":\\\"linux\\\",\\\"problem_size\\\":\\\"8000\\\","
	"\\\"tile\\\":\\\"none\\\"}",
	"{\\\"backend\\\":\\\"gpu\\\",\\\"browser\\\":null,"
	"\\\"compiler\\\":\\\"gcc\\\",\\\"compiler_major\\\":\\\"12\\\","
	"\\\"cpu_model\\\":\\\"Bench CPU\\\",\\\"cuda_driver\\\":\\\"12.4\\\","
	"\\\"cuda_runtime\\\":\\\"12.4\\\",\\\"device\\\":\\\"Bench GPU\\\","
	"\\\"device_cc\\\":\\\"9.0\\\","
	"\\\"device_memory_bytes\\\":150754820096,\\\"device_sms\\\":132,"
	"\\\"distro\\\":\\\"debian\\\",\\\"distro_version\\\":\\\"12\\\","
	"\\\"dtype\\\":\\\"float32\\\",\\\"machine\\\":\\\"x86_64\\\","
	"\\\"os\\\":\\\"linux\\\",\\\"problem_size\\\":\\\"8000\\\","
	"\\\"tile\\\":\\\"256\\\"}",
};

/*
 * The stream prof-time would write for rows x (samples / rows): a run
 * line, a context line per backend, then each row's samples in a group;
 * one sample in 500 is an error. Returns 0 or -1.
 */
static int
generate(const char *path, long samples, long rows)
{
	FILE *fp = fopen(path, "w");
	char fx[65], sum[65];
	long r, i, k = 0;

	if (!fp)
		return -1;
	fprintf(fp, "{\"record\":\"run\",\"run_id\":null,\"mode\":\"full\","
		    "\"options\":{\"phase\":\"timing\",\"backend\":\"all\","
		    "\"repeat\":10,\"warmup\":2,\"categories\":[],"
		    "\"exclude_categories\":[]},\"shard\":null}\n");
	for (i = 0; i < 2; i++)
		fprintf(fp, "{\"record\":\"context\",\"env_id\":\"e%015ld\","
			    "\"env\":%s,\"segment_id\":\"s%015ld\","
			    "\"segment\":\"%s\"}\n",
			i, env_text[i], i, seg_text[i]);
	for (r = 0; r < rows; r++) {
		long n = samples / rows + (r < samples % rows);
		double base = 0.05 + 50 * uniform();
		int gpu = (int)(r & 1);

		hex64(fx);
		hex64(sum);
		for (i = 0; i < n; i++, k++) {
			double d = base * (0.97 + 0.1 * uniform());
			int error = next() % 500 == 0;

			fprintf(fp,
				"{\"workload\":\"bench.workload_%04ld\","
				"\"workload_version\":1,\"category\":"
				"\"pipeline\",\"fixture\":\"bench-%04ld\","
				"\"fixture_checksum\":\"%s\","
				"\"warning_floor_ms\":1,\"backend\":\"%s\","
				"\"env_id\":\"e%015d\",\"segment_id\":"
				"\"s%015d\",\"phase\":\"timing\",\"kind\":"
				"\"warm\",\"index\":%ld,",
				r / 2, r / 2, fx, gpu ? "gpu" : "cpu", gpu,
				gpu, i);
			if (error)
				fprintf(fp, "\"duration_ms\":null,\"metrics\":"
					    "{},\"checksum\":null,\"outcome\":"
					    "\"error\",\"reason\":\"worker "
					    "killed by signal 11\",");
			else
				fprintf(fp, "\"duration_ms\":%.6f,\"metrics\":"
					    "{\"paths\":%ld},\"checksum\":"
					    "\"%s\",\"outcome\":\"success\","
					    "\"reason\":null,",
					d, 8000 + r, sum);
			fprintf(fp, "\"artifacts\":[],\"order_seed\":"
				    "20261130}\n");
		}
	}
	return fclose(fp) == 0 ? 0 : -1;
}

/* --parse: json-c's tokener on the bytes of a file, read first. */
static int
parse_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	struct json_tokener *tok = json_tokener_new();
	size_t len = strlen(path), n = 0, cap = 1 << 20, got, off;
	int lines = len > 6 && !strcmp(path + len - 6, ".jsonl");
	char *buf = malloc(cap);
	struct json_object *o = NULL;
	double t0;

	if (!fp || !tok || !buf)
		return 2;
	while ((got = fread(buf + n, 1, cap - n, fp)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb)
				return 2;
			buf = nb;
		}
	}
	fclose(fp);
	t0 = now();
	if (lines) {
		char *p = buf, *end = buf + n;

		while (p < end) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

			json_tokener_reset(tok);
			o = json_tokener_parse_ex(tok, p, (int)l);
			if (!o)
				return 2;
			json_object_put(o);
			p += l + 1;
		}
	} else {
		for (off = 0; off < n; off += 65536) {
			size_t k = n - off < 65536 ? n - off : 65536;

			o = json_tokener_parse_ex(tok, buf + off, (int)k);
			if (o || json_tokener_get_error(tok) !=
					 json_tokener_continue)
				break;
		}
		if (!o)
			return 2;
		json_object_put(o);
	}
	printf("%.6f\n", now() - t0);
	json_tokener_free(tok);
	free(buf);
	return 0;
}

struct result {
	double wall;
	double cpu;		/* user + system, from wait4 */
	double maxrss_mb;
	double parse;		/* --parse's own figure */
	int status;
};

/* Run argv with stdout to out (NULL: a pipe read for --parse's figure),
 * stderr kept unless quiet; wall time and peak RSS. */
static int
measure(char **argv, const char *out, int quiet, struct result *res)
{
	struct rusage ru;
	int fds[2] = {-1, -1}, status;
	double t0 = now();
	pid_t pid;
	char buf[64] = "";
	ssize_t k;

	if (!out && pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!freopen(out ? out : "/dev/null", "w", stdout) ||
		    (quiet && !freopen("/dev/null", "w", stderr)))
			_exit(127);
		if (!out)
			dup2(fds[1], 1);
		execv(argv[0], argv);
		_exit(127);
	}
	if (!out) {
		close(fds[1]);
		k = read(fds[0], buf, sizeof(buf) - 1);
		buf[k > 0 ? k : 0] = '\0';
		close(fds[0]);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	res->wall = now() - t0;
	res->cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		   (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	res->maxrss_mb = (double)ru.ru_maxrss / 1024.0;
	res->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	res->parse = atof(buf);
	return 0;
}

static double
file_mb(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0;
}

/* Set when a size missed the targets. */
static int over;

static int
bench(const char *self, const char *bindir, const char *dir, long samples,
      long rows, double target_ratio)
{
	char d[4096], stream[4200], results[4200], cmp[4200], md[4200];
	char merge[4200], diff[4200], report[4200], base[4300];
	char page[4200], db[4200], history[4200];
	struct result m, df, rp, p_results, ht, hi;
	double total;

	snprintf(d, sizeof(d), "%s/%ld", dir, samples);
	mkdir(d, 0777);
	snprintf(stream, sizeof(stream), "%s/samples.jsonl", d);
	snprintf(results, sizeof(results), "%s/results.json", d);
	snprintf(cmp, sizeof(cmp), "%s/comparisons.json", d);
	snprintf(md, sizeof(md), "%s/summary.md", d);
	snprintf(merge, sizeof(merge), "%s/prof-merge", bindir);
	snprintf(diff, sizeof(diff), "%s/prof-diff", bindir);
	snprintf(report, sizeof(report), "%s/prof-report", bindir);
	snprintf(base, sizeof(base), "--baseline=%s", results);
	snprintf(page, sizeof(page), "%s/report.html", d);
	snprintf(db, sizeof(db), "%s/history.sqlite", d);
	snprintf(history, sizeof(history), "%s/prof-history", bindir);
	if (generate(stream, samples, rows) < 0) {
		fprintf(stderr, "bench-tools: cannot write '%s': %s\n", stream,
			strerror(errno));
		return -1;
	}
	{
		char *a[] = {merge, "--run-id", "bench", "--commit", "bench",
			     "--command", "bench-tools", "-o", results, stream,
			     NULL};
		char *b[] = {diff, base, "-o", cmp, results, NULL};
		char *c[] = {report, "--comparisons", cmp, "-o", md, "-q",
			     results, NULL};
		char *pr[] = {(char *)self, "--parse", results, NULL};
		char *h[] = {report, "--comparisons", cmp, "-o", md, "-q",
			     "--html", page, results, NULL};
		char *y[] = {history, "add", "--db", db, results, NULL};

		if (measure(a, "/dev/null", 0, &m) < 0 || m.status ||
		    measure(b, "/dev/null", 0, &df) < 0 || df.status ||
		    measure(c, "/dev/null", 0, &rp) < 0 || rp.status ||
		    measure(h, "/dev/null", 0, &ht) < 0 || ht.status ||
		    measure(y, "/dev/null", 1, &hi) < 0 || hi.status ||
		    measure(pr, NULL, 0, &p_results) < 0 || p_results.status) {
			fprintf(stderr, "bench-tools: a step failed at %ld "
					"samples\n",
				samples);
			return -1;
		}
	}
	total = m.cpu + df.cpu + rp.cpu;
	printf("| %ld | %ld | %.1f MB (%.0f B/sample) | %.2f s (%.2f s CPU), "
	       "%.0f MB | %.2f s (%.2f s CPU), %.0f MB | %.2f s (%.2f s CPU), "
	       "%.0f MB | %.2f s (%.2f s CPU), %.0f MB | %.2fx "
	       "| %.2f s (%.2f s CPU), %.0f MB | %.2f s (%.2f s CPU), %.0f MB "
	       "|\n",
	       samples, rows, file_mb(results),
	       file_mb(results) * 1e6 / (double)samples, m.wall, m.cpu,
	       m.maxrss_mb, df.wall, df.cpu, df.maxrss_mb, rp.wall, rp.cpu,
	       rp.maxrss_mb, p_results.wall, p_results.cpu,
	       p_results.maxrss_mb, total / p_results.cpu, ht.wall, ht.cpu,
	       ht.maxrss_mb, hi.wall, hi.cpu, hi.maxrss_mb);
	/* The time target is the issue's, for a million samples; below, the
	 * rows' fixed costs weigh more. Memory counts at every size. */
	if ((samples >= 1000000 && total / p_results.cpu > target_ratio) ||
	    m.maxrss_mb > 128 || df.maxrss_mb > 128 || rp.maxrss_mb > 128 ||
	    ht.maxrss_mb > 128 || hi.maxrss_mb > 128)
		over = 1;
	fflush(stdout);
	(void)target_ratio;
	return 0;
}

/* The ratios of the --html-rows sizes, smallest first. */
static double html_first = -1, html_last = -1;

/*
 * prof-report --html on rows rows of 5 samples each, compared with
 * themselves, so that every row's comparison and baseline are looked up;
 * beside json-c's parse of the same results file, in the same run.
 */
static int
bench_rows(const char *self, const char *bindir, const char *dir, long rows)
{
	char d[4096], stream[4200], results[4200], cmp[4200], md[4200];
	char merge[4200], diff[4200], report[4200], base[4300], page[4200];
	struct result m, df, ht, pr;

	snprintf(d, sizeof(d), "%s/rows-%ld", dir, rows);
	mkdir(d, 0777);
	snprintf(stream, sizeof(stream), "%s/samples.jsonl", d);
	snprintf(results, sizeof(results), "%s/results.json", d);
	snprintf(cmp, sizeof(cmp), "%s/comparisons.json", d);
	snprintf(md, sizeof(md), "%s/summary.md", d);
	snprintf(page, sizeof(page), "%s/report.html", d);
	snprintf(merge, sizeof(merge), "%s/prof-merge", bindir);
	snprintf(diff, sizeof(diff), "%s/prof-diff", bindir);
	snprintf(report, sizeof(report), "%s/prof-report", bindir);
	snprintf(base, sizeof(base), "--baseline=%s", results);
	if (generate(stream, rows * 5, rows) < 0) {
		fprintf(stderr, "bench-tools: cannot write '%s': %s\n", stream,
			strerror(errno));
		return -1;
	}
	{
		char *a[] = {merge, "--run-id", "bench", "--commit", "bench",
			     "--command", "bench-tools", "-o", results, stream,
			     NULL};
		char *b[] = {diff, base, "-o", cmp, results, NULL};
		char *h[] = {report, "--comparisons", cmp, base, "-o", md,
			     "-q", "--html", page, results, NULL};
		char *p[] = {(char *)self, "--parse", results, NULL};

		if (measure(a, "/dev/null", 0, &m) < 0 || m.status ||
		    measure(b, "/dev/null", 0, &df) < 0 || df.status ||
		    measure(h, "/dev/null", 0, &ht) < 0 || ht.status ||
		    measure(p, NULL, 0, &pr) < 0 || pr.status) {
			fprintf(stderr, "bench-tools: a step failed at %ld "
					"rows\n",
				rows);
			return -1;
		}
	}
	if (html_first < 0)
		html_first = ht.cpu / pr.cpu;
	html_last = ht.cpu / pr.cpu;
	/* Bounded as every tool is: 128 MB at every size, the steps before
	 * the page too. */
	if (ht.maxrss_mb > 128 || m.maxrss_mb > 128 || df.maxrss_mb > 128)
		over = 1;
	printf("| %ld | %ld | %.1f MB | %.1f MB | %.2f s (%.2f s CPU), %.0f MB"
	       "%s | %.2f s CPU | %.1fx | %.2f s CPU, %.0f MB%s | %.2f s CPU, "
	       "%.0f MB%s |\n",
	       rows, rows * 5, file_mb(results), file_mb(page), ht.wall,
	       ht.cpu, ht.maxrss_mb, ht.maxrss_mb > 128 ? " (over)" : "",
	       pr.cpu, ht.cpu / pr.cpu, m.cpu,
	       m.maxrss_mb, m.maxrss_mb > 128 ? " (over)" : "", df.cpu,
	       df.maxrss_mb, df.maxrss_mb > 128 ? " (over)" : "");
	fflush(stdout);
	return 0;
}

/*
 * The results files of a history of runs x series: run i at hour i of
 * 2026, with a commit of its own; series s of run i has a median that
 * steps up 20% halfway for one series in ten.
 */
static int
generate_runs(const char *dir, long runs, long series)
{
	char path[4300], ts[32], commit[65];
	long i, s, k;

	for (i = 0; i < runs; i++) {
		time_t t = 1767225600 + (time_t)i * 3600;
		struct tm tm;
		FILE *fp;

		gmtime_r(&t, &tm);
		strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
		hex64(commit);
		commit[40] = '\0';
		snprintf(path, sizeof(path), "%s/run-%05ld.json", dir, i);
		fp = fopen(path, "w");
		if (!fp)
			return -1;
		fprintf(fp, "{\"schema\":\"prof.results\",\"schema_version\":2,"
			    "\"run_id\":\"bench-%05ld\",\"timestamp_utc\":"
			    "\"%s\",\"command\":\"bench-tools\",\"commit\":"
			    "\"%s\",\"envs\":{\"e000000000000000\":%s},"
			    "\"segments\":{\"s000000000000000\":\"%s\"},"
			    "\"samples\":[",
			i, ts, commit, env_text[0], seg_text[0]);
		for (s = 0; s < series; s++) {
			double base = 1 + (double)(s % 97);

			if (s % 10 == 0 && i >= runs / 2)
				base *= 1.2;
			for (k = 0; k < 3; k++)
				fprintf(fp,
					"%s{\"workload\":\"bench.series_%04ld\","
					"\"workload_version\":1,\"category\":"
					"\"pipeline\",\"fixture\":\"none\","
					"\"fixture_checksum\":null,"
					"\"warning_floor_ms\":1,\"backend\":"
					"\"cpu\",\"env_id\":\"e000000000000000"
					"\",\"segment_id\":\"s000000000000000\","
					"\"phase\":\"timing\",\"kind\":\"warm\","
					"\"index\":%ld,\"duration_ms\":%.6f,"
					"\"metrics\":{},\"checksum\":null,"
					"\"outcome\":\"success\",\"reason\":"
					"null,\"artifacts\":[]}",
					s || k ? "," : "", s, k,
					base * (0.98 + 0.04 * uniform()));
			if (s % 4 == 0)
				fprintf(fp,
					",{\"workload\":\"bench.series_%04ld\","
					"\"workload_version\":1,\"category\":"
					"\"pipeline\",\"fixture\":\"none\","
					"\"fixture_checksum\":null,"
					"\"warning_floor_ms\":1,\"backend\":"
					"\"cpu\",\"env_id\":\"e000000000000000"
					"\",\"segment_id\":\"s000000000000000\","
					"\"phase\":\"instructions\",\"kind\":"
					"\"warm\",\"index\":0,\"duration_ms\":"
					"%.6f,\"instructions\":%lld,\"metrics\":"
					"{},\"checksum\":null,\"outcome\":"
					"\"success\",\"reason\":null,"
					"\"artifacts\":[]}",
					s, base, (long long)(base * 1e6) +
							 (long long)(next() % 1000));
		}
		fputs("]}\n", fp);
		if (fclose(fp) != 0)
			return -1;
	}
	return 0;
}

/* prof-history import and prof-dashboard over runs x series. */
static int
bench_dashboard(const char *bindir, const char *dir, long runs, long series)
{
	char d[4096], rd[4200], db[4200], site[4200], history[4200];
	char dashboard[4200];
	struct result im, da;

	snprintf(d, sizeof(d), "%s/dashboard-%ldx%ld", dir, runs, series);
	snprintf(rd, sizeof(rd), "%s/runs", d);
	snprintf(db, sizeof(db), "%s/history.sqlite", d);
	snprintf(site, sizeof(site), "%s/site", d);
	snprintf(history, sizeof(history), "%s/prof-history", bindir);
	snprintf(dashboard, sizeof(dashboard), "%s/prof-dashboard", bindir);
	if (mkdir(d, 0777) < 0 || mkdir(rd, 0777) < 0 ||
	    generate_runs(rd, runs, series) < 0) {
		fprintf(stderr, "bench-tools: cannot write under '%s': %s\n",
			d, strerror(errno));
		return -1;
	}
	{
		char *a[] = {history, "import", "--db", db, rd, NULL};
		char *b[] = {dashboard, "--db", db, "--repo-url",
			     "https://example.invalid/o/r", "-o", site, NULL};

		if (measure(a, "/dev/null", 1, &im) < 0 || im.status ||
		    measure(b, "/dev/null", 1, &da) < 0 || da.status) {
			fprintf(stderr, "bench-tools: a step failed at %ldx%ld "
					"(dashboard)\n",
				runs, series);
			return -1;
		}
	}
	printf("| %ld | %ld | %.1f MB | %.2f s (%.2f s CPU), %.0f MB | "
	       "%.2f s (%.2f s CPU), %.0f MB |\n",
	       runs, series, file_mb(db), im.wall, im.cpu, im.maxrss_mb,
	       da.wall, da.cpu, da.maxrss_mb);
	if (da.cpu > 60 || da.maxrss_mb > 128)
		over = 1;
	fflush(stdout);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *bindir = "bin", *dir = NULL;
	char tmpl[4096], self[4096];
	long rows = 2000, html_rows[32];
	int n_html = 0, j, tables = 0;
	long dash_runs = 0, dash_series = 0;
	uint64_t seed = 20261130;
	int i, rc = 0, own = 0;
	ssize_t k;

	if (argc == 3 && !strcmp(argv[1], "--parse"))
		return parse_file(argv[2]);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--bindir") && i + 1 < argc)
			bindir = argv[++i];
		else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--rows") && i + 1 < argc)
			rows = atol(argv[++i]);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--html-rows") && i + 1 < argc &&
			 n_html < 32 && atol(argv[i + 1]) > 0)
			html_rows[n_html++] = atol(argv[++i]);
		else if (!strcmp(argv[i], "--dashboard") && i + 1 < argc &&
			 sscanf(argv[i + 1], "%ldx%ld", &dash_runs,
				&dash_series) == 2 &&
			 dash_runs > 0 && dash_series > 0)
			i++;
		else {
			fputs(usage_text, strcmp(argv[i], "--help") ? stderr :
								      stdout);
			return strcmp(argv[i], "--help") ? 2 : 0;
		}
	}
	if ((i == argc && !n_html && !dash_runs) || rows < 1) {
		fputs(usage_text, stderr);
		return 2;
	}
	k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (k <= 0)
		return 2;
	self[k] = '\0';
	if (!dir) {
		const char *t = getenv("TMPDIR");

		snprintf(tmpl, sizeof(tmpl), "%s/prof-bench.XXXXXX",
			 t && t[0] ? t : "/tmp");
		dir = mkdtemp(tmpl);
		if (!dir)
			return 2;
		own = 1;
	}
	printf("bench-tools: seed %llu; each step in its own process: wall "
	       "time (CPU time, user + system, from wait4), peak RSS from "
	       "wait4; the parse is json_tokener_parse_ex building the whole "
	       "results document, in this run. The ratio is of CPU times, "
	       "which other load on the machine does not inflate; the targets "
	       "are at most 3x at 1,000,000 samples and 128 MB per tool at "
	       "every size; for the --html-rows sizes, a ratio at the largest "
	       "at most twice the smallest's.\n\n",
	       (unsigned long long)seed);
	if (i < argc) {
		tables = 1;
		printf("| samples | rows | results.json | prof-merge | "
		       "prof-diff (against itself) | prof-report | json-c "
		       "parse of results.json | merge + diff + report CPU / "
		       "parse CPU | prof-report --html | prof-history add |\n");
		printf("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
		fflush(stdout);
	}
	for (; i < argc; i++) {
		long n = atol(argv[i]), r = rows;

		if (n < 1) {
			fprintf(stderr, "bench-tools: '%s' is not a number of "
					"samples\n",
				argv[i]);
			rc = 2;
			break;
		}
		if (n / r < 5)
			r = n / 5 ? n / 5 : 1;
		rng = seed ^ (uint64_t)n;
		if (bench(self, bindir, dir, n, r, 3) < 0) {
			rc = 2;
			break;
		}
	}
	if (!rc && n_html) {
		printf("%s| rows | samples | results.json | report.html | "
		       "prof-report --html (comparisons and baseline: "
		       "itself) | json-c parse of results.json | html CPU / "
		       "parse CPU | prof-merge (target 128 MB) | prof-diff "
		       "against itself (target 128 MB) |\n"
		       "|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
		       tables ? "\n" : "");
		fflush(stdout);
	}
	for (j = 0; !rc && j < n_html; j++) {
		rng = seed ^ (uint64_t)html_rows[j] ^ 0x68746d6cULL;
		if (bench_rows(self, bindir, dir, html_rows[j]) < 0)
			rc = 2;
	}
	if (!rc && n_html > 1 && html_last > 2 * html_first)
		over = 1;
	if (!rc && dash_runs) {
		printf("%sprof-dashboard over a history of %ld runs x %ld "
		       "series (the targets: 60 s of CPU time, 128 MB):\n\n",
		       tables || n_html ? "\n" : "", dash_runs, dash_series);
		printf("| runs | series | history.sqlite | prof-history import "
		       "(the run files) | prof-dashboard |\n"
		       "|--:|--:|--:|--:|--:|\n");
		fflush(stdout);
		rng = seed ^ (uint64_t)dash_runs ^ 0x64617368ULL;
		if (bench_dashboard(bindir, dir, dash_runs, dash_series) < 0)
			rc = 2;
	}
	if (!rc)
		printf("\n%s\n", over ? "bench-tools: a target was missed" :
					 "bench-tools: every size within the "
					 "targets");
	if (own) {
		char cmd[4200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			rc = rc ? rc : 2;
	}
	return rc;
}
