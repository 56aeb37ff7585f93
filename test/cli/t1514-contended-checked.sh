#!/bin/bash
# Every reader checks a sample's contended mark against its own times
# (issue 41, item 12; the rule of contend.h): prof-merge, prof-diff and
# prof-report refuse, in one line naming the file and the JSON path (or
# the stream's line), exit 2, a sample whose mark contradicts its times,
# whose delay is above its wall time on one thread (or threads x wall),
# or whose delay is negative; a sample as prof-time wrote it, and one
# from a file older than the fields, are read as before.
. "$(dirname "$0")/lib.sh"
plan 12

run prof-time quick --workloads "$TW" --category test --repeat 2 --warmup 0 \
	--seed 3 -q -o "$T/s.jsonl"
line() { grep -n "\"workload\":\"test.ok\".*\"index\":0," "$1" | cut -d: -f1; }
# edit FILTER: the stream with test.ok's first sample edited.
edit() {
	jq -c "if .workload == \"test.ok\" and .index == 0 then $1 else . end" \
		"$T/s.jsonl" >"$T/e.jsonl"
}

# The issue's case: "contended": false with 50 ms wall and 1.2 ms of CPU,
# its delay unknown (today's rule judges it).
edit '.duration_ms = 50 | .cpu_ms = 1.2 | del(.run_delay_ms) |
	.run_delay = "unavailable" | .contended = false'
run prof-merge --run-id r1 --commit c0 -o "$T/e.json" "$T/e.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/e.jsonl:$(line "$T/e.jsonl"): .contended: false, but the call ran 1.2 ms of CPU time in 50 ms (cpu_ms, duration_ms: contended when the wall time is above CPU x 1.05 + 0.1 ms)" \
	"prof-merge: contended false, 50 ms wall in 1.2 ms CPU: exit 2, its line"
[ ! -e "$T/e.json" ]
is "$?" 0 "and writes nothing"

# The same with its delay known: 19.5 ms in the queue.
edit '.duration_ms = 50 | .cpu_ms = 30 | .run_delay_ms = 19.5 |
	del(.run_delay) | .contended = false'
run prof-merge --run-id r1 --commit c0 -o "$T/e.json" "$T/e.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/e.jsonl:$(line "$T/e.jsonl"): .contended: false, but its threads waited 19.5 ms for a core in 50 ms (run_delay_ms, duration_ms: contended above 5% of the wall time + 0.1 ms)" \
	"contended false, 19.5 ms of delay in 50 ms: refused"
edit '.duration_ms = 50 | .cpu_ms = 1.2 | .run_delay_ms = 0 |
	del(.run_delay) | .contended = true'
run prof-merge --run-id r1 --commit c0 -o "$T/e.json" "$T/e.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/e.jsonl:$(line "$T/e.jsonl"): .contended: true, but its threads waited 0 ms for a core in 50 ms (run_delay_ms, duration_ms: contended above 5% of the wall time + 0.1 ms)" \
	"and the reverse: contended true on a sleep that never waited for a core"
edit '.duration_ms = 5 | .cpu_ms = 1 | .run_delay_ms = 6 | del(.run_delay)'
run prof-merge --run-id r1 --commit c0 -o "$T/e.json" "$T/e.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/e.jsonl:$(line "$T/e.jsonl"): .run_delay_ms: 6 ms of run-queue delay in a call of 5 ms (duration_ms) on one thread" \
	"a delay above the wall time on one thread: refused"
edit '.run_delay_ms = -0.5 | del(.run_delay)'
run prof-merge --run-id r1 --commit c0 -o "$T/e.json" "$T/e.jsonl"
is "$rc:$(errline)" \
	"2:prof-merge: $T/e.jsonl:$(line "$T/e.jsonl"): .run_delay_ms: expected a number >= 0" \
	"a negative delay: refused"

# In results.json (schema 2, grouped): prof-diff and prof-report.
run prof-merge --run-id r1 --commit c0 -o "$T/r.json" "$T/s.jsonl"
is "$rc" 0 "the samples as prof-time wrote them merge"
k=$(jq '[.samples[] | .duration_ms != null] | index(true)' "$T/r.json")
jq ".samples[$k] |= (.duration_ms = 50 | .cpu_ms = 30 |
	.run_delay_ms = 19.5 | del(.run_delay) | .contended = false)" \
	"$T/r.json" >"$T/bad.json"
run prof-diff --baseline "$T/r.json" -o "$T/c.json" "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-diff: $T/bad.json: .samples[$k].contended: false, but its threads waited 19.5 ms for a core in 50 ms (run_delay_ms, duration_ms: contended above 5% of the wall time + 0.1 ms)" \
	"prof-diff: the results file and the sample's path"
run prof-report -o "$T/s.md" "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/bad.json: .samples[$k].contended: false, but its threads waited 19.5 ms for a core in 50 ms (run_delay_ms, duration_ms: contended above 5% of the wall time + 0.1 ms)" \
	"prof-report too"
jq ".samples[$k] |= (.duration_ms = 5 | .cpu_ms = 1 | .run_delay_ms = 6 |
	del(.run_delay))" "$T/r.json" >"$T/bad2.json"
run prof-report -o "$T/s.md" "$T/bad2.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/bad2.json: .samples[$k].run_delay_ms: 6 ms of run-queue delay in a call of 5 ms (duration_ms) on one thread" \
	"a delay above the wall time, its threads 1 in its group"

# Older files: no delay, no mark, or neither; the fixtures of this tree.
jq -c 'del(.run_delay_ms, .run_delay)' "$T/s.jsonl" >"$T/old.jsonl"
run prof-merge --run-id r2 --commit c0 -o "$T/old.json" "$T/old.jsonl"
is "$rc" 0 "samples without a delay, marked by today's rule, are read"
bad=
for f in baselines/*.json test/data/results/*.json; do
	[ -e "$f" ] || continue
	if ! "$BIN/prof-report" -o "$T/f.md" "$f" >/dev/null 2>"$T/f.err" &&
		grep -q 'contended\|run_delay' "$T/f.err"; then
		bad="$bad $f"
	fi
done
is "$bad" "" "no fixture or baseline of this tree is refused for its marks"
finish
