/* why.h: what changed between two callgrind profiles of one workload,
 * function by function. */
#ifndef PROF_WHY_H
#define PROF_WHY_H

#include "base/err.h"
#include "model/callgrind.h"

/*
 * A function of either side. Functions are matched by name and file;
 * one left over on both sides with the same name (and no other of that
 * name left) is the same function moved to another file, and says so in
 * file_before. A function only before has vanished, one only after is
 * new.
 */
enum prof_why_state {
	PROF_WHY_CHANGED,	/* on both sides */
	PROF_WHY_NEW,		/* only after */
	PROF_WHY_VANISHED,	/* only before */
};

struct prof_why_fn {
	const char *name;		/* borrowed from the profiles */
	const char *file;		/* after's, or before's if vanished */
	const char *file_before;	/* NULL unless the file changed */
	enum prof_why_state state;
	long long self_before, self_after;
	long long incl_before, incl_after;
	/* the change of self (of incl) over the change of the whole
	 * count; 0 when the count did not change */
	double share, incl_share;
};

struct prof_why {
	struct prof_why_fn *fns;	/* ranked, biggest change first */
	size_t n;			/* those whose self or incl changed */
	size_t unchanged;		/* on both sides, same self and incl */
	long long total_before, total_after;
	size_t n_new, n_vanished;
};

/*
 * Rank the functions of before and after by the size of the change of
 * their self cost (by_incl: of their inclusive cost), largest first; ties
 * by the other cost, then by name. The strings are borrowed: keep both
 * profiles until prof_why_free(). Returns 0, or -1 with err: out of
 * memory, or the two count different events (Ir and Hits: a unit is part
 * of a profile's identity; the caller names the file, after's).
 */
int prof_why_diff(const struct prof_callgrind_profile *before,
		  const struct prof_callgrind_profile *after, int by_incl,
		  struct prof_why *w, struct prof_err *err);

void prof_why_free(struct prof_why *w);

/*
 * The C++ names of p demangled (callgrind run with --demangle=no, and
 * some pprof listings, keep the symbols' mangled names, _ZN3foo3barEv for
 * foo::bar()): every name that starts with _Z goes through program
 * (c++filt of binutils, looked up in PATH) in one run, and functions
 * whose names become one are merged (prof_callgrind_rename()). Nothing
 * is run when no name is mangled. Returns 1 done (or nothing to do), 0
 * when program could not be run or failed (the names stay as they are),
 * or -1 with err (out of memory, no process could be made).
 */
int prof_why_demangle(struct prof_callgrind_profile *p, const char *program,
		      struct prof_err *err);


/* "new", "vanished" or "changed". */
const char *prof_why_state_name(enum prof_why_state s);

#endif /* PROF_WHY_H */
