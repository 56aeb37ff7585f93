/* gbench.c: fuzz target: Google Benchmark's JSON read both ways prof reads
 * it (gbench.h): streamed from a file (prof-merge --gbench) and as a
 * document in memory (a binary's output of one run), which must agree;
 * and the filter that asks a binary for one benchmark by name. */
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/gbench.h"
#include "model/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], in[96];

static void
cleanup(void)
{
	unlink(in);
	rmdir(dir);
}

static void
write_input(const uint8_t *data, size_t size)
{
	FILE *fp;

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%.40s/prof-fuzz.XXXXXX",
			 t && t[0] ? t : "/tmp");
		if (!mkdtemp(dir))
			abort();
		snprintf(in, sizeof(in), "%s/gbench.json", dir);
		atexit(cleanup);
	}
	fp = fopen(in, "wb");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
}

/* Each streamed sample: counted, and its entry's index must grow. */
struct seen {
	long n, last;
};

static int
count(void *arg, struct json_object *s, long entry, struct prof_err *err)
{
	struct seen *k = arg;

	(void)err;
	if (!s || entry <= k->last)
		abort();	/* an entry handed out twice, or out of order */
	k->last = entry;
	k->n++;
	return 0;
}

/*
 * The first line of the input as a benchmark's name: its filter must be
 * a regular expression (POSIX ERE, as libbenchmark built with regcomp()
 * reads it) that matches the name whole.
 */
static void
filter_of_name(const uint8_t *data, size_t size)
{
	char name[201], filter[1000];
	size_t n = 0;
	regex_t re;
	regmatch_t m;

	while (n < size && n < 200 && data[n] && data[n] != '\n')
		n++;
	memcpy(name, data, n);
	name[n] = '\0';
	if (prof_gbench_filter(name, filter, sizeof(filter)) < 0)
		abort();	/* 200 bytes fit in 1000: 3 a byte and 2 */
	if (regcomp(&re, filter, REG_EXTENDED) != 0)
		abort();	/* a filter the regular expression refuses */
	if (regexec(&re, name, 1, &m, 0) != 0 || m.rm_so != 0 ||
	    (size_t)m.rm_eo != n)
		abort();	/* one that does not match the name whole */
	regfree(&re);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prof_err err;
	struct prof_stream *st;
	struct json_object *doc, *arr;
	struct seen k = {0, -1};
	char host[256];
	int foreign;
	long streamed, whole = -1;

	filter_of_name(data, size);
	write_input(data, size);
	st = prof_stream_new();
	if (!st)
		abort();
	streamed = prof_gbench_stream(st, in, count, &k, &foreign, host,
				      sizeof(host), &err);
	prof_stream_free(st);
	if (streamed >= 0 && streamed != k.n)
		abort();	/* it said another count than it handed out */
	doc = prof_json_parse((const char *)data, size, "fuzz", 1, &err);
	arr = json_object_new_array();
	if (!arr)
		abort();
	if (doc)
		whole = prof_gbench_samples(doc, arr, &foreign, &err);
	if (whole >= 0 && (size_t)whole != json_object_array_length(arr))
		abort();
	/* The two readers take the same files and find as many samples. */
	if ((streamed >= 0) != (whole >= 0) ||
	    (streamed >= 0 && streamed != whole))
		abort();
	json_object_put(arr);
	json_object_put(doc);
	return 0;
}
