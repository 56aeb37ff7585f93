#!/bin/bash
# make bisect CHANNEL=time on the installed fragment: a tiny project (the
# workload of test/cli/why.sh) built with pkg-config prof-harness and
# including the installed prof.mk; five commits after GOOD, the third
# makes tiny.work take about 3 times as long (step() runs its loop 5
# times: mix + 5 step against mix + step), about 20 ms a call against 60.
# Each step is timed interleaved with GOOD with adaptive sampling
# (prof-time --against --max-repeat); the bisect names the third commit,
# and bisect.json has every step's verdict: status, ratio, p-value,
# samples a side, settled. No wall-time threshold: a change of 3x is
# behaviour, and what a step's numbers are is checked by their shape only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/why.sh"
plan 21

# The project's make sees neither this tree's test settings nor its
# history.
unset PROF_BINDIR PROF_BUILD PROF_TEST_BINDIR PROF_WORKLOADS HISTORY
unset BUILD BINDIR SANITIZER

pfx=$T/prefix
make -s --no-print-directory -o all install PREFIX="$pfx" >"$out" 2>"$err"
is "$?" 0 "make install PREFIX=..."
export PKG_CONFIG_PATH=$pfx/lib/pkgconfig PATH=$pfx/bin:$PATH

tiny_repo "$T/r" >/dev/null || exit 1
# About 20 ms a call at GOOD (35 times why.sh's N), 60 ms from the third
# commit: a sample of half a millisecond is all scheduler on a busy
# machine (beside two busy loops, one step's GOOD side measured 18 ms for
# 0.6 ms of work and the step came out improved), while a scheduler time
# slice is small beside 20 ms, as test.ab's 30 ms are.
sed -i 's/^#define N 200000L$/#define N 7000000L/' w.c
grep -q '^#define N 7000000L$' w.c || exit 1
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
git commit -q -am "on the installed prof"
good=$(git rev-parse HEAD)
tiny_commit "one"
tiny_commit "two"
tiny_commit "three: step runs its loop 5 times" 400
first=$(git rev-parse HEAD)
tiny_commit "four"
tiny_commit "five"

mk() {
	nice make --no-print-directory -s "$@" >"$out" 2>"$err"
	rc=$?
}

mk bisect GOOD="$good" BAD=HEAD W=tiny.work CHANNEL=time OUTPUT="$T/b"
is "$rc" 0 "make bisect CHANNEL=time: exit 0"
[ "$rc" = 0 ] || sed 's/^/# /' "$err" >&2
is "$(sed -n 1p "$out")" \
	"first changed commit: $first three: step runs its loop 5 times" \
	"it names the middle commit, hash and subject"
like "$(sed -n 2p "$out")" "warning against GOOD ${good:0:7} timed interleaved (ratio " \
	"then the change: the time rule's status against GOOD, its ratio"
ok "$(sed -n 2p "$out" | grep -Eq '^change: median [0-9]+\.[0-9]{3} (ns|µs|ms|s), '; echo $?)" \
	"the median in the unit its size asks for"
b=$T/b/bisect.json
jq_ok '.channel == "time" and .workload == "tiny.work" and
	.threshold_pct == 5 and .good == "'"$good"'"' "$b" \
	"bisect.json: the channel, the workload, GOOD and the steps' time threshold (the interleaved default)"
jq_ok '.first_changed.commit == "'"$first"'" and
	.first_changed.status == "warning" and .first_changed.changed' "$b" \
	"the first changed commit, a warning"
jq_ok '.first_changed.ratio > 1.05' "$b" \
	"its ratio is over the rule's 1.05 (its 5% threshold)"
# GOOD first (not timed against itself), then BAD, then the search.
jq_ok '.steps[0].commit == "'"$good"'" and .steps[0].status == null and
	.steps[1].note == "bad" and .steps[1].status == "warning"' "$b" \
	"GOOD is the reference of every step; BAD is a warning"
jq_ok '[.steps[1:][] | select(.built)] | length >= 3 and
	all(.[]; (.status | IN("stable", "warning", "improved",
			"unsettled")) and (.threshold_pct == 5) and
		(.ratio > 0) and (.p_value >= 0 and .p_value <= 1) and
		(.value > 0) and (.settled | type == "boolean") and
		(.reason | type == "string"))' "$b" \
	"each timed step has its status, ratio, p-value, median and reason"
# prof-time --repeat 5 --max-repeat 20: 5 to 20 samples a side, the
# same on both sides.
jq_ok 'all(.steps[1:][]; .samples.current >= 5 and
	.samples.current <= 20 and .samples.good == .samples.current)' "$b" \
	"and its samples a side: REPEAT (5) up to four times as many"
jq_ok 'all(.steps[1:][]; .changed == (.status == "warning"))' "$b" \
	"a step is changed when its status is BAD's, warning"
jq_ok '.unsettled == [.steps[] | select(.settled == false) | .commit]' \
	"$b" "steps whose verdict did not settle are listed"
if jq -e '.unsettled == []' "$b" >/dev/null; then
	ok 0 "every verdict settled: nothing said of it"
else
	like "$(cat "$out")" "unsettled (each counted as unchanged; run again" \
		"an unsettled verdict is said"
fi
ok "$(ls "$T/b/steps/$first/time.cmp.json" "$T/b/steps/$first/time.jsonl" \
	"$T/b/steps/$first/time.good.jsonl" >/dev/null; echo $?)" \
	"each step keeps its samples and comparison under steps/COMMIT/"

# The functions of the first changed commit against its parent: a CPU
# profile of each (prof-trace, gperftools). step does 5 times its loop
# there, mix the same: step comes first. Its rank is asserted, never a
# number of samples.
parent=$(git rev-parse "$first^")
like "$(cat "$out")" \
	"functions against ${parent:0:7} (its parent), by CPU time (gperftools):" \
	"it prints the commit's CPU time functions against its parent"
like "$(grep -A 3 'by CPU time (gperftools):' "$out" | sed -n 4p)" \
	"  step (" "step first"
jq_ok '.functions.unit == "ns per call" and
	.functions.functions[0].name == "step" and
	(.functions.functions[0].file | endswith("w.c")) and
	(.functions.functions[0] | has("self_before") and has("self_after")
		and has("share")) and
	.functions.artifacts.before ==
		"time/reference/tiny.work.cpu.callgrind" and
	.functions.artifacts.after == "time/current/tiny.work.cpu.callgrind"' \
	"$b" "bisect.json: its functions, step first, and the two profiles"

# Without prof-trace (the tools but it): one line says so, and the
# commit is still named. The search itself is tested above: here GOOD is
# the first changed commit's parent and BAD that commit, so one step is
# timed, not every step again (the builds are kept).
mkdir "$T/tools"
for t in "$pfx"/bin/*; do
	[ "${t##*/}" = prof-trace ] || ln -s "$t" "$T/tools/"
done
mk bisect GOOD="$parent" BAD="$first" W=tiny.work CHANNEL=time \
	OUTPUT="$T/b2" PROF_TOOLDIR="$T/tools"
is "$rc:$(sed -n 1p "$out")" \
	"0:first changed commit: $first three: step runs its loop 5 times" \
	"without prof-trace: exit 0, and the commit"
line="functions: no CPU profiles: prof-trace or google-pprof is missing"
ok "$(grep -qxF "$line (make deps)" "$out" &&
	jq -e '.functions == null' "$T/b2/bisect.json" >/dev/null
	echo $?)" "one line says that its functions are not profiled"

mk bisect GOOD="$good" BAD=HEAD W=tiny.work CHANNEL=time REPEAT=x
is "$rc:$(head -n 1 "$err")" \
	"2:make bisect: REPEAT: 'x' is not a number of samples" \
	"a REPEAT that is not a number is refused"
finish
