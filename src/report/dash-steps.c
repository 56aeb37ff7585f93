/* dash-steps.c: a series' change points, found in the medians of its
 * runs or in a memory metric's values (dash-int.h), for its last change
 * (dash-walk.c) and its chart's marks (dash-series.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history/steps.h"
#include "dash-int.h"

int
dash_steps_fit(const struct dash *d, int m, struct dash_steps *s)
{
	size_t i, room = d->n ? d->n : 1;

	memset(s, 0, sizeof(*s));
	s->nc = -1;
	s->idx = malloc(room * sizeof(*s->idx));
	s->x = malloc(room * sizeof(*s->x));
	s->cuts = malloc(room * sizeof(*s->cuts));
	if (!s->idx || !s->x || !s->cuts)
		return -1;
	for (i = 0; i < d->n; i++) {
		double v = m ? d->pts[i].mem[m] : d->pts[i].median;

		if (!isfinite(v))
			continue;
		s->idx[s->k] = i;
		s->x[s->k++] = v;
	}
	s->off = s->k > PROF_STEPS_MAX_RUNS ? s->k - PROF_STEPS_MAX_RUNS : 0;
	s->nc = prof_steps_fit(s->x + s->off, s->k - s->off, s->cuts);
	return s->nc < 0 ? -1 : 0;
}

void
dash_steps_free(struct dash_steps *s)
{
	free(s->idx);
	free(s->x);
	free(s->cuts);
}
