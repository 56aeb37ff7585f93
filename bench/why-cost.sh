#!/bin/bash
# why-cost.sh: what WHY=1 and make bisect cost, and the check from a clean
# clone that WHY=1 names the function that does more work.
#
# usage: bash bench/why-cost.sh [WORKDIR]
#
# 1. Clones this repository into WORKDIR (default a new temporary folder),
#    builds it, and commits a change that makes one engine function of a
#    quick workload (pk_estimate_plot, of pipeline.estimate_plot) execute
#    about 5% more instructions without changing its output.
# 2. Times make compare REF=HEAD~1 three times: the first builds REF (not
#    counted), then plain and WHY=1 with REF's build cached, and prints
#    the extra time of WHY=1.
# 3. Checks that the WHY=1 run names pk_estimate_plot first for the changed
#    row in comparisons.json, summary.md and report.html.
# 4. Times make bisect over 16 commits in a tiny repository on this tree's
#    harness (test/cli/why.sh; the 11th commit makes step() do more work)
#    and prints its time and number of builds.
# 5. The same by time (CHANNEL=time: each step timed interleaved with
#    GOOD, adaptive) in a second tiny repository whose 11th commit makes
#    tiny.work take about 3 times as long (step() runs its loop 5 times).
#
# WHY_COST_PARTS="compare bisect time" (the default) says which parts run:
# compare is steps 1 to 3 (a clone and two full builds: the long one).
set -u
PARTS=${WHY_COST_PARTS:-compare bisect time}
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=${1:-$(mktemp -d /tmp/why-cost.XXXXXX)}
unset MAKEFLAGS MFLAGS MAKELEVEL PROF_BUILD
say() { printf '%s\n' "$*" >&2; }
secs() { date +%s.%N; }

if part compare; then
# A clone left by an earlier try is brought to this commit again.
if [ -d "$W/c/.git" ]; then
	git -C "$W/c" fetch -q "$ROOT" HEAD &&
		git -C "$W/c" reset -q --hard FETCH_HEAD || exit 2
else
	git clone -q "$ROOT" "$W/c" || exit 2
fi
cd "$W/c" || exit 2
say "building the clone in $W/c"
make -s -j2 >"$W/build.log" 2>&1 || { say "the clone does not build"; exit 2; }
# About 5% more work in pk_estimate_plot: a loop over the paths whose
# result goes nowhere (a volatile sink), so the output stays the same.
sed -i 's/^#include "estimate.h"$/&\n\nstatic volatile double pk_sink;/' workloads/engine/estimate.c
sed -i 's/^	e->lift_s = 2 \* p->lift_s \* (double)e->strokes;$/	for (i = 0; i < d->npaths * 8; i++)\n\t\tpk_sink += (double)i;\n&/' workloads/engine/estimate.c
git -c user.name=t -c user.email=t@t commit -q -am \
	"estimate: pk_estimate_plot does about 5% more work" || exit 2
make -s -j2 >>"$W/build.log" 2>&1 || exit 2

t0=$(secs)
make -s compare REF=HEAD~1 OUTPUT="$W/run0" >"$W/run0.log" 2>&1
say "make compare REF=HEAD~1 (building REF): $(echo "$(secs) - $t0" | bc) s, exit $?"
t0=$(secs)
make -s compare REF=HEAD~1 OUTPUT="$W/run1" >"$W/run1.log" 2>&1
rc1=$?
t1=$(echo "$(secs) - $t0" | bc)
t0=$(secs)
make -s compare REF=HEAD~1 WHY=1 OUTPUT="$W/run2" >"$W/run2.log" 2>&1
rc2=$?
t2=$(echo "$(secs) - $t0" | bc)
echo "| make compare REF=HEAD~1 (quick, REF cached) | ${t1} s | exit $rc1 |"
echo "| make compare REF=HEAD~1 WHY=1 | ${t2} s | exit $rc2 |"
echo "extra time of WHY=1: $(echo "$t2 - $t1" | bc) s"

c=$W/run2/comparisons.json
echo "comparisons.json, the count row of pipeline.estimate_plot:"
jq -c '.[] | select(.workload == "pipeline.estimate_plot" and
	.phase == "instructions") | {status, reason,
	first: .functions[0].name, share: .functions[0].share}' "$c"
echo "summary.md, under its reason:"
grep -A 4 'pipeline.estimate_plot` (cpu, instructions)' "$W/run2/summary.md"
echo "report.html, its highlighted frames:"
grep -o '<g class="frame more"><title>[^(<]*' "$W/run2/report.html"
fi

# make bisect over 16 commits in a tiny repository.

. "$ROOT/test/cli/why.sh"
export PROF_ROOT=$ROOT
if part bisect; then
rm -rf "$W/tiny" "$W/bisect"
tiny_repo "$W/tiny" >/dev/null || exit 2
good=$(git rev-parse HEAD)
for i in $(seq 1 16); do
	if [ "$i" = 11 ]; then
		tiny_commit "commit $i: step does more work" 10
	else
		tiny_commit "commit $i"
	fi
done
t0=$(secs)
env PROF_BINDIR="$ROOT/bin" PROF_WORKLOADS=bin/w \
	PROF_W=tiny.work PROF_GOOD="$good" PROF_BAD=HEAD \
	PROF_OUTPUT="$W/bisect" sh "$ROOT/fragment/bisect.sh" >"$W/bisect.log" 2>&1
rc=$?
t3=$(echo "$(secs) - $t0" | bc)
echo "make bisect over 16 commits (tiny repository): ${t3} s, exit $rc," \
	"$(jq .builds "$W/bisect/bisect.json") builds," \
	"$(jq '.steps | length' "$W/bisect/bisect.json") steps"
grep -m 1 '^first changed commit' "$W/bisect.log"
fi

# make bisect CHANNEL=time over 16 commits in another tiny repository.
if part time; then
rm -rf "$W/tiny-time" "$W/bisect-time"
tiny_repo "$W/tiny-time" >/dev/null || exit 2
good=$(git rev-parse HEAD)
for i in $(seq 1 16); do
	if [ "$i" = 11 ]; then
		tiny_commit "commit $i: step runs its loop 5 times" 400
	else
		tiny_commit "commit $i"
	fi
done
t0=$(secs)
env PROF_BINDIR="$ROOT/bin" PROF_WORKLOADS=bin/w PROF_CHANNEL=time \
	PROF_W=tiny.work PROF_GOOD="$good" PROF_BAD=HEAD \
	PROF_OUTPUT="$W/bisect-time" sh "$ROOT/fragment/bisect.sh" \
	>"$W/bisect-time.log" 2>&1
rc=$?
t4=$(echo "$(secs) - $t0" | bc)
b=$W/bisect-time/bisect.json
echo "make bisect CHANNEL=time over 16 commits (tiny repository): ${t4} s," \
	"exit $rc, $(jq .builds "$b") builds, $(jq '.steps | length' "$b")" \
	"steps, samples a side per timed step:" \
	"$(jq -r '[.steps[] | select(.samples) | .samples.current] |
		map(tostring) | join(" ")' "$b"), unsettled:" \
	"$(jq '.unsettled | length' "$b")"
grep -E '^(first changed commit|change|not settled)' "$W/bisect-time.log"
fi
