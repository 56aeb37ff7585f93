/* id.h: the one rule for workload ids, baseline names, run ids and project
 * names. */
#ifndef PROF_ID_H
#define PROF_ID_H

#include <stddef.h>

/* The longest id, in bytes. */
#define PROF_ID_MAX 200

/*
 * Whether id is a valid workload id (or baseline name): 1 to PROF_ID_MAX
 * bytes of ASCII letters, digits, '.', '_' and '-', starting with a letter
 * or a digit. So an id is safe as a file name, in a terminal, in Markdown
 * and in a CI log line, and can never be taken for an option.
 *
 * Returns 1 when valid; 0 when not, with why (when not NULL) filled with
 * the reason, e.g. "byte 0x0a at offset 4 is not allowed (letters, digits,
 * '.', '_' and '-')". A NULL id is invalid.
 */
int prof_id_valid(const char *id, char *why, size_t why_n);

/*
 * Whether commit is a valid commit (a results file's "commit", prof-merge's
 * --commit): 1 to PROF_ID_MAX bytes of printable ASCII (space to '~'), not
 * starting with a space or '-' (a hash, "unknown", "v1.2-3-gabc-dirty").
 * So it prints on one line of a terminal or a CI log (no control
 * character can start a line or colour it), a cut of it never falls
 * inside a character, and it is never taken for an option. Writers of
 * HTML and Markdown still escape it. Returns 1 or 0 with why as
 * prof_id_valid().
 */
int prof_commit_valid(const char *commit, char *why, size_t why_n);

/*
 * A commit's time as `git log --format=%cI` writes it: ISO 8601 to the
 * second with a UTC offset, 2026-11-29T18:15:00+01:00 or ...Z, a real
 * date and time (prof_date_parse(), date.h). Returns 1 and, with utc, the
 * same moment in UTC (2026-11-29T17:15:00Z, 21 bytes with the NUL) that
 * sorts as time does; or 0 with why as above.
 */
int prof_commit_time_valid(const char *t, char *utc, char *why,
			   size_t why_n);

/*
 * One parent hash: 4 to 64 lowercase hex digits (git's %P writes them
 * space-separated). Returns 1 or 0 with why.
 */
int prof_parent_valid(const char *sha, char *why, size_t why_n);

/* The longest project name, in bytes (history.h: PostgreSQL's runs are
 * stored with it). */
#define PROF_PROJECT_MAX 255

/*
 * Whether name is a valid project name (prof-history and prof-dashboard's
 * --project, $PROF_PROJECT, make PROF_PROJECT=, the git repository's
 * name they default to): 1 to PROF_PROJECT_MAX bytes of UTF-8 without a
 * control character. A longer name is refused, never cut: two projects
 * whose names begin alike would share one series. Returns 1 or 0 with
 * why as prof_id_valid() ("longer than 255 bytes (300)").
 */
int prof_project_valid(const char *name, char *why, size_t why_n);

#endif /* PROF_ID_H */
