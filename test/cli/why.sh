# why.sh: a tiny git repository of one workload on this tree's harness,
# for the t63NN tests (make compare WHY=1, make bisect); source after
# lib.sh.
#
#   tiny_repo DIR      a repository with commit "base": tiny.work runs
#                      mix() and step(), about half of its instructions
#                      each; bin/w is its workload binary (make bin/w)
#   tiny_commit MSG [EXTRA|broken|fixed]
#                      commit a change: EXTRA makes step() do EXTRA % more
#                      of its loop (its output stays the same); broken
#                      makes w.c not compile, fixed mends it; no argument
#                      changes a comment only

tiny_repo() {
	mkdir -p "$1" && cd "$1" || return 1
	git init -q
	git config user.name t
	git config user.email t@t
	cat >Makefile <<'MK'
# A project on prof's harness (PROF_ROOT: a built prof tree).
CFLAGS = -O1 -g
bin/w: w.c
	@mkdir -p bin
	$(CC) $(CFLAGS) -I$(PROF_ROOT)/src/harness -I$(PROF_ROOT)/src/lib \
		-o $@ w.c \
		$(PROF_ROOT)/build/libprofharness.a $(PROF_ROOT)/build/libprof.a \
		$$(pkg-config --libs json-c libcrypto) -lm -ldl -lpthread
MK
	printf 'bin/\nbuild/\nartifacts/\n' >.gitignore
	cat >w.c <<'C'
/* w.c: one workload, two functions of about the same work. */
#include <stdint.h>
#include <stdlib.h>

#include "prof/workload.h"

#define EXTRA 0
#define N 200000L

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t
mix(uint64_t x, long n)
{
	long i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

__attribute__((noinline)) static uint64_t
step(uint64_t x, long n)
{
	long i;

	for (i = 0; i < n; i++)
		x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL;
	for (i = 0; i < n * EXTRA / 100; i++)
		sink = (sink ^ (sink >> 29)) * 0xbf58476d1ce4e5b9ULL;
	return x;
}

struct st {
	uint64_t seed, out;
};

static int
w_prepare(struct prof_ctx *ctx, void **state)
{
	struct st *s = calloc(1, sizeof(*s));

	if (!s)
		return prof_fail(ctx, "out of memory");
	s->seed = 20260710;
	prof_fixture_bytes(ctx, &s->seed, sizeof(s->seed));
	*state = s;
	return 0;
}

static int
w_run(struct prof_ctx *ctx, void *state)
{
	struct st *s = state;

	(void)ctx;
	s->out = step(mix(s->seed, N), N);
	return 0;
}

static int
w_validate(struct prof_ctx *ctx, void *state)
{
	struct st *s = state;
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];

	prof_sum_init(&sum);
	prof_sum_bytes(&sum, &s->out, sizeof(s->out));
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	return 0;
}

static void
w_teardown(struct prof_ctx *ctx, void *state)
{
	(void)ctx;
	free(state);
}

static const struct prof_workload tiny_work = {
	.id = "tiny.work", .version = 1, .category = "test",
	.fixture = "seed", .quick = 1, .backends = PROF_CPU,
	.warning_floor_ms = 0.01, .dtype = "uint64", .problem_size = "200000",
	.tile = "none",
	.prepare = w_prepare, .run = w_run, .validate = w_validate,
	.teardown = w_teardown,
};
PROF_WORKLOAD(tiny_work)
C
	git add -A && git commit -q -m base
}

tiny_commit() {
	case ${2:-} in
	'') echo "/* $1 */" >>w.c ;;
	broken) sed -i 's/^static volatile uint64_t sink;/static volatile uint64_t sink/' w.c ;;
	fixed) sed -i 's/^static volatile uint64_t sink$/static volatile uint64_t sink;/' w.c ;;
	*) sed -i "s/^#define EXTRA .*/#define EXTRA $2/" w.c ;;
	esac
	git commit -q -am "$1"
}
