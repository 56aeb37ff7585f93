#!/bin/bash
# prof-history import of an artifacts/profiling tree that holds make
# compare and make bisect folders: it failed after any make compare ("run
# '...' is already there with other content", nothing added), since a
# compare folder's baseline.json carries the run id of its results.json
# (and the time steps of a bisect share one run id). The two sides of an
# interleaved A/B are not runs of the history (prof-history(1), "A/B
# SIDES"): import and add leave them out and say so, and make compare adds
# nothing to HISTORY.
. "$(dirname "$0")/lib.sh"
plan 11

A=$T/profiling
mkdir -p "$A"
mk() {
	make -s --no-print-directory "$@" WORKLOADS="$TW" CATEGORY=test \
		REPEAT=1 BASELINE="$T/none.json" >"$out" 2>"$err"
	rc=$?
}
# A run folder of a profiling target, and a make compare folder.
mk profile-quick OUTPUT="$A/run" HISTORY=
# make compare takes neither BASELINE nor HISTORY from the command line
# (t6337); HISTORY from the environment it leaves unused.
HISTORY="$T/cmp.sqlite" make -s --no-print-directory compare \
	AGAINST="$TW" OUTPUT="$A/cmp" WORKLOADS="$TW" CATEGORY=test REPEAT=1 \
	>"$out" 2>"$err"
ok "$([ -s "$A/cmp/baseline.json" ] &&
	[ "$(jq -r .run_id "$A/cmp/baseline.json")" = \
		"$(jq -r .run_id "$A/cmp/results.json")" ]; echo $?)" \
	"a compare folder: baseline.json carries the run id of results.json"
ok "$([ ! -e "$T/cmp.sqlite" ]; echo $?)" \
	"make compare adds nothing to HISTORY (not a run of the history)"

# Two time steps of a make bisect folder, made as bisect.sh makes them:
# each commit timed interleaved with GOOD, both sides with one run id.
id=20261201T000000Z-b15e
for c in aaaa bbbb; do
	s=$A/bis/steps/$c/time
	mkdir -p "${s%/*}"
	"$BIN/prof-time" diagnose test.ok --workloads "$TW" --against "$TW" \
		--repeat 2 --max-repeat 2 -q --output "$s.jsonl" \
		--against-output "$s.good.jsonl" &&
		"$BIN/prof-merge" --run-id $id --output "$s.json" "$s.jsonl" &&
		"$BIN/prof-merge" --run-id $id --output "$s.good.json" \
			"$s.good.jsonl" &&
		"$BIN/prof-diff" --baseline "$s.good.json" --output "$s.cmp.json" \
			"$s.json" || exit 1
done

run prof-history import --db "$T/h.sqlite" "$A"
is "$rc" 0 "import of a tree with compare and bisect folders: exit 0"
like "$(cat "$err")" \
	"prof-history: imported 1 run into '$T/h.sqlite' from 7 results files (0 already there; 6 sides of an interleaved A/B left out; " \
	"the profiling run is added, the six A/B sides left out and counted"
run prof-history list --db "$T/h.sqlite"
jq_ok "map(.run_id) == [\"$(jq -r .run_id "$A/run/results.json")\"]" \
	"$out" "the history holds the profiling run alone"

run prof-history import --db "$T/h.sqlite" "$A"
like "$(cat "$err")" \
	"imported 0 runs into '$T/h.sqlite' from 7 results files (1 already there; 6 sides of an interleaved A/B left out; " \
	"importing again changes nothing"

# add leaves a side out too, saying so, and adds the other files: the
# glob of the README (add artifacts/profiling/*/results.json) still works.
run prof-history add --db "$T/a.sqlite" "$A/cmp/baseline.json"
is "$rc:$(cat "$err")" \
	"0:prof-history: left out '$A/cmp/baseline.json': the reference side of an interleaved A/B (prof-time --against), not a run of the history (prof-history(1), \"A/B SIDES\")" \
	"add leaves the reference side of a compare out, and says so"
ok "$([ ! -e "$T/a.sqlite" ]; echo $?)" "with nothing else to add, no history is made"
run prof-history add --db "$T/a.sqlite" "$A"/*/results.json
is "$rc:$(head -n 1 "$err")" \
	"0:prof-history: left out '$A/cmp/results.json': the current side of an interleaved A/B (prof-time --against), not a run of the history (prof-history(1), \"A/B SIDES\")" \
	"add of every results.json: the compare's current side is left out"
like "$(sed -n 2p "$err")" "prof-history: added run '$(jq -r .run_id "$A/run/results.json")'" \
	"and the profiling run added"

# The README and the man page say so.
ok "$(tr '\n' ' ' <README.md | tr -s ' ' |
	grep -q 'make compare` and `make bisect` add nothing to the history'
	echo $?)" "the README says why compare and bisect runs are not in it"
finish
