#!/bin/bash
# prof-history list, trend and changes on a terminal: an aligned table
# (times in the unit their size asks for, counts grouped, the columns no
# row fills left out, changes' bisect lines under it); JSON with --json,
# and JSON whenever stdout is not a terminal, byte for byte as --json
# gives it. The terminal is a pseudo-terminal of script(1) (util-linux).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
command -v script >/dev/null 2>&1 ||
	skip_all "script(1) is not installed (util-linux)"
plan 14

# tty ARGS...: prof-history ARGS on a pseudo-terminal; its output (less
# the terminal's carriage returns) into $out, its exit status into $rc.
tty() {
	local cmd q a
	cmd=$(printf '%q ' "$BIN/prof-history" "$@")
	script -qec "$cmd" /dev/null </dev/null >"$out.tty" 2>&1
	rc=$?
	tr -d '\r' <"$out.tty" >"$out"
}

db=$T/h.sqlite
mkhistory "$db"

tty list --db "$db"
is "$rc:$(cat "$out")" "0:run    commit        timestamp (UTC)       rows  command
run-1  000000000000  2026-03-01T10:00:00Z     6  hand-made
run-2  000000000000  2026-03-02T10:00:00Z     6  hand-made
run-3  000000000000  2026-03-03T10:00:00Z     6  hand-made
run-4  000000000000  2026-03-04T10:00:00Z     6  hand-made
run-5  000000000000  2026-03-05T10:00:00Z     6  hand-made
run-6  000000000000  2026-03-06T10:00:00Z     6  hand-made
run-7  777777777777  2026-03-07T10:00:00Z     6  hand-made
run-8  777777777777  2026-03-08T10:00:00Z     6  hand-made" \
	"list on a terminal: a table, the commits cut to 12 digits"

tty trend --db "$db" --workload test.gb
is "$rc:$(head -n 3 "$out")" "0:run    commit        workload  backend  segment   n     median        p90  status
run-1  000000000000  test.gb   cpu      e1bd2e3a  3  16.000 ns  17.000 ns  incomparable
run-2  000000000000  test.gb   cpu      e1bd2e3a  3  16.000 ns  17.000 ns  stable" \
	"trend: nanoseconds in ns, no instructions or heap column where none was measured"
is "$(wc -l <"$out")" 9 "(a header and a line a run)"
tty trend --db "$db" --workload pipeline.a_workload_with_a_rather_long_descriptive_name --segment e1bd
is "$(sed -n 2p "$out")" "run-1  000000000000  pipeline.a_workload_with_a_rather_long_descriptive_name  cpu      e1bd2e3a  3  12.100 µs  12.200 µs  incomparable" \
	"microseconds in µs, the long name whole"
tty trend --db "$db" --workload test.late
is "$(tail -n 1 "$out")" "run-8  777777777777  test.late  cpu      e1bd2e3a  3  30.100 ms  30.200 ms  warning" \
	"milliseconds in ms, with the row's status"

tty changes --db "$db"
is "$rc:$(cat "$out")" "0:workload   backend  segment   metric  commits                        before      after  change   runs  status
test.step  cpu      e1bd2e3a  time    000000000000..000000000000  10.100 ms  14.100 ms  +39.6%  4 + 4  stable -> warning

to find the commit:
  test.step (time): make bisect GOOD=0000000000000000000000000000000000000004 BAD=0000000000000000000000000000000000000005 W=test.step" \
	"changes: a table, then the line that finds each change's commit"

# Counts grouped: a run counted as well as timed, against a baseline.
counted() {
	local file=$1 run=$2 count=$3
	shift 3
	mkrun "$file.t" "$run" "c$run" 2026-02-01T00:00:00Z "$@"
	jq --argjson count "$count" '
	(.samples[0] | .env.valgrind = "valgrind-3.19.0" |
	 .segment = (.segment | fromjson | .valgrind = "valgrind-3.19.0" |
	 tojson) | .phase = "instructions" | .index = 0 |
	 .count_threshold_pct = 1 | .duration_ms = 900) as $c |
	.samples += [($c | .instructions = $count)]' "$file.t" >"$file"
}
counted "$T/a.json" a 1000000 1100 1110 1120
counted "$T/b.json" b 1470000 1100 1110 1120
"$BIN/prof-diff" --baseline "$T/a.json" -o "$T/b.cmp" "$T/b.json" &&
	"$BIN/prof-history" add --db "$T/c.sqlite" "$T/a.json" 2>/dev/null &&
	"$BIN/prof-history" add --db "$T/c.sqlite" --comparisons "$T/b.cmp" \
		"$T/b.json" 2>/dev/null
tty trend --db "$T/c.sqlite"
is "$rc:$(cat "$out")" "0:run  commit  workload   backend  segment   n   median      p90  instructions  status
a    ca      test.step  cpu      3dcdce33  0        -        -     1,000,000  -
a    ca      test.step  cpu      e1bd2e3a  3  1.110 s  1.120 s             -  -
b    cb      test.step  cpu      3dcdce33  0        -        -     1,470,000  warning
b    cb      test.step  cpu      e1bd2e3a  3  1.110 s  1.120 s             -  stable" \
	"trend: counts grouped, seconds in s, a row's missing values as -"

# JSON: with --json on a terminal, and without it where stdout is not one.
for c in list trend changes; do
	"$BIN/prof-history" $c --db "$db" >"$T/$c.pipe" 2>"$err"
	tty $c --db "$db" --json
	cmp -s "$out" "$T/$c.pipe"
	ok $? "$c --json on a terminal: the JSON a pipe gets, byte for byte"
done
jq_ok 'length == 8 and .[0].run_id == "run-1"' "$T/list.pipe" \
	"not a terminal: JSON, as before"
jq_ok 'length == 48 and (.[0] | has("median"))' "$T/trend.pipe" \
	"(trend's)"

mkrun "$T/e.json" e ce 2026-01-01T00:00:00Z 1
"$BIN/prof-history" add --db "$T/e.sqlite" "$T/e.json" 2>/dev/null
tty changes --db "$T/e.sqlite"
is "$rc:$(cat "$out")" "0:no change points" "no change points: said in words"

tty add --db "$db" --json "$T/e.json"
is "$rc:$(cat "$out")" "2:prof-history: --json is an option of list, trend and changes" \
	"--json of another command: refused"
finish
