/* history-int.h: what the two backends of history.h share (private to
 * history.c and history-pg.c). Inline, so that neither file calls into
 * the other (t1525: no circles among files). */
#ifndef PROF_HISTORY_INT_H
#define PROF_HISTORY_INT_H

#include <string.h>

#include "history.h"

/* The prefix of the digests that can be compared (history.c says what a
 * run's digest is); histories written before it hold digests without. */
#define PROF_HISTORY_DIGEST_PREFIX "v2:"

/* A run id already stored with digest old (NULL: none said) against the
 * digest of the run being added: 1 the same, 2 another, 3 a digest of
 * the older kind. */
static inline int
prof_history_digest_known(const char *old, const char *digest)
{
	if (!old || strncmp(old, PROF_HISTORY_DIGEST_PREFIX,
			    strlen(PROF_HISTORY_DIGEST_PREFIX)))
		return 3;
	return strcmp(old, digest) ? 2 : 1;
}

/* The verdict a row stores: its time verdict, else its count verdict
 * (NULL, NULL: none). */
static inline void
prof_history_row_verdict(const struct prof_runverdict *vd,
			 const char **status, const char **reason)
{
	*status = *reason = NULL;
	if (!vd)
		return;
	if (vd->status) {
		*status = vd->status;
		*reason = vd->reason;
	} else if (vd->count_status) {
		*status = vd->count_status;
		*reason = vd->count_reason;
	}
}

#endif /* PROF_HISTORY_INT_H */
