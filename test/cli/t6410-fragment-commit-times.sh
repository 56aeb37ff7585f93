#!/bin/bash
# Every run folder a make target writes carries the time and parents of
# the commit it measured (results.json's commit_time and parents, which
# the history orders runs by): make bisect's GOOD side of a step (not
# HEAD's, not none), make compare REF='s reference side (baseline.json),
# the current side of both, and make merge-shards' merged run (the shards'
# commit, not the HEAD it is merged at). On the installed fragment, with
# a tiny project whose commits have set dates.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why.sh"
plan 9

# The project's make sees neither this tree's test settings nor its
# history.
unset PROF_BINDIR PROF_BUILD PROF_TEST_BINDIR PROF_WORKLOADS HISTORY
unset BUILD BINDIR SANITIZER

pfx=$T/prefix
make -s --no-print-directory -o all install PREFIX="$pfx" >"$out" 2>"$err"
is "$?" 0 "make install PREFIX=..."
export PKG_CONFIG_PATH=$pfx/lib/pkgconfig PATH=$pfx/bin:$PATH

tiny_repo "$T/r" >/dev/null || exit 1
base=$(git rev-parse HEAD)
cat >Makefile <<'MK'
# A project on the installed prof: one workload binary, prof's targets.
CFLAGS = -O1 -g
WORKLOADS = bin/w

bin/w: w.c
	@mkdir -p bin
	$(CC) $(CFLAGS) $(shell pkg-config --cflags prof-harness) -o $@ w.c \
		$(shell pkg-config --libs prof-harness)

include $(shell pkg-config --variable=makefile prof-harness)
MK
GIT_COMMITTER_DATE=2026-01-01T10:00:00+01:00 \
	git commit -q -am "on the installed prof"
good=$(git rev-parse HEAD)
GIT_COMMITTER_DATE=2026-01-02T00:00:00+00:00 tiny_commit "one"
bad=$(git rev-parse HEAD)

mk() {
	nice make --no-print-directory -s "$@" >"$out" 2>"$err"
	rc=$?
}
# has FILE COMMIT TIME PARENT NAME: FILE's run is of COMMIT, with its time
# and parent.
has() {
	is "$(jq -c '[.commit, .commit_time, .parents]' "$1" 2>&1)" \
		"[\"$2\",\"$3\",[\"$4\"]]" "$5"
}

# make bisect CHANNEL=memory: BAD's step is merged with GOOD's samples as
# its reference side.
mk bisect GOOD="$good" BAD=HEAD W=tiny.work CHANNEL=memory OUTPUT="$T/b"
is "$rc" 0 "make bisect CHANNEL=memory: exit 0"
[ "$rc" = 0 ] || sed 's/^/# /' "$err" >&2
has "$T/b/steps/$bad/memory.json" "$bad" 2026-01-02T00:00:00+00:00 "$good" \
	"bisect: BAD's step, BAD's time and parents"
has "$T/b/steps/$bad/memory.good.json" "$good" 2026-01-01T10:00:00+01:00 \
	"$base" "bisect: the step's GOOD side, GOOD's time and parents"

# make compare REF=: the reference side is REF's commit.
mk compare REF="$good" REPEAT=1 OUTPUT="$T/c"
is "$rc" 0 "make compare REF=: exit 0"
[ "$rc" = 0 ] || sed 's/^/# /' "$err" >&2
has "$T/c/baseline.json" "$good" 2026-01-01T10:00:00+01:00 "$base" \
	"compare: baseline.json (the reference side), REF's time and parents"
has "$T/c/results.json" "$bad" 2026-01-02T00:00:00+00:00 "$good" \
	"compare: results.json, HEAD's"

# make merge-shards: shards of BAD merged with GOOD checked out.
mk profile-quick SHARD=1/1 REPEAT=1 OUTPUT="$T/s/one"
git checkout -q "$good"
mk merge-shards DIR="$T/s" OUTPUT="$T/m"
is "$rc" 0 "make merge-shards, at another commit: exit 0"
[ "$rc" = 0 ] || sed 's/^/# /' "$err" >&2
has "$T/m/results.json" "$bad" 2026-01-02T00:00:00+00:00 "$good" \
	"merge-shards: the shards' commit's time and parents, not HEAD's"

finish
