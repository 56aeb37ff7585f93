#!/bin/bash
# The CALLS HZ file beside a CPU profile is range-checked, and a bad one is
# named, its own path and line (issue 28, item 2): "1e-300 100" scaled
# every cost by infinity and wrote total_after -9223372036854776000 into
# comparisons.json, exit 0; a malformed file was reported as "no '.calls'
# file beside the profiles", with the other side's path.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 8

P=$T/p
mkdir -p "$P/time/reference" "$P/time/current"
cp test/data/why/before.out "$P/time/reference/test.step.cpu.callgrind"
cp test/data/why/half-after.out "$P/time/current/test.step.cpu.callgrind"
mkrun "$P/baseline.json" run-b c1 2026-02-01T00:00:00Z 10 10 10 10 10
mkrun "$P/results.json" run-c c2 2026-02-02T00:00:00Z 20 20 20 20 20
"$BIN/prof-diff" --baseline "$P/baseline.json" -o "$P/cmp.json" \
	"$P/results.json"
why() { # REFERENCE-CALLS CURRENT-CALLS: prof-why --time with those files
	printf '%s\n' "$1" >"$P/time/reference/test.step.cpu.calls"
	printf '%s\n' "$2" >"$P/time/current/test.step.cpu.calls"
	run prof-why --comparisons "$P/cmp.json" --time "$P/time" \
		-o "$P/out.json"
}
C=$P/time/current/test.step.cpu.calls
R=$P/time/reference/test.step.cpu.calls
why "2 1000" "1e-300 100"
is "$rc:$(errline)" \
	"2:prof-why: $C:1: CALLS 1e-300 is out of range (expected from 1 to 1e+12)" \
	"CALLS of 1e-300 is refused with its range, the current side's file"
ok "$([ ! -e "$P/out.json" ]; echo $?)" "and nothing is written"
why "2 1000" "1 0"
is "$rc:$(errline)" \
	"2:prof-why: $C:1: HZ 0 is out of range (expected from 1 to 1e+06)" \
	"a frequency of 0"
why "2 abc" "1 1000"
is "$rc:$(errline)" \
	"2:prof-why: $R:1: expected CALLS HZ (the calls the profile covers, the profiler's frequency), two numbers" \
	"a malformed file is named, the reference side's"
why "2 1000 7" "1 1000"
is "$rc:$(errline)" \
	"2:prof-why: $R:1: expected CALLS HZ (the calls the profile covers, the profiler's frequency), two numbers" \
	"and so is one with more than two numbers"
rm -f "$C"
printf '2 1000\n' >"$R"
run prof-why --comparisons "$P/cmp.json" --time "$P/time" -o "$P/out.json"
is "$rc:$(errline)" \
	"2:prof-why: $C: cannot read the CALLS HZ file beside the CPU profile: No such file or directory" \
	"a missing file is named, the current side's"
printf '%s\n' '# callgrind format' 'version: 1' 'events: Ir' 'fl=(1) a.c' \
	'fn=(1) f' '1 9000000000000000000' 'totals: 9000000000000000000' \
	>"$P/time/current/test.step.cpu.callgrind"
why "2 1000" "1 1"
is "$rc:$(errline)" \
	"2:prof-why: $C:1: a self cost 9000000000000000000 times 1e+09 is out of range (expected at most 9223372036854775807)" \
	"a cost per call beyond 64 bits"
cp test/data/why/half-after.out "$P/time/current/test.step.cpu.callgrind"
why "2 1000" "1 1000"
jq_ok '.[0].time_artifacts.total_after == 850000000 and
	.[0].time_functions[0].name == "work"' "$P/out.json" \
	"good files: nanoseconds per call"
finish
