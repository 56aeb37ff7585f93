/* callgrind.c: fuzz target: a callgrind dump read function by function
 * (prof-why's and the flame graph's reader) and counted (prof-count's),
 * and the same bytes read as the CALLS HZ file beside a CPU profile. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "model/callgrind.h"
#include "why/why.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A folder of our own for the input, removed at exit. */
static char dir[64], in[96], calls[96], out[96];

static void
cleanup(void)
{
	unlink(in);
	unlink(calls);
	unlink(out);
	rmdir(dir);
}

static void
put(const char *path, const uint8_t *data, size_t size)
{
	FILE *fp = fopen(path, "wb");

	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
}

/*
 * What a profile that loads must be: no cost below 0 (a sum that wrapped
 * around), the total the sum of the self costs; and it survives being
 * compared with itself, scaled per call and written as functions only.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prof_callgrind_profile p = {0};
	struct prof_callgrind_dump d;
	struct prof_why w;
	struct prof_err err = {0};
	long long sum = 0;
	size_t i;

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%.40s/prof-fuzz.XXXXXX",
			 t && t[0] ? t : "/tmp");
		if (!mkdtemp(dir))
			abort();
		snprintf(in, sizeof(in), "%s/p.callgrind", dir);
		snprintf(calls, sizeof(calls), "%s/p.calls", dir);
		snprintf(out, sizeof(out), "%s/f.callgrind", dir);
		atexit(cleanup);
	}
	put(in, data, size);
	put(calls, data, size);
	prof_callgrind_read(in, &d, &err);
	if (prof_callgrind_load(in, &p, &err) == 0) {
		for (i = 0; i < p.n_fns; i++) {
			if (p.fns[i].self < 0 || p.fns[i].incl < p.fns[i].self ||
			    p.fns[i].called < 0)
				abort();
			sum += p.fns[i].self;
		}
		for (i = 0; i < p.n_calls; i++)
			if (p.calls[i].count < 0 || p.calls[i].ir < 0)
				abort();
		if (sum != p.total)
			abort();
		if (prof_why_diff(&p, &p, 0, &w, &err) == 0) {
			if (w.n)
				abort();	/* itself: nothing changed */
			prof_why_free(&w);
		}
		prof_callgrind_write_functions(&p, out, &err);
	}
	/* the bytes as CALLS HZ, over the profile or none */
	prof_callgrind_per_call(&p, in, &err);
	prof_callgrind_profile_free(&p);
	return 0;
}
