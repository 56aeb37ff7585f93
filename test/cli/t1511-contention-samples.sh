#!/bin/bash
# Contention in every sample (issues 29 and 40): each timing sample of a
# real run carries the call's CPU time, involuntary switches, threads and
# run-queue delay beside its wall time, and the contended mark of
# contend.h; a call that sleeps keeps its sleep as its own time whatever
# the machine's load. No wall-time threshold: the waits are sleeps, and
# the bounds checked are CPU <= wall on one thread, delay <= wall on each
# thread, and delay <= wall - sleep. t1513 measures the delay itself.
. "$(dirname "$0")/lib.sh"
plan 20

W=$BIN/prof-workloads
fields='.cpu_ms >= 0 and (.involuntary_switches | type == "number" and
	floor == .) and .involuntary_switches >= 0 and .threads >= 1 and
	(.contended | type == "boolean") and
	(if .run_delay == "unavailable" then (has("run_delay_ms") | not) else
	.run_delay_ms >= 0 and
	.run_delay_ms <= .threads * (.duration_ms * 1.005 + 0.01) end)'
# The rule of contend.h on a sample's own fields: the delay where it is
# known, today's rule where not (or where the delay is partial).
rule='(if has("run_delay_ms") then .run_delay_ms > .duration_ms * 0.05 + 0.1
	else false end) or ((has("run_delay_ms") | not) or
	.run_delay == "partial") and (.duration_ms > .cpu_ms * 1.05 + 0.1)'

# Real workloads: the quick single-threaded primitive and the server
# round trips, which run a server thread in the same process.
run prof-time quick --workloads "$W" --category primitive --category server \
	--repeat 3 --warmup 1 --seed 5 -q -o "$T/q.jsonl"
is "$rc" 0 "a quick run of real workloads is exit 0"
jq_ok -s "[.[] | select(.phase == \"timing\")] | length == 9 and
	all(.[]; $fields)" "$T/q.jsonl" \
	"every timing sample has cpu_ms, involuntary_switches, threads, contended"
jq_ok -s '[.[] | select(.threads == 1)] | length == 3 and
	all(.[]; .cpu_ms <= .duration_ms)' "$T/q.jsonl" \
	"on one thread the CPU time is never above the wall time"
jq_ok -s '[.[] | select(.category == "server")] | length == 6 and
	all(.[]; .threads == 2)' "$T/q.jsonl" \
	"the server round trips say 2 threads (client and server)"
jq_ok -s "[.[] | select(.phase == \"timing\")] | all(.[]; .contended == ($rule))" \
	"$T/q.jsonl" "the mark is the rule of contend.h on the sample's fields"
"$W" --list >"$T/list.jsonl"
jq_ok -s 'map({(.id): .threads}) | add | ."server.plan_roundtrip" == 2 and
	."primitive.greedy_path_order" == 1' "$T/list.jsonl" \
	"--list says each workload's threads"

# A worker whose call sleeps 5 ms: the sleep is no run-queue delay, on
# any machine; the mark follows the delay. (Linux's count can run ahead
# of the truth: once in some hundreds of calls under load 18 it held part
# of a sleep, so two calls of three must show it, not all.)
run prof-time full --workloads "$TW" --category waits --category threads \
	--repeat 3 --warmup 0 --seed 5 -q -o "$T/w.jsonl"
jq_ok -s '[.[] | select(.workload == "test.waits")] | length == 3 and
	all(.[]; .threads == 1 and .cpu_ms < .duration_ms) and
	(map(select(.run_delay_ms <= .duration_ms - 5)) | length >= 2)' \
	"$T/w.jsonl" \
	"a call that slept 5 ms waited for a core at most its wall time less 5 ms"
jq_ok -s "[.[] | select(.phase == \"timing\")] | all(.[]; $fields and
	.contended == ($rule))" "$T/w.jsonl" \
	"its mark, and the two threads', is the rule on their fields"
jq_ok -s '[.[] | select(.workload == "test.two_threads")] | length == 3 and
	all(.[]; .threads == 2 and .cpu_ms > 0 and .run_delay == "partial")' \
	"$T/w.jsonl" \
	"a workload that runs two threads says so; one ends inside the call: its delay is partial"

# Commands: the child's rusage (wait4) and its delay (read before it is
# reaped); sleep's 50 ms are no delay.
run prof-time --name c.sleep --repeat 3 -q -o "$T/c.jsonl" -- sleep 0.05
jq_ok -s "length == 3 and all(.[]; $fields and .contended == ($rule) and
	.cpu_ms < .duration_ms and .cpu_ms == ((.metrics.user_ms +
	.metrics.system_ms) * 1e6 | round / 1e6)) and
	(map(select(.run_delay_ms <= .duration_ms - 50)) | length >= 2)" \
	"$T/c.jsonl" \
	"a command sample has the fields, its CPU time is user + system"
jq_ok -s 'all(.[]; .threads >= 1)' "$T/c.jsonl" \
	"a command's threads are the online CPUs (at least 1)"

# Interleaved A/B: both sides, workloads and commands.
run prof-time quick --workloads "$TBIN/prof-ab-b" --against "$TBIN/prof-ab-a" \
	--repeat 2 --max-repeat 2 --seed 3 -q -o "$T/b.jsonl" \
	--against-output "$T/a.jsonl"
jq_ok -s "[.[] | select(.phase == \"timing\")] | length > 0 and
	all(.[]; $fields)" "$T/a.jsonl" "A/B: the reference side's samples have them"
jq_ok -s "[.[] | select(.phase == \"timing\")] | length > 0 and
	all(.[]; $fields)" "$T/b.jsonl" "and the current side's"
run prof-time --name c.ab --repeat 2 --max-repeat 2 --seed 3 -q \
	--against-command 'sleep 0.01' --against-output "$T/ca.jsonl" \
	-o "$T/cb.jsonl" -- sleep 0.01
jq_ok -s "length == 2 and all(.[]; $fields and .contended == ($rule))" \
	"$T/ca.jsonl" "A/B commands: each side's samples too"

# Results keep them per sample, schema 2 and grouped.
run prof-merge --run-id r1 --commit c0 -o "$T/r.json" "$T/q.jsonl" "$T/c.jsonl"
is "$rc" 0 "prof-merge takes them"
jq_ok "[.samples[] | select(.phase == \"timing\")] | length == 12 and
	all(.[]; $fields)" "$T/r.json" "results.json keeps them in every sample"

# A reader refuses a CPU time above the wall time on one thread, and a
# file without the fields is read as before.
jq -c 'if .workload == "test.waits" and .index == 0 then
	.cpu_ms = .duration_ms * 2 + 1 else . end' "$T/w.jsonl" >"$T/bad.jsonl"
line=$(grep -n '"test.waits".*"index":0,' "$T/bad.jsonl" | cut -d: -f1)
run prof-merge --run-id r2 --commit c0 -o "$T/bad.json" "$T/bad.jsonl"
is "$rc:$(errline | sed 's/cpu_ms: [0-9.e+-]* ms/cpu_ms: N ms/; s/call of [0-9.e+-]* ms/call of N ms/')" \
	"2:prof-merge: $T/bad.jsonl:$line: .cpu_ms: N ms of CPU time in a call of N ms (duration_ms) on one thread" \
	"CPU time above the wall time on one thread: exit 2, the place named"
# In results.json threads is its group's: the bound is checked at the join.
run prof-merge --run-id r4 --commit c0 -o "$T/w.json" "$T/w.jsonl"
jq_raw '[.groups[] | select(.workload == "test.two_threads") | .threads] ==
	[2] and all(.samples[]; has("threads") | not)' "$T/w.json" \
	"a group holds its workload's threads, once"
g=$(jq -r '.groups | to_entries[] | select(.value.workload == "test.waits")
	| .key' "$T/w.json")
k=$(jq --arg g "$g" '[.samples[].group_id == $g] | index(true)' "$T/w.json")
jq ".samples[$k].cpu_ms = 100" "$T/w.json" >"$T/badr.json"
run prof-report -o "$T/r.md" "$T/badr.json"
is "$rc:$(errline | sed 's/call of [0-9.e+-]* ms/call of N ms/')" \
	"2:prof-report: $T/badr.json: .samples[$k].cpu_ms: 100 ms of CPU time in a call of N ms (duration_ms) on one thread" \
	"results.json: a group's threads 1 bounds its samples' CPU time"
jq -c 'del(.cpu_ms, .involuntary_switches, .threads, .contended,
	.run_delay_ms, .run_delay)' "$T/w.jsonl" >"$T/old.jsonl"
run prof-merge --run-id r3 --commit c0 -o "$T/old.json" "$T/old.jsonl"
is "$rc" 0 "samples without the fields (older files) are read as before"
finish
