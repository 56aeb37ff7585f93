/* zlib.c: Debian's system zlib profiled from outside prof's tree: crc32
 * and adler32 over 16 MiB, deflate at level 6 and inflate of 4 MiB, each
 * checked against an independent result outside the clock. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <prof/workload.h>
#include <zlib.h>

#define SUM_BYTES (16u << 20)	/* crc32, adler32 */
#define TEXT_BYTES (4u << 20)	/* deflate, inflate */

/* The library's version, as compiled against and as loaded. */
PROF_BUILD_FACT(zlib, ZLIB_VERSION);
PROF_BUILD_FACT(zlib_runtime, zlibVersion());

struct state {
	unsigned char *in;	/* the fixture */
	size_t n;
	unsigned char *out;	/* deflate's output, inflate's input */
	size_t out_cap, out_len;
	unsigned char *back;	/* inflate's output */
	unsigned long want;	/* the check value, computed the slow way */
	unsigned long got;
};

/* A fixed LCG: the same bytes on every machine. */
static uint32_t
lcg(uint32_t *x)
{
	*x = *x * 1664525u + 1013904223u;
	return *x >> 8;
}

/* Random bytes: nothing for a checksum to skip. */
static void
fill_random(unsigned char *p, size_t n)
{
	uint32_t x = 20260701;
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)lcg(&x);
}

/* Words from a small vocabulary: compressible as text is (about 3:1). */
static void
fill_text(unsigned char *p, size_t n)
{
	static const char *const words[] = {
		"the", "profile", "of", "a", "build", "runs", "every",
		"workload", "in", "fresh", "worker", "process", "and",
		"compares", "median", "with", "baseline", "segment", "key",
		"machine", "drift", "calibration", "kernel", "sample",
	};
	uint32_t x = 20260702;
	size_t i = 0;

	while (i < n) {
		const char *w = words[lcg(&x) % (sizeof(words) /
						  sizeof(words[0]))];
		size_t k = strlen(w);

		if (k > n - i)
			k = n - i;
		memcpy(p + i, w, k);
		i += k;
		if (i < n)
			p[i++] = lcg(&x) % 11 ? ' ' : '\n';
	}
}

/* CRC-32 bit by bit (the polynomial zlib uses), for validate(). */
static unsigned long
slow_crc32(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
	}
	return c ^ 0xffffffffu;
}

/* Adler-32 by its definition, for validate(). */
static unsigned long
slow_adler32(const unsigned char *p, size_t n)
{
	uint32_t a = 1, b = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		a = (a + p[i]) % 65521u;
		b = (b + a) % 65521u;
	}
	return (unsigned long)b << 16 | a;
}

static void
teardown(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;

	(void)ctx;
	if (!s)
		return;
	free(s->in);
	free(s->out);
	free(s->back);
	free(s);
}

static int
prepare_sum(struct prof_ctx *ctx, void **out, int adler)
{
	struct state *s = calloc(1, sizeof(*s));

	if (!s || !(s->in = malloc(SUM_BYTES))) {
		free(s);
		return prof_fail(ctx, "out of memory");
	}
	s->n = SUM_BYTES;
	fill_random(s->in, s->n);
	s->want = adler ? slow_adler32(s->in, s->n) : slow_crc32(s->in, s->n);
	prof_fixture_bytes(ctx, s->in, s->n);
	*out = s;
	return 0;
}

static int
prepare_crc32(struct prof_ctx *ctx, void **out)
{
	return prepare_sum(ctx, out, 0);
}

static int
prepare_adler32(struct prof_ctx *ctx, void **out)
{
	return prepare_sum(ctx, out, 1);
}

static int
run_crc32(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;

	s->got = crc32(crc32(0L, Z_NULL, 0), s->in, (uInt)s->n);
	prof_metric(ctx, "bytes", (double)s->n);
	return 0;
}

static int
run_adler32(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;

	s->got = adler32(adler32(0L, Z_NULL, 0), s->in, (uInt)s->n);
	prof_metric(ctx, "bytes", (double)s->n);
	return 0;
}

static int
validate_sum(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;
	char hex[PROF_SUM_HEX];
	unsigned char be[4];

	if (s->got != s->want)
		return prof_fail(ctx, "check value %08lx, expected %08lx",
				 s->got, s->want);
	be[0] = (unsigned char)(s->got >> 24);
	be[1] = (unsigned char)(s->got >> 16);
	be[2] = (unsigned char)(s->got >> 8);
	be[3] = (unsigned char)s->got;
	if (prof_sum_buffer(be, sizeof(be), hex) < 0)
		return prof_fail(ctx, "out of memory");
	prof_output_checksum(ctx, hex);
	return 0;
}

/* Text, room for its deflated form and for inflating it back. */
static int
prepare_text(struct prof_ctx *ctx, struct state **out)
{
	struct state *s = calloc(1, sizeof(*s));

	if (!s)
		return prof_fail(ctx, "out of memory");
	s->n = TEXT_BYTES;
	s->out_cap = compressBound(TEXT_BYTES);
	s->in = malloc(s->n);
	s->out = malloc(s->out_cap);
	s->back = malloc(s->n);
	if (!s->in || !s->out || !s->back) {
		teardown(ctx, s);
		return prof_fail(ctx, "out of memory");
	}
	fill_text(s->in, s->n);
	prof_fixture_bytes(ctx, s->in, s->n);
	*out = s;
	return 0;
}

/* One zlib stream of s->in at level 6 into s->out. */
static int
deflate6(struct prof_ctx *ctx, struct state *s)
{
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	if (deflateInit(&z, 6) != Z_OK)
		return prof_fail(ctx, "deflateInit failed");
	z.next_in = s->in;
	z.avail_in = (uInt)s->n;
	z.next_out = s->out;
	z.avail_out = (uInt)s->out_cap;
	rc = deflate(&z, Z_FINISH);
	s->out_len = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END)
		return prof_fail(ctx, "deflate: %d", rc);
	return 0;
}

/* s->out (s->out_len bytes) inflated into s->back; its length in *n. */
static int
inflate_back(struct prof_ctx *ctx, struct state *s, size_t *n)
{
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return prof_fail(ctx, "inflateInit failed");
	z.next_in = s->out;
	z.avail_in = (uInt)s->out_len;
	z.next_out = s->back;
	z.avail_out = (uInt)s->n;
	rc = inflate(&z, Z_FINISH);
	*n = z.total_out;
	inflateEnd(&z);
	if (rc != Z_STREAM_END)
		return prof_fail(ctx, "inflate: %d", rc);
	return 0;
}

static int
prepare_deflate(struct prof_ctx *ctx, void **out)
{
	struct state *s;

	if (prepare_text(ctx, &s) < 0)
		return -1;
	*out = s;
	return 0;
}

/* Inflate's input is made once here, outside the clock. */
static int
prepare_inflate(struct prof_ctx *ctx, void **out)
{
	struct state *s;

	if (prepare_text(ctx, &s) < 0)
		return -1;
	if (deflate6(ctx, s) < 0) {
		teardown(ctx, s);
		return -1;
	}
	*out = s;
	return 0;
}

static int
run_deflate(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;

	if (deflate6(ctx, s) < 0)
		return -1;
	prof_metric(ctx, "bytes", (double)s->n);
	prof_metric(ctx, "deflated_bytes", (double)s->out_len);
	return 0;
}

static int
run_inflate(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;
	size_t n;

	if (inflate_back(ctx, s, &n) < 0)
		return -1;
	prof_metric(ctx, "bytes", (double)n);
	return 0;
}

/* Deflate: its output inflates back to the input. */
static int
validate_deflate(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;
	char hex[PROF_SUM_HEX];
	size_t n;

	memset(s->back, 0, s->n);
	if (inflate_back(ctx, s, &n) < 0)
		return -1;
	if (n != s->n || memcmp(s->back, s->in, s->n) != 0)
		return prof_fail(ctx, "the deflated stream does not inflate "
				 "back to the input");
	if (prof_sum_buffer(s->out, s->out_len, hex) < 0)
		return prof_fail(ctx, "out of memory");
	prof_output_checksum(ctx, hex);
	return 0;
}

/* Inflate: the output is the input, byte for byte. */
static int
validate_inflate(struct prof_ctx *ctx, void *state)
{
	struct state *s = state;
	char hex[PROF_SUM_HEX];

	if (memcmp(s->back, s->in, s->n) != 0)
		return prof_fail(ctx, "inflate's output differs from the text");
	if (prof_sum_buffer(s->back, s->n, hex) < 0)
		return prof_fail(ctx, "out of memory");
	prof_output_checksum(ctx, hex);
	memset(s->back, 0, s->n);
	return 0;
}

static const struct prof_workload crc32_16m = {
	.id = "zlib.crc32", .version = 1,
	.category = "zlib", .fixture = "lcg-20260701-16MiB",
	.quick = 1, .backends = PROF_CPU, .warning_floor_ms = 1,
	.dtype = "bytes", .problem_size = "16MiB", .tile = "none",
	.prepare = prepare_crc32, .run = run_crc32, .validate = validate_sum,
	.teardown = teardown,
};
PROF_WORKLOAD(crc32_16m);

static const struct prof_workload adler32_16m = {
	.id = "zlib.adler32", .version = 1,
	.category = "zlib", .fixture = "lcg-20260701-16MiB",
	.quick = 1, .backends = PROF_CPU, .warning_floor_ms = 1,
	.dtype = "bytes", .problem_size = "16MiB", .tile = "none",
	.prepare = prepare_adler32, .run = run_adler32,
	.validate = validate_sum, .teardown = teardown,
};
PROF_WORKLOAD(adler32_16m);

static const struct prof_workload deflate6_4m = {
	.id = "zlib.deflate6", .version = 1,
	.category = "zlib", .fixture = "words-20260702-4MiB",
	.quick = 1, .backends = PROF_CPU, .warning_floor_ms = 5,
	.dtype = "bytes", .problem_size = "4MiB", .tile = "none",
	.prepare = prepare_deflate, .run = run_deflate,
	.validate = validate_deflate, .teardown = teardown,
};
PROF_WORKLOAD(deflate6_4m);

static const struct prof_workload inflate_4m = {
	.id = "zlib.inflate", .version = 1,
	.category = "zlib", .fixture = "words-20260702-4MiB-deflate6",
	.quick = 1, .backends = PROF_CPU, .warning_floor_ms = 2,
	.dtype = "bytes", .problem_size = "4MiB", .tile = "none",
	.prepare = prepare_inflate, .run = run_inflate,
	.validate = validate_inflate, .teardown = teardown,
};
PROF_WORKLOAD(inflate_4m);
