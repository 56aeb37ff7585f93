#!/bin/bash
# prof-baseline --add (make baseline-update ADD=1): a baseline for a fleet
# of runners, one segment per CPU model; a run's segments replace their own
# rows and keep the others. A run whose segment the baseline lacks is told
# which segments the baseline has.
. "$(dirname "$0")/lib.sh"
plan 15

D=test/data/results
B=$T/bl
# on_cpu MODEL ID FACTOR: baseline.json as if run on another CPU model.
on_cpu() {
	jq --arg m "$1" --arg id "$2" --argjson f "$3" '.run_id = $id |
		.samples |= map(.env.cpu_model = $m |
		.segment = (.segment | fromjson | .cpu_model = $m | tojson) |
		if .duration_ms then .duration_ms *= $f else . end)' \
		$D/baseline.json
}
on_cpu "Other CPU" run-other 1 >"$T/other.json"
on_cpu "Test CPU 3000" run-again 2 >"$T/again.json"
on_cpu "Third CPU" run-third 1 >"$T/third.json"
n=$(jq '.samples | length' $D/baseline.json)
segs=$(jq '[.samples[].segment] | unique | length' $D/baseline.json)

"$BIN/prof-baseline" --from $D/baseline.json --name fleet --output "$B" \
	2>/dev/null
run prof-baseline --from "$T/other.json" --name fleet --output "$B" --add
is "$rc" 0 "--add: another CPU model's run is added"
is "$(errline)" \
	"prof-baseline: added run 'run-other' ($n samples) to '$B/fleet.json': 0 samples of its rows replaced, $n of other rows kept" \
	"and says what it kept"
jq_ok "(.samples | length) == 2 * $n and (.segments | length) == 2 * $segs" \
	"$B/fleet.json" "the baseline holds both models' segments"
jq_ok '. as $r | [.samples[] | $r.segments[.segment_id] | fromjson |
	.cpu_model] | unique == ["Other CPU", "Test CPU 3000"]' \
	"$B/fleet.json" "one set of rows per CPU model"

cp "$B/fleet.json" "$T/before.json"
run prof-baseline --from "$T/again.json" --name fleet --output "$B" --add
is "$rc" 0 "--add of a model that is there again"
jq_ok ".samples | length == 2 * $n" "$B/fleet.json" \
	"replaces its rows, never doubles them"
sum() {
	as_v1 "$1" | jq --arg m "$2" '[.samples[] |
		select(.env.cpu_model == $m) | .duration_ms // 0] | add'
}
is "$(sum "$B/fleet.json" "Test CPU 3000")" \
	"$(jq '[.samples[].duration_ms // 0] | add * 2' $D/baseline.json)" \
	"the run's own segment has the new numbers"
is "$(sum "$B/fleet.json" "Other CPU")" "$(sum "$T/before.json" "Other CPU")" \
	"another model's rows are kept as they were"

# The refusals of a promotion hold for --add, and nothing is written.
cp "$B/fleet.json" "$T/before.json"
run prof-baseline --from $D/current.json --name fleet --output "$B" --add
is "$rc" 1 "--add refuses an unfit run"
is "$(md5sum <"$B/fleet.json")" "$(md5sum <"$T/before.json")" \
	"and leaves the baseline as it was"

mk() { make --no-print-directory "$@" >"$out" 2>"$err"; rc=$?; }
mk baseline-update FROM="$T/other.json" NAME=fleet DIR="$B" ADD=1
is "$rc" 0 "make baseline-update ADD=1"
jq_ok ".samples | length == 2 * $n" "$B/fleet.json" "adds (here: replaces)"

# A run on a third model: every row new, and the summary says why.
"$BIN/prof-diff" --baseline "$B/fleet.json" -o "$T/c.json" "$T/third.json"
jq_ok "all(.[]; .status == \"new\" and
	(.baseline_segments | length) == 2 * $segs)" "$T/c.json" \
	"new rows list the segments the baseline has"
"$BIN/prof-report" --comparisons "$T/c.json" -o "$T/s.md" -q "$T/third.json"
summary=$(cat "$T/s.md")
like "$summary" "are \`new\` because the baseline has no row in" \
	"the summary says why the rows are new"
ok "$(grep -q '^- CPU Third CPU' "$T/s.md" &&
	grep -q '^- CPU Other CPU' "$T/s.md" &&
	grep -q '^- CPU Test CPU 3000' "$T/s.md"; echo $?)" \
	"and lists this run's segment and the baseline's"
finish
