#!/bin/bash
# prof-baseline: promotion of a fit run, and each refusal (exit 1, nothing
# written); malformed input is exit 2.
. "$(dirname "$0")/lib.sh"
plan 26

D=test/data/results
B=$T/bl

run prof-baseline --from $D/baseline.json --name cpu-ci --output "$B"
is "$rc" 0 "a clean run is promoted"
jq_ok '.schema_version == 2' "$B/cpu-ci.json" "to DIR/NAME.json, in schema 2"
is "$(as_v1 "$B/cpu-ci.json" | md5sum)" "$(as_v1 $D/baseline.json | md5sum)" \
	"the same document (a schema-1 results file is promoted)"
is "$(errline)" \
	"prof-baseline: promoted run '20261101T000000Z-ba5e' (35 samples) to '$B/cpu-ci.json'" \
	"and says so"
run prof-baseline --from $D/baseline.json --name other.json --output "$B"
ok "$([ -f "$B/other.json" ] && [ ! -e "$B/other.json.json" ]; echo $?)" \
	"a NAME ending in .json is not given another"
(cd "$T" && "$BIN/prof-baseline" --from "$ROOT/$D/baseline.json" --name x 2>/dev/null)
ok "$([ -f "$T/baselines/x.json" ]; echo $?)" "the default folder is baselines/"
"$BIN/prof-diff" --baseline "$B/cpu-ci.json" $D/baseline.json >"$T/self.json"
# Each row of the run against itself: stable, but w.zero, whose median of
# 0 ms cannot be a ratio's denominator.
is "$(jq -r '.[] | "\(.workload) \(.status)"' "$T/self.json" | sort | tr '\n' ' ')" \
	"browser.boot stable w.checksum stable w.crash stable w.gpu stable w.half stable w.stable stable w.under_floor stable w.version stable w.warning stable w.zero incomparable " \
	"prof-diff reads the baseline it wrote: each row stable, w.zero incomparable"

echo '{"old": true}' >"$B/keep.json"
# refuse FILE NAME MESSAGE TITLE: exit 1, the message, nothing written
refuse() {
	run prof-baseline --from "$1" --name "$2" --output "$B"
	is "$rc:$(errline)" "1:prof-baseline: $3" "$4"
	ok "$([ ! -e "$B/$2.json" ] || [ "$(cat "$B/$2.json")" = '{"old": true}' ]; echo $?)" \
		"nothing is written ($2)"
}
refuse $D/current.json fresh \
	"refusing '$D/current.json': the run has 1 error sample; the first, .samples[36] (w.crash, cpu): worker killed by signal 11 (SIGSEGV: Segmentation fault)" \
	"a run with an error sample is refused"
refuse $D/current.json keep \
	"refusing '$D/current.json': the run has 1 error sample; the first, .samples[36] (w.crash, cpu): worker killed by signal 11 (SIGSEGV: Segmentation fault)" \
	"and an existing baseline stays as it was"
refuse $D/empty.json fresh "refusing '$D/empty.json': the run has no samples" \
	"a run with no samples is refused"
refuse $D/gpu-fallback.json fresh \
	"refusing '$D/gpu-fallback.json': .samples[0] (w.fallback) asked for the GPU but ran on the CPU" \
	"a GPU-requested sample that ran on the CPU is refused"
refuse $D/mixed-schema.json fresh \
	"refusing '$D/mixed-schema.json': mixed schema versions: the results file is version 1, .samples[1] is version 2" \
	"mixed schema versions are refused"

for name in ../x a/b .hidden ''; do
	run prof-baseline --from $D/baseline.json --name "$name" --output "$B"
	case $name in
	../x) why="'/' at offset 2 is not allowed (letters, digits, '.', '_' and '-')" ;;
	a/b) why="'/' at offset 1 is not allowed (letters, digits, '.', '_' and '-')" ;;
	.hidden) why="starts with '.' (the first must be a letter or a digit)" ;;
	*) why=empty ;;
	esac
	is "$rc:$(errline)" \
		"2:prof-baseline: --name: '$name' is not a valid baseline name: $why" \
		"a name that is not a plain file name is a bad argument: '$name'"
done

run prof-baseline --from $D/schema-bad.json --name bad --output "$B"
is "$rc:$(errline)" \
	"2:prof-baseline: $D/schema-bad.json: .samples[2].duration_ms: expected a number, got a string" \
	"a malformed results file is exit 2 with its place"
run prof-baseline --from "$T/none.json" --name bad --output "$B"
is "$rc" 2 "a missing results file is exit 2"
ok "$([ ! -e "$B/bad.json" ]; echo $?)" "nothing is written"
run prof-baseline --name x
is "$rc:$(errline)" "2:prof-baseline: give the results file: --from RESULTS" \
	"--from is required"
run prof-baseline --from $D/baseline.json
is "$rc:$(errline)" "2:prof-baseline: give the baseline's name: --name NAME" \
	"--name is required"
finish
