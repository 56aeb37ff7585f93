/* lib-history-order.c: the run order over the commit graph
 * (history-order.h): commit-time order where it follows the graph, a
 * parent's runs before a descendant's where it does not, ancestry only
 * through commits that have runs, circles cut, one order whatever the
 * commits' names. */
#include <stdio.h>
#include <string.h>

#include "history/order.h"
#include "tap.h"

/* A run of the cases: its run id, commit and parents, in commit-time
 * order (the order they are added in). */
struct r {
	const char *run, *commit, *parents;
};

/* The run ids in run order, space-separated, into out. */
static const char *
order(const struct r *runs, size_t n, char *out, size_t size)
{
	struct prof_history_order *o = prof_history_order_new();
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; o && i < n; i++)
		if (prof_history_order_add(o, (long long)(100 - i),
					   runs[i].commit, runs[i].parents) < 0)
			break;
	if (!o || i < n || prof_history_order_sort(o) < 0) {
		prof_history_order_free(o);
		return "error";
	}
	/* Row ids count down from 100 as the runs were added. */
	for (i = 0; i < prof_history_order_n(o); i++)
		len += (size_t)snprintf(
			out + len, size - len, "%s%s", i ? " " : "",
			runs[100 - prof_history_order_id(o, i)].run);
	prof_history_order_free(o);
	return out;
}

/*
 * A random graph of NC commits (each a child of up to two earlier ones,
 * some runs twice) whose runs come in a random commit-time order: each
 * run must come after every run of its parents, and every run once.
 */
#define NC 2000
static int
random_graph_holds(void)
{
	static char names[NC][8], parents[NC][24];
	static int par[NC][2], order_of_run[2 * NC], commit_of[2 * NC];
	unsigned long long seed = 20261201;
	struct prof_history_order *o = prof_history_order_new();
	long long pos_of[2 * NC];
	int i, j, n = 0, good = 1;

#define RND() (seed = seed * 6364136223846793005ULL + 1442695040888963407ULL, \
	       (int)(seed >> 33))
	for (i = 0; i < NC; i++) {
		snprintf(names[i], sizeof(names[i]), "%04x", i);
		par[i][0] = i ? RND() % i : -1;
		par[i][1] = i > 1 && RND() % 4 == 0 ? RND() % i : -1;
		snprintf(parents[i], sizeof(parents[i]), "%s %s",
			 par[i][0] >= 0 ? names[par[i][0]] : "",
			 par[i][1] >= 0 ? names[par[i][1]] : "");
		commit_of[n++] = i;
		if (RND() % 5 == 0)
			commit_of[n++] = i;
	}
	for (i = 0; i < n; i++)
		order_of_run[i] = i;
	for (i = n - 1; i > 0; i--) {
		int k = RND() % (i + 1), t = order_of_run[i];

		order_of_run[i] = order_of_run[k];
		order_of_run[k] = t;
	}
	for (i = 0; i < n; i++) {
		int r = order_of_run[i];

		prof_history_order_add(o, r + 1, names[commit_of[r]],
				       parents[commit_of[r]]);
	}
	if (prof_history_order_sort(o) < 0 ||
	    prof_history_order_n(o) != (size_t)n) {
		prof_history_order_free(o);
		return 0;
	}
	for (i = 0; i < n; i++)
		pos_of[i] = prof_history_order_rank(o, i + 1);
	for (i = 0; i < n && good; i++)
		for (j = 0; j < n && good; j++) {
			int c = commit_of[i], p = commit_of[j];

			if ((par[c][0] == p || par[c][1] == p) &&
			    !(pos_of[j] < pos_of[i]))
				good = 0;
		}
	for (i = 0; i < n && good; i++)
		if (pos_of[i] < 1 || pos_of[i] > n)
			good = 0;
	prof_history_order_free(o);
	return good;
#undef RND
}

int
main(void)
{
	char buf[256];
	struct prof_history_order *o;

	plan(12);

	{
		const struct r runs[] = {
			{"a", "c1", NULL}, {"b", "c2", ""}, {"c", "c1", NULL}};

		is_str(order(runs, 3, buf, sizeof(buf)), "a b c",
		       "no parents: commit-time order as it is");
	}
	{
		const struct r runs[] = {{"p", "aa", ""},
					 {"c", "bb", "aa"},
					 {"g", "cc", "bb"}};

		is_str(order(runs, 3, buf, sizeof(buf)), "p c g",
		       "times that follow the graph: the same order");
	}
	{
		/* The child is dated first. */
		const struct r runs[] = {{"c", "bb", "aa"}, {"p", "aa", ""}};

		is_str(order(runs, 2, buf, sizeof(buf)), "p c",
		       "a child dated before its parent comes after it");
	}
	{
		/* A merge dated before both parents; an unrelated run
		 * between keeps its place in time. */
		const struct r runs[] = {{"m", "dd", "aa bb"},
					 {"a", "aa", "00"},
					 {"u", "ee", ""},
					 {"b", "bb", "00"},
					 {"r", "00", ""}};

		is_str(order(runs, 5, buf, sizeof(buf)), "u r a b m",
		       "a merge after both parents, each after the root");
	}
	{
		/* The parent measured twice, once after the child. */
		const struct r runs[] = {
			{"p1", "aa", ""}, {"c", "bb", "aa"}, {"p2", "aa", ""}};

		is_str(order(runs, 3, buf, sizeof(buf)), "p1 p2 c",
		       "a child after every run of its parent");
	}
	{
		/* bb's parent 11 has no run: nothing links bb to aa. */
		const struct r runs[] = {{"c", "bb", "11"}, {"p", "aa", ""}};

		is_str(order(runs, 2, buf, sizeof(buf)), "c p",
		       "ancestry stops at a commit without runs");
	}
	{
		/* aa <- bb <- cc with bb's run dated last of all. */
		const struct r runs[] = {
			{"g", "cc", "bb"}, {"p", "aa", ""}, {"c", "bb", "aa"}};

		is_str(order(runs, 3, buf, sizeof(buf)), "p c g",
		       "ancestry followed through a commit that has runs");
	}
	{
		const struct r runs[] = {{"x", "aa", "bb"},
					 {"y", "bb", "aa"},
					 {"z", "cc", "aa"}};

		is_str(order(runs, 3, buf, sizeof(buf)), "x y z",
		       "a circle of parents is cut where commit-time order "
		       "meets it first");
	}
	{
		/* The same graph under names that sort the other way. */
		const struct r a[] = {{"c", "zz", "yy"}, {"p", "yy", ""}};
		const struct r b[] = {{"c", "11", "22"}, {"p", "22", ""}};
		char other[256];

		is_str(order(a, 2, buf, sizeof(buf)),
		       order(b, 2, other, sizeof(other)),
		       "the order does not depend on the commits' names");
	}
	o = prof_history_order_new();
	prof_history_order_add(o, 7, "bb", "aa");
	prof_history_order_add(o, 3, "aa", NULL);
	prof_history_order_sort(o);
	is_int(prof_history_order_rank(o, 3) * 10 +
		       prof_history_order_rank(o, 7),
	       12, "rank: each row id's position, from 1");
	is_int(prof_history_order_rank(o, 5), 0, "rank: 0 for no such run");
	prof_history_order_free(o);
	ok(random_graph_holds(),
	   "a random graph of 2,000 commits: each run after its parents'");
	return done();
}
