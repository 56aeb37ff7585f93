/* tap.h: a tiny TAP producer for C unit tests run by prove. */
#ifndef PROF_TAP_H
#define PROF_TAP_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * plan(N) first, then one ok()/is_*() per check; done() returns the exit
 * status (1 if any check failed). Failures print the values on stderr as
 * TAP diagnostics.
 */
static int tap_n, tap_failed;

static __attribute__((unused)) void
plan(int n)
{
	printf("1..%d\n", n);
	fflush(stdout);
}

static __attribute__((unused)) int
ok(int cond, const char *name)
{
	tap_n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, name);
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

static __attribute__((unused)) int
is_int(long long got, long long want, const char *name)
{
	if (!ok(got == want, name))
		fprintf(stderr, "#   got %lld, want %lld\n", got, want);
	return got == want;
}

static __attribute__((unused)) int
is_num(double got, double want, double tol, const char *name)
{
	int c = fabs(got - want) <= tol;

	if (!ok(c, name))
		fprintf(stderr, "#   got %.9g, want %.9g (+- %g)\n", got, want,
			tol);
	return c;
}

static __attribute__((unused)) int
is_str(const char *got, const char *want, const char *name)
{
	int c = got && want && !strcmp(got, want);

	if (!ok(c, name))
		fprintf(stderr, "#   got '%s'\n#  want '%s'\n",
			got ? got : "(null)", want ? want : "(null)");
	return c;
}

static __attribute__((unused)) int
done(void)
{
	return tap_failed ? 1 : 0;
}

#endif /* PROF_TAP_H */
