#!/bin/bash
# A profile's unit is part of its identity (issue 28, item 2): one dump of
# events: Ir and one of events: Hits (CPU samples, pprof --callgrind) were
# subtracted, "samples 1000 -> 100 (-90%)", exit 0. They are refused.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 5

printf '%s\n' '# callgrind format' 'version: 1' 'events: Ir' 'fl=(1) a.c' \
	'fn=(1) f' '1 1000' 'totals: 1000' >"$T/ir.out"
printf '%s\n' 'events: Hits' 'fl=(1) a.c' 'fn=(1) f' '1 100' >"$T/hits.out"
run prof-why "$T/ir.out" "$T/hits.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/hits.out: counts Hits, but the profile before counts Ir: profiles of different units are not compared" \
	"Ir against Hits is refused, exit 2"
is "$(cat "$out")" "" "and nothing is printed"
run prof-why --json "$T/hits.out" "$T/ir.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/ir.out: counts Ir, but the profile before counts Hits: profiles of different units are not compared" \
	"so is Hits against Ir"
run prof-why --json "$T/hits.out" "$T/hits.out"
jq_ok '.total_before == 100 and .total_after == 100' "$out" \
	"Hits against Hits is compared"

# The same through --comparisons --time: a reference of samples, a current
# side of instructions.
P=$T/p
mkdir -p "$P/time/reference" "$P/time/current"
cp "$T/hits.out" "$P/time/reference/test.step.cpu.callgrind"
cp "$T/ir.out" "$P/time/current/test.step.cpu.callgrind"
echo "1 1000" >"$P/time/reference/test.step.cpu.calls"
echo "1 1000" >"$P/time/current/test.step.cpu.calls"
mkrun "$P/baseline.json" run-b c1 2026-02-01T00:00:00Z 10 10 10 10 10
mkrun "$P/results.json" run-c c2 2026-02-02T00:00:00Z 20 20 20 20 20
"$BIN/prof-diff" --baseline "$P/baseline.json" -o "$P/cmp.json" \
	"$P/results.json"
run prof-why --comparisons "$P/cmp.json" --time "$P/time" -o "$P/out.json"
is "$rc:$(errline)" \
	"2:prof-why: $P/time/current/test.step.cpu.callgrind: counts Ir, but the profile before counts Hits: profiles of different units are not compared" \
	"and through --comparisons --time"
finish
