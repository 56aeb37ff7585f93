#!/bin/sh
# break-checks.sh: the proof that tests fail when what they test breaks
# (issue 41, items 26 and 27), run by hand in a worktree: each break is
# an edit of one source file, the tests named run, the file is restored
# from git and the tools rebuilt. Every test named must fail.
#   A: the baseline time rule never warns (verdict/rule.c, judge_speed:
#      warning -> stable): t6307, whose time checks skipped when the
#      row was not a warning
#   B: the memory rule never warns on an exact metric (judge_mem_exact):
#      t6304, whose "which functions" hint check skipped without a
#      changed row
#   C: the interleaved time rule never says stable (judge_ab: a stable
#      row a warning): t7024, whose disagreement check skipped when the
#      time row was not stable
#   D: every memory value of a workload twice what it is (phases.c,
#      mem_put): t7026, t7001, which checked pages against each other
#   E: every heap number of a command twice what it is (cmdsample.c):
#      t7013
# Prints prove's summary of each.
set -u
cd "$(dirname "$0")/../.." || exit 2
for f in src/lib/verdict/rule.c src/lib/verdict/judge.c src/harness/phases.c src/runner/cmdsample.c; do
	git diff --quiet -- "$f" || {
		echo "$f has changes of its own; not touching it" >&2
		exit 2
	}
done
brk() { # NAME FILE SED TEST...
	name=$1 file=$2 expr=$3
	shift 3
	sed -i "$expr" "$file"
	if git diff --quiet -- "$file"; then
		echo "break $name: the edit did not apply" >&2
		exit 2
	fi
	if ! nice make -s -j2 all test-build >/dev/null 2>&1; then
		git checkout -- "$file"
		echo "break $name: the build failed" >&2
		exit 2
	fi
	echo "== break $name"
	nice make test T="$*" 2>&1 | grep -E '^(test/|Files=|Result)' |
		grep -v '^test/.* ok$'
	git checkout -- "$file"
}
brk A src/lib/verdict/rule.c 's/^\tr->status = sr.status;$/&\n\tif (r->status == PROF_CMP_WARNING)\n\t\tr->status = PROF_CMP_STABLE;/' \
	test/cli/t6307-diagnose-why.sh
brk B src/lib/verdict/rule.c '/^judge_mem_exact/,/^}/s/r->status = PROF_CMP_WARNING;/r->status = PROF_CMP_STABLE;/' \
	test/cli/t6304-compare-why.sh
brk C src/lib/verdict/judge.c '/^judge_ab(/,/^out:$/s/^out:$/\tif (r->status == PROF_CMP_STABLE)\n\t\tr->status = PROF_CMP_WARNING;\n&/' \
	test/cli/t7024-report-html-memory.sh
brk D src/harness/phases.c 's/v >= 0 ? json_object_new_int64(v) : NULL/v >= 0 ? json_object_new_int64(2 * v) : NULL/' \
	test/cli/t7026-make-memory-history.sh test/cli/t7001-make-memory.sh
brk E src/runner/cmdsample.c 's/json_object_new_int64(\(top\|sum\|allocs\|bytes\))/json_object_new_int64(2 * \1)/' \
	test/cli/t7013-command-heap.sh
nice make -s -j2 all test-build >/dev/null 2>&1
