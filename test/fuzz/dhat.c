/* dhat.c: fuzz target: valgrind DHAT's JSON read into allocation sites
 * (prof-why's reader, make compare MEMORY=1 WHY=1's and make bisect
 * CHANNEL=memory's), and the sites compared with themselves and with
 * none. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "why/dhat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A folder of our own for the input, removed at exit. */
static char dir[64], in[96];

static void
cleanup(void)
{
	unlink(in);
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
 * What a profile that loads must be: its sites sorted by name, then file,
 * each once; no number below 0 (a sum that wrapped around); the totals
 * the sums of the sites; no more points counted than there are. Compared
 * with itself nothing changed and every site is unchanged; compared with
 * no site at all every site is new, and their shares of the change add
 * up to the whole.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum prof_dhat_by bys[] = {
		PROF_DHAT_BY_BYTES, PROF_DHAT_BY_ALLOCS, PROF_DHAT_BY_LIVE,
	};
	struct prof_dhat_profile p = {0}, none = {0};
	struct prof_dhat_diff d;
	struct prof_err err = {0};
	long long bytes = 0, allocs = 0, live = 0;
	size_t i, k;

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%.40s/prof-fuzz.XXXXXX",
			 t && t[0] ? t : "/tmp");
		if (!mkdtemp(dir))
			abort();
		snprintf(in, sizeof(in), "%s/p.dhat.json", dir);
		atexit(cleanup);
	}
	put(in, data, size);
	if (prof_dhat_load(in, &p, &err) < 0) {
		if (!err.reason[0])
			abort();	/* a failure says why */
		return 0;
	}
	if (p.counted > p.points || p.n > p.counted)
		abort();
	for (i = 0; i < p.n; i++) {
		const struct prof_dhat_site *s = &p.sites[i];

		if (!s->name || !s->file || s->bytes < 0 || s->allocs < 0 ||
		    s->max_live < 0)
			abort();
		if (i > 0) {
			int c = strcmp(p.sites[i - 1].name, s->name);

			if (c > 0 ||
			    (!c && strcmp(p.sites[i - 1].file, s->file) >= 0))
				abort();	/* unsorted, or twice */
		}
		bytes += s->bytes;
		allocs += s->allocs;
		live += s->max_live;
	}
	if (bytes != p.bytes || allocs != p.allocs || live != p.max_live)
		abort();
	for (k = 0; k < sizeof(bys) / sizeof(bys[0]); k++) {
		double shares = 0;

		if (prof_dhat_diff(&p, &p, bys[k], &d, &err) == 0) {
			if (d.n || d.unchanged != p.n)
				abort();	/* itself: nothing changed */
			prof_dhat_diff_free(&d);
		}
		if (prof_dhat_diff(&none, &p, bys[k], &d, &err) == 0) {
			if (d.n != p.n || d.n_new != p.n || d.n_vanished ||
			    d.unchanged)
				abort();
			for (i = 0; i < d.n; i++) {
				if (d.c[i].state != PROF_DHAT_NEW)
					abort();
				shares += d.c[i].share;
			}
			if (prof_dhat_total(&p, bys[k]) > 0 &&
			    (shares < 1 - 1e-9 || shares > 1 + 1e-9))
				abort();	/* the whole change, shared */
			prof_dhat_diff_free(&d);
		}
	}
	prof_dhat_free(&p);
	return 0;
}
