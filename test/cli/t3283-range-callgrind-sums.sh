#!/bin/bash
# Costs read from a callgrind file are range-checked and summed with an
# overflow check, and totals: must be the sum of the cost lines (issue 28,
# item 2): two costs near INT64_MAX wrapped into a negative self cost
# (-2,616), exit 0, and a file whose totals: said 1000 while its
# functions held 2000 explained a change that it denied.
. "$(dirname "$0")/lib.sh"
plan 8

dump() { # FILE TOTALS COST-LINES...: a callgrind file of function main
	local f=$1 t=$2
	shift 2
	{
		printf '# callgrind format\nversion: 1\npositions: line\n'
		printf 'events: Ir\nsummary: %s\n\nfl=(1) main.c\nfn=(1) main\n' "$t"
		printf '%s\n' "$@"
		printf '\ntotals: %s\n' "$t"
	} >"$f"
}
dump "$T/base.out" 1000 "1 1000"
dump "$T/over.out" 1000 "1 9223372036854775000" "2 9223372036854775000"
run prof-why "$T/base.out" "$T/over.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/over.out:10: the self cost of 'main' adds up to more than 9223372036854775807" \
	"a self cost that overflows 64 bits is refused with its line"
is "$(cat "$out")" "" "and no negative count is printed"

dump "$T/big.out" 1000 "1 99999999999999999999"
run prof-why --json "$T/base.out" "$T/big.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/big.out:9: a cost 99999999999999999999 is out of range (expected a whole number from 0 to 9223372036854775807)" \
	"a cost beyond 64 bits is named with the range"

{
	printf '# callgrind format\nversion: 1\npositions: line\nevents: Ir\n'
	printf 'fl=(1) main.c\nfn=(1) main\n1 10\ncfn=(2) work\ncalls=1 5\n'
	printf '1 9223372036854775000\ncfn=(2)\ncalls=1 5\n'
	printf '1 9223372036854775000\nfn=(2)\n5 0\ntotals: 10\n'
} >"$T/calls.out"
run prof-why "$T/base.out" "$T/calls.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/calls.out:13: the cost of the calls of 'main' to 'work' adds up to more than 9223372036854775807" \
	"the cost of calls that overflows"

dump "$T/lie.out" 1000 "1 500" "fn=(2) grow" "1 1500"
run prof-why "$T/base.out" "$T/lie.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/lie.out:13: totals: says 1000, but the file's cost lines add up to 2000" \
	"a totals: that is not the sum of the functions is refused"
{
	printf '# callgrind format\nversion: 1\npositions: line\nevents: Ir\n'
	printf 'summary: 7\nfl=(1) main.c\nfn=(1) main\n1 5\n'
} >"$T/summary.out"
run prof-why "$T/base.out" "$T/summary.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/summary.out:5: summary: says 7, but the file's cost lines add up to 5" \
	"so is a summary: without totals:"
printf '# callgrind format\nversion: 1\nevents: Ir\ntotals: 18446744073709551616\n' \
	>"$T/tot.out"
run prof-why "$T/base.out" "$T/tot.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/tot.out:4: totals: 18446744073709551616 is out of range (expected a whole number from 0 to 9223372036854775807)" \
	"a totals: beyond 64 bits"
dump "$T/ok.out" 1200 "1 1000" "fn=(2) grow" "1 200"
run prof-why --json "$T/base.out" "$T/ok.out"
jq_ok '.total_after == 1200 and .functions[0].name == "grow" and
	.functions[0].self_after == 200' "$out" "a file that adds up is explained"
finish
