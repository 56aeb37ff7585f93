/* ab.c: the A/B test pair. Built twice: prof-ab-a as it is, prof-ab-b
 * with AB_WORK_PCT=130, so that test.ab does 30% more work in run() on the
 * B side; test.ab_same is the same on both sides; test.ilp computes the
 * same answer on both, with one dependency chain on the A side and four
 * independent ones on the B side (AB_LANES=4): more instructions in far
 * less time; test.ab_wrong is faster on the B side because it does half
 * the work, and so computes another answer; test.ab_copy does the same
 * work on both sides, but the B side keeps a second copy of its buffer
 * (twice the heap peak, the same time within noise). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prof/workload.h"

#ifndef AB_WORK_PCT
#define AB_WORK_PCT 100
#endif
#ifndef AB_LANES
#define AB_LANES 1
#endif

/* About 30 ms of dependent integer work per call at 100%: long enough
 * that a scheduler time slice is small beside it. */
#define AB_STEPS 20000000L

struct abstate {
	long steps;
	long extra;	/* more work, whose result is no part of the output */
	uint64_t seed;
	uint64_t out;
	uint64_t waste;
};

/* The work: a dependent multiply-xor chain the compiler cannot shorten. */
static uint64_t
chain(uint64_t x, long steps)
{
	long i;

	for (i = 0; i < steps; i++)
		x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL + (uint64_t)i;
	return x;
}

static int
ab_prepare_steps(struct prof_ctx *ctx, void **state, long steps, long extra)
{
	struct abstate *s = calloc(1, sizeof(*s));

	if (!s)
		return prof_fail(ctx, "out of memory");
	s->steps = steps;
	s->extra = extra;
	s->seed = 20260710;
	prof_fixture_bytes(ctx, &s->seed, sizeof(s->seed));
	*state = s;
	return 0;
}

static int
ab_prepare(struct prof_ctx *ctx, void **state)
{
	/* The B side's 30% more work computes the same output: the two
	 * sides' checksums agree, so the rows are judged on time. */
	return ab_prepare_steps(ctx, state, AB_STEPS,
				AB_STEPS * (AB_WORK_PCT - 100) / 100);
}

static int
same_prepare(struct prof_ctx *ctx, void **state)
{
	return ab_prepare_steps(ctx, state, AB_STEPS, 0);
}

/* test.ab_wrong: the B side stops half way (AB_LANES says which side). */
static int
wrong_prepare(struct prof_ctx *ctx, void **state)
{
	return ab_prepare_steps(ctx, state,
				AB_LANES == 1 ? AB_STEPS / 10 : AB_STEPS / 20, 0);
}

static int
ab_run(struct prof_ctx *ctx, void *state)
{
	struct abstate *s = state;

	s->out = chain(s->seed, s->steps);
	if (s->extra)
		s->waste = chain(s->out, s->extra);
	prof_metric(ctx, "steps", (double)(s->steps + s->extra));
	return 0;
}

static int
ab_validate(struct prof_ctx *ctx, void *state)
{
	struct abstate *s = state;
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];

	if (!s->out)
		return prof_fail(ctx, "no result");
	prof_sum_init(&sum);
	prof_sum_bytes(&sum, &s->out, sizeof(s->out));
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	return 0;
}

static void
ab_teardown(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

static const struct prof_workload test_ab = {
	.id = "test.ab", .version = 1, .category = "test",
	.fixture = "ab-chain", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 0.5, .dtype = "uint64", .problem_size = "20000000",
	.tile = "none", .cold_group = "test-ab",
	.prepare = ab_prepare, .run = ab_run, .validate = ab_validate,
	.teardown = ab_teardown,
};
PROF_WORKLOAD(test_ab)

static const struct prof_workload test_ab_wrong = {
	.id = "test.ab_wrong", .version = 1, .category = "wrong",
	.fixture = "ab-chain", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 0.5, .dtype = "uint64", .problem_size = "2000000",
	.tile = "none",
	.prepare = wrong_prepare, .run = ab_run, .validate = ab_validate,
	.teardown = ab_teardown,
};
PROF_WORKLOAD(test_ab_wrong)

/* test.ab_copy: a 1 MiB buffer filled from the chain's seed and summed
 * under the chain; the B side (AB_LANES 4) sums a copy of it instead,
 * both blocks live at once: one allocation and 1 MiB more at the peak,
 * a memcpy of 1 MiB (about 0.1 ms) beside about 30 ms of work. */
#define COPY_BYTES (1L << 20)

static uint64_t
copy_sum(const uint64_t *buf, size_t n)
{
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < n; i++)
		x = x * 31 + buf[i];
	return x;
}

static int
copy_run(struct prof_ctx *ctx, void *state)
{
	struct abstate *s = state;
	size_t n = COPY_BYTES / sizeof(uint64_t), i;
	uint64_t *buf = malloc(COPY_BYTES), *use = buf;

	if (!buf)
		return prof_fail(ctx, "out of memory");
	for (i = 0; i < n; i++)
		buf[i] = s->seed + i;
#if AB_LANES != 1
	use = malloc(COPY_BYTES);
	if (!use) {
		free(buf);
		return prof_fail(ctx, "out of memory");
	}
	memcpy(use, buf, COPY_BYTES);
#endif
	s->out = chain(copy_sum(use, n), s->steps);
	if (use != buf)
		free(use);
	free(buf);
	return 0;
}

static const struct prof_workload test_ab_copy = {
	.id = "test.ab_copy", .version = 1, .category = "copy",
	.fixture = "ab-chain", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 0.5, .dtype = "uint64", .problem_size = "20000000",
	.tile = "none",
	.prepare = same_prepare, .run = copy_run, .validate = ab_validate,
	.teardown = ab_teardown,
};
PROF_WORKLOAD(test_ab_copy)

/*
 * test.ilp: x <- (A x + c_i) mod P over ILP_STEPS steps, c_i = (i G) mod
 * 2^24, P a prime taken at run time so that the compiler keeps the
 * division. One lane: a chain of divisions, each waiting for the last.
 * Four lanes: the same sum split four ways (lane k takes the steps
 * i = 4j + k, by Horner in A^4), each reduction done by multiplication
 * (Barrett's: more instructions, no division), the lanes joined at the end
 * with A^3, A^2, A, 1. The answer is the same; about 40% more
 * instructions run (callgrind: 25.5 against 18.0 million), independent
 * of each other, in a fraction of the time.
 */
#define ILP_STEPS 2000000L
#define ILP_A 48271u
#define ILP_G 2654435761u

struct ilpstate {
	uint64_t p;
	uint64_t out;
};

#if AB_LANES == 1
static uint64_t
ilp(uint64_t x, uint64_t p)
{
	long i;

	for (i = 0; i < ILP_STEPS; i++)
		x = (ILP_A * x + (((uint64_t)i * ILP_G) & 0xffffff)) % p;
	return x;
}
#else
static uint64_t
mulmod(uint64_t a, uint64_t b, uint64_t p)
{
	return (a * b) % p;
}

static uint64_t
powmod(uint64_t a, long e, uint64_t p)
{
	uint64_t r = 1;

	for (; e; e >>= 1) {
		if (e & 1)
			r = mulmod(r, a, p);
		a = mulmod(a, a, p);
	}
	return r;
}

/*
 * n mod p for n < 2^64 and p < 2^32 (Barrett's), m = floor((2^64 - 1) /
 * p): the quotient estimate, the high half of n m, is never above the
 * true one and at most one below, so one correction makes it exact.
 */
static inline uint64_t
reduce(uint64_t n, uint64_t p, uint64_t m)
{
	uint64_t q = (uint64_t)(((unsigned __int128)n * m) >> 64);
	uint64_t r = n - q * p;

	return r >= p ? r - p : r;
}

static uint64_t
ilp(uint64_t x, uint64_t p)
{
	uint64_t m = ~0ULL / p, a4 = powmod(ILP_A, 4, p);
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	long j;

	for (j = 0; j < ILP_STEPS / 4; j++) {
		uint64_t i = (uint64_t)j * 4;

		s0 = reduce(s0 * a4 + ((i * ILP_G) & 0xffffff), p, m);
		s1 = reduce(s1 * a4 + (((i + 1) * ILP_G) & 0xffffff), p, m);
		s2 = reduce(s2 * a4 + (((i + 2) * ILP_G) & 0xffffff), p, m);
		s3 = reduce(s3 * a4 + (((i + 3) * ILP_G) & 0xffffff), p, m);
	}
	x = mulmod(powmod(ILP_A, ILP_STEPS, p), x, p);
	x = (x + mulmod(powmod(ILP_A, 3, p), s0, p)) % p;
	x = (x + mulmod(powmod(ILP_A, 2, p), s1, p)) % p;
	x = (x + mulmod(ILP_A, s2, p)) % p;
	return (x + s3) % p;
}
#endif

static int
ilp_prepare(struct prof_ctx *ctx, void **state)
{
	struct ilpstate *s = calloc(1, sizeof(*s));

	if (!s)
		return prof_fail(ctx, "out of memory");
	s->p = 2147483647;	/* 2^31 - 1 */
	prof_fixture_bytes(ctx, &s->p, sizeof(s->p));
	*state = s;
	return 0;
}

static int
ilp_run(struct prof_ctx *ctx, void *state)
{
	struct ilpstate *s = state;

	s->out = ilp(20260710, s->p);
	prof_metric(ctx, "lanes", AB_LANES);
	return 0;
}

static int
ilp_validate(struct prof_ctx *ctx, void *state)
{
	struct ilpstate *s = state;
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];

	prof_sum_init(&sum);
	prof_sum_bytes(&sum, &s->out, sizeof(s->out));
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	return 0;
}

static const struct prof_workload test_ilp = {
	.id = "test.ilp", .version = 1, .category = "ilp",
	.fixture = "ilp-mod", .quick = 0, .backends = PROF_CPU,
	.warning_floor_ms = 0.5, .dtype = "uint64", .problem_size = "2000000",
	.tile = "none",
	.prepare = ilp_prepare, .run = ilp_run, .validate = ilp_validate,
	.teardown = ab_teardown,
};
PROF_WORKLOAD(test_ilp)

/* The same work on both sides of the pair (an A/A row). */
static const struct prof_workload test_ab_same = {
	.id = "test.ab_same", .version = 1, .category = "test",
	.fixture = "ab-chain", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 0.5, .dtype = "uint64", .problem_size = "20000000",
	.tile = "none",
	.prepare = same_prepare, .run = ab_run, .validate = ab_validate,
	.teardown = ab_teardown,
};
PROF_WORKLOAD(test_ab_same)
