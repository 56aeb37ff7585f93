#!/bin/bash
# prof-baseline --add keeps each machine's calibration under its segments
# (issue 19, item 6): the first machine's next run is judged against its
# own kernel, not against the machine added last.
. "$(dirname "$0")/lib.sh"
plan 10

D=test/data/results
B=$T/bl
# calib MS: a calibration whose median is MS
calib() {
	echo '{"kernel": "prof-calib-1", "points": [{"at": "start",
		"int_ms": 1, "mem_ms": 1, "ms": '"$1"'}], "n": 1, "min_ms": '"$1"',
		"median_ms": '"$1"', "max_ms": '"$1"', "spread_pct": 0,
		"machine": null}'
}
# on_cpu MODEL ID MS: baseline.json run on a CPU model whose kernel took MS
on_cpu() {
	jq --arg m "$1" --arg id "$2" --argjson c "$(calib "$3")" '.run_id = $id |
		.calibration = $c | .samples |= map(.env.cpu_model = $m |
		.segment = (.segment | fromjson | .cpu_model = $m | tojson))' \
		$D/baseline.json
}
on_cpu "Test CPU 3000" run-a 10 >"$T/a.json"
on_cpu "Fast CPU" run-b 1 >"$T/b.json"
on_cpu "Test CPU 3000" run-a2 10 >"$T/a2.json"
on_cpu "Fast CPU" run-b2 1 >"$T/b2.json"
on_cpu "Test CPU 3000" run-a3 20 >"$T/a3.json"

"$BIN/prof-baseline" --from "$T/a.json" --name fleet --output "$B" 2>/dev/null
run prof-baseline --from "$T/b.json" --name fleet --output "$B" --add
is "$rc" 0 "--add: the fast machine's run is added"
jq_raw '. as $r | (.segment_calibrations | to_entries |
	map({m: ($r.segments[.key] | fromjson | .cpu_model),
	     ms: .value.median_ms}) | unique) ==
	[{m: "Fast CPU", ms: 1}, {m: "Test CPU 3000", ms: 10}]' "$B/fleet.json" \
	"each segment keeps its own machine's calibration"

# diff RUN: the drift notes prof-diff gives RUN's rows against the fleet
diff_notes() {
	run prof-diff --baseline "$B/fleet.json" "$1"
	jq -r '[.[].drift] | unique | map(. // "none") | join("|")' "$out"
}
is "$(diff_notes "$T/a2.json")" none \
	"the first machine's next run: no drift (was: machine 90% slower)"
is "$(diff_notes "$T/b2.json")" none "the added machine's next run: none"
like "$(diff_notes "$T/a3.json")" "machine 100% slower than when the baseline was taken" \
	"the first machine, twice slower: judged against its own kernel"

# Adding again keeps the other machine's calibration and replaces its own.
on_cpu "Fast CPU" run-b3 2 >"$T/b3.json"
run prof-baseline --from "$T/b3.json" --name fleet --output "$B" --add
is "$rc" 0 "--add of the fast machine again"
jq_raw '. as $r | (.segment_calibrations | to_entries |
	map({m: ($r.segments[.key] | fromjson | .cpu_model),
	     ms: .value.median_ms}) | unique) ==
	[{m: "Fast CPU", ms: 2}, {m: "Test CPU 3000", ms: 10}]' "$B/fleet.json" \
	"its segments take the new calibration, the others keep theirs"
is "$(diff_notes "$T/a2.json")" none "the first machine still: no drift"

# A bad segment calibration is bad input, with its path.
jq '.segment_calibrations |= with_entries(.value.median_ms = "x")' \
	"$B/fleet.json" >"$T/bad.json"
run prof-diff --baseline "$T/bad.json" "$T/a2.json"
like "$rc:$(errline)" "2:prof-diff: $T/bad.json: .segment_calibrations." \
	"prof-diff: exit 2, naming the path"
like "$(errline)" ".median_ms: expected a number, got a string" \
	"and the member"
finish
