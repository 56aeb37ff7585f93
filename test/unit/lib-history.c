/* lib-history.c: the history's walk (series by series, in run order), its
 * memory of imported files, and a read-only open that writes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "history/history.h"
#include "model/runview.h"
#include "model/sample.h"
#include "tap.h"

struct seen {
	int n;
	int ordered;		/* series never come back */
	int ids_ok;		/* segment id == prof_sample_id(key) */
	char last[512];
	char done[64][512];
	int n_done;
};

static int
on_point(void *arg, const struct prof_history_point *p, struct prof_err *err)
{
	struct seen *s = arg;
	char key[512], id[PROF_ID_SIZE];
	int i;

	(void)err;
	snprintf(key, sizeof(key), "%s|%s|%s", p->workload, p->backend,
		 p->segment_id);
	if (strcmp(key, s->last)) {
		for (i = 0; i < s->n_done; i++)
			if (!strcmp(s->done[i], key))
				s->ordered = 0;
		if (s->n_done < 64)
			snprintf(s->done[s->n_done++], 512, "%s", key);
		snprintf(s->last, sizeof(s->last), "%s", key);
	}
	if (prof_sample_id(p->segment, id) < 0 || strcmp(id, p->segment_id))
		s->ids_ok = 0;
	s->n++;
	return 0;
}

int
main(void)
{
	char dir[] = "/tmp/lib-history.XXXXXX", db[64], wal[80];
	struct prof_runview v = {0};
	const struct prof_runrow *rows;
	struct prof_history *h;
	struct prof_err err = {0};
	struct seen s = {.ordered = 1, .ids_ok = 1};
	struct stat sb;
	int added = -1;

	plan(10);
	if (!mkdtemp(dir))
		return 1;
	snprintf(db, sizeof(db), "%s/h.sqlite", dir);
	snprintf(wal, sizeof(wal), "%s-wal", db);
	h = prof_history_open(db, 1, &err);
	ok(h != NULL, "a new history");
	ok(prof_runview_load(&v, "test/data/results/current.json", 0,
			     &err) == 0,
	   "a results file");
	ok(h && prof_history_add_judged(h, &v, NULL, &added, &err) == 0 &&
		   added == PROF_HISTORY_ADDED,
	   "is added");
	ok(h && prof_history_walk(h, on_point, &s, &err) == 0 &&
		   s.n == (int)prof_runview_rows(&v, &rows),
	   "the walk hands out every row");
	ok(s.ordered && s.n_done > 1, "series by series, each once");
	ok(s.ids_ok, "each named by the results file's segment id");
	is_int(h ? prof_history_file(h, "ab", NULL, &err) : -1, 0,
	       "a file not read before is not known");
	ok(h && prof_history_file(h, "ab", "run", &err) == 0 &&
		   prof_history_file(h, "cd", "", &err) == 0 &&
		   prof_history_file(h, "ab", NULL, &err) == 1 &&
		   prof_history_file(h, "cd", NULL, &err) == 2,
	   "a file of a run, and one that is none, are remembered");
	prof_history_close(h);
	chmod(db, 0444);
	h = prof_history_open(db, 0, &err);
	memset(&s, 0, sizeof(s));
	s.ordered = 1;
	ok(h && prof_history_walk(h, on_point, &s, &err) == 0 && s.n > 0,
	   "a read-only history is read");
	prof_history_close(h);
	ok(stat(wal, &sb) != 0, "and nothing is left beside it");
	prof_runview_free(&v);
	chmod(db, 0644);
	unlink(db);
	unlink(wal);
	snprintf(wal, sizeof(wal), "%s-shm", db);
	unlink(wal);
	rmdir(dir);
	return 0;
}
