#!/bin/bash
# Interleaved verdicts that the load cannot move (issue 29), end to end on
# hand-made A/B samples: the two-cluster A/A of a loaded machine is
# unsettled and says so, with its p and samples a side; summary.md
# and the compact table list it with the command that would settle it;
# the same clusters 30% slower are a warning, judged on the uncontended
# samples; a baseline row whose samples were mostly contended says so in
# its own line, and one whose calls waited in the queue is a warning only
# where its CPU times say so too. The samples record a time threshold of
# 20% and no run-queue delay (the rule on wall time; on own time:
# lib-verdict-own). The rule itself: lib-verdict-seq.
. "$(dirname "$0")/lib.sh"
plan 25

# A template sample (every field prof-merge asks for) and its records.
"$BIN/prof-time" --name w --repeat 1 --max-repeat 1 -q \
	--against-command true --against-output "$T/tr.jsonl" \
	--output "$T/t.jsonl" -- true || exit 1

CUR="5.20 7.12 3.03 7.09 6.97 2.83 6.92 6.91 6.20 6.85 4.57 2.77"
REF="2.93 3.09 7.23 2.86 7.29 2.83 2.89 6.83 6.85 3.96 2.82 3.57"

# side FILE SIDE REPEAT MAX MARKS SCALE CYCLES VALUES...: one side's
# samples, the values times SCALE, CYCLES times over (each cycle a little
# apart, so that no two tie); MARKS 1: a value above 3.5 ms (before
# scaling) is contended; REPEAT 0: no "ab" (a baseline run). The
# template's CPU time and run-queue delay go: the marks are made by hand.
side() {
	local f=$1 s=$2 rp=$3 mx=$4 marks=$5 scale=$6 cycles=$7
	shift 7
	grep '"record"' "$T/t.jsonl" >"$f"
	grep -v '"record"' "$T/t.jsonl" | head -n 1 |
		jq -c --arg s "$s" --argjson rp "$rp" --argjson mx "$mx" \
			--argjson marks "$marks" --argjson scale "$scale" \
			--argjson cycles "$cycles" --arg v "$*" '
		($v | split(" ") | map(tonumber)) as $v |
		. as $t | range(0; $cycles) as $c | range(0; $v | length) as $k |
		(($c * ($v | length)) + $k) as $i |
		$t | .duration_ms = ($v[$k] * [1, 1.003, 0.997][$c] * $scale |
			. * 1e6 | round / 1e6) |
		.index = $i | .warning_floor_ms = 0.5 |
		.time_threshold_pct = 20 | del(.cpu_ms, .run_delay_ms, .run_delay) |
		(if $marks == 1 then .contended = ($v[$k] > 3.5) else
			del(.contended) end) |
		(if $rp > 0 then .ab = {side: $s, slot: (2 * $i), round: ($i + 1),
			repeat: $rp, max_repeat: $mx} else del(.ab) end)' >>"$f"
}

# judge COMMAND: merge both sides, compare, report.
judge() {
	"$BIN/prof-merge" --run-id ab --command "$1" -o "$T/cur.json" \
		"$T/c.jsonl" &&
		"$BIN/prof-merge" --run-id ab -o "$T/ref.json" "$T/r.jsonl" &&
		"$BIN/prof-diff" --baseline "$T/ref.json" -o "$T/cmp.json" \
			"$T/cur.json" &&
		"$BIN/prof-report" --comparisons "$T/cmp.json" \
			--html "$T/report.html" -o "$T/summary.md" \
			"$T/cur.json" >"$T/table.txt"
}

# The issue's A/A, as make compare took it (quick: 3 a side, up to 12).
side "$T/c.jsonl" current 3 12 0 1 1 $CUR
side "$T/r.jsonl" reference 3 12 0 1 1 $REF
judge "make compare AGAINST=old/prof-workloads"
is "$?" 0 "the two-cluster A/A merges, compares and reports"
jq_ok '.[0] | .status == "unsettled" and .interleaved.settled == false and
	.interleaved.samples_a_side == 12 and .contended.current == 0 and
	.threshold_pct == 20' \
	"$T/cmp.json" "the two-cluster A/A (+95.9% by median) is unsettled, at the 20% its samples record"
is "$(jq -r '.[0].reason' "$T/cmp.json")" \
	"not settled after 12 samples a side (p = 0.312): median 95.9% slower (+3.195 ms >= floor 0.5 ms), more than the 20% threshold, 9 of 12 samples above the baseline median; ratio 0.776 to 2.098 (99.2%)" \
	"its reason says it did not settle, with the p and the samples a side"
like "$(cat "$T/summary.md")" "Unsettled (the evidence did not settle within the budget: neither warning, improved nor stable):

- \`w\` (cpu): 12 samples a side, p = 0.312

To settle them, run: \`make compare AGAINST=old/prof-workloads MODE=full W=w\`" \
	"summary.md lists it, with the command that would settle it (its workload alone: the quick run's selection kept)"
like "$(cat "$T/table.txt")" "w cpu: not settled after 12 samples a side (p = 0.312): unsettled
to settle them: make compare AGAINST=old/prof-workloads MODE=full W=w" \
	"and so does the compact table"
like "$(cat "$T/report.html")" "not settled after 12 samples a side (p = 0.312): median 95.9% slower" \
	"report.html prints the reason"

# The same with contended marks: still unsettled, and the row says that
# its samples were mostly contended.
side "$T/c.jsonl" current 3 12 1 1 1 $CUR
side "$T/r.jsonl" reference 3 12 1 1 1 $REF
judge "make compare REF=main"
jq_ok '.[0] | .status == "unsettled" and .contended == {current: 9, baseline: 6}' \
	"$T/cmp.json" "marked: unsettled, 9 and 6 contended"
like "$(jq -r '.[0].reason' "$T/cmp.json")" \
	"; 9 of 12 current samples contended (their calls did not run for part of their time): the machine may have been busy" \
	"the reason says the current samples were mostly contended"
like "$(cat "$T/table.txt")" "w cpu: 9 of 12 current samples contended: the machine may have been busy" \
	"the compact table says it in the row's own line"

# A full make compare that did not settle: a larger REPEAT.
side "$T/c.jsonl" current 10 40 0 1 1 $CUR
side "$T/r.jsonl" reference 10 40 0 1 1 $REF
judge "make compare REF=main MODE=full OUTPUT=runs/a"
like "$(cat "$T/summary.md")" "To settle them, run: \`make compare REF=main MODE=full REPEAT=20 W=w\`" \
	"a full compare: MODE=full REPEAT=20 (budget 80), in a new run folder"
judge "make compare REF=main CATEGORY=\"a b\" W=\"w x*\" OUTPUT=runs/a"
like "$(cat "$T/summary.md")" "To settle them, run: \`make compare REF=main CATEGORY=\"a b\" MODE=full REPEAT=20 W=w\`" \
	"the run's own W= (quoted) gives way to the unsettled rows', its CATEGORY kept"
judge "prof-time full --workloads new/w --against old/w --max-repeat 40"
like "$(cat "$T/summary.md")" "To settle them, run: \`prof-time full --workloads new/w --against old/w --max-repeat 80\`" \
	"a prof-time run: twice its --max-repeat"
judge ""
like "$(cat "$T/summary.md")" "To settle them, run: \`a larger budget: prof-time --max-repeat 80 (it was 40), or make compare with MODE=full or a larger REPEAT\`" \
	"no command known: what to raise"

# The same clusters, three rounds of them, 30% slower on the current
# side, either side drawing more from the slow cluster: a warning, on
# the uncontended samples.
side "$T/c.jsonl" current 12 36 1 1.3 3 $CUR
side "$T/r.jsonl" reference 12 36 1 1 3 $REF
judge "make compare REF=main MODE=full"
jq_ok '.[0] | .status == "warning" and .interleaved.settled and
	.interleaved.uncontended_only' "$T/cmp.json" \
	"+30%, the current side more often slow: warning"
like "$(jq -r '.[0].reason' "$T/cmp.json")" \
	"samples above the baseline median; settled after 24 rounds: ratio 1.229 to 1.377 (99.0%) on the 6 and 12 uncontended samples" \
	"judged on the uncontended samples, and settled"
ok "$(grep -c '^Unsettled' "$T/summary.md")" "a settled row is not listed as unsettled"
side "$T/c.jsonl" current 12 36 1 1.3 3 $REF
side "$T/r.jsonl" reference 12 36 1 1 3 $CUR
judge "make compare REF=main MODE=full"
jq_ok '.[0].status == "warning"' "$T/cmp.json" \
	"+30%, the reference side more often slow: warning too"
side "$T/c.jsonl" current 12 36 1 0.77 3 $REF
side "$T/r.jsonl" reference 12 36 1 1 3 $CUR
judge "make compare REF=main MODE=full"
jq_ok '.[0].status == "improved"' "$T/cmp.json" "-23%: improved"

# Every call waited (wall three times the issue's): the CPU time of the
# one-threaded calls, 30% apart, settles it, the wall time's paired
# interval lying above 1 too.
side "$T/c.jsonl" current 12 36 1 3.9 3 $CUR
side "$T/r.jsonl" reference 12 36 1 3 3 $REF
for f in c r; do
	jq -c --argjson k "$([ $f = c ] && echo 1.3 || echo 1)" \
		'if .duration_ms then .contended = true | .threads = 1 |
		.cpu_ms = (2.8 * $k * (1 + 0.01 * (.index % 3)) * 1e6 | round / 1e6)
		else . end' "$T/$f.jsonl" >"$T/$f.x" && mv "$T/$f.x" "$T/$f.jsonl"
done
judge "make compare REF=main MODE=full"
jq_ok '.[0] | .status == "warning" and .interleaved.judged_on == "cpu_ms" and
	.interleaved.wall_ratio_low > 1' "$T/cmp.json" \
	"every call contended, CPU time +30%: a warning on the CPU time"
like "$(jq -r '.[0].reason' "$T/cmp.json")" "CPU time median 30.0% slower (+0.848 ms >= floor 0.5 ms), more than the 20% threshold, 12 of 12 samples above the baseline median; settled after 12 rounds: CPU time ratio 1.300 to 1.300 (99.0%), wall time 1.071 to 2.692: the same side of 1" \
	"whose reason says it was judged on the CPU time"

# The baseline path: the seed's rule, where calls that waited in the
# queue keep a warning only when their CPU times say the same
# (judge_queue()). One thread's CPU time, 2 ms a call on both sides
# first, then 3 ms on the current side.
side "$T/c.jsonl" current 0 0 1 1.5 1 $CUR
side "$T/r.jsonl" reference 0 0 0 1 1 $CUR
# cpu FILE MS: one thread's CPU time of MS a call, every call contended
# by it (wall above CPU), the ones marked queued (2 involuntary
# switches), the others slept; their run-queue delay unknown ("run_delay":
# "unavailable", a kernel without schedstat): judge_queue() is the rule
# where it is (where it is known, the rule judges own time:
# lib-verdict-own).
cpu() {
	jq -c --argjson ms "$2" 'if .duration_ms then .threads = 1 |
		.cpu_ms = $ms | .involuntary_switches =
		(if .contended then 2 else 0 end) | .contended = true |
		del(.run_delay_ms) | .run_delay = "unavailable"
		else . end' "$1" >"$1.x" &&
		mv "$1.x" "$1"
}
cpu "$T/c.jsonl" 2
cpu "$T/r.jsonl" 2
judge "make profile-quick"
jq_ok '.[0] | .status == "unsettled" and .interleaved == null' "$T/cmp.json" \
	"against a baseline, queued calls 50% slower on wall time, CPU time the same: unsettled"
is "$(jq -r '.[0].reason' "$T/cmp.json")" \
	"not settled: median 50.0% slower (+3.263 ms >= floor 0.5 ms), more than the 20% threshold, 9 of 12 samples above the baseline median, but the CPU time's median 2.000 ms against 2.000 ms (+0.0%, +0.000 ms) does not say so: calls waited for a core; 12 of 12 current samples contended (their calls did not run for part of their time): the machine may have been busy" \
	"whose reason says it did not settle, with the CPU medians"
cpu "$T/c.jsonl" 3
judge "make profile-quick"
jq_ok '.[0] | .status == "warning" and .interleaved == null' "$T/cmp.json" \
	"the same with the CPU time 50% slower too: the seed's rule, a warning"
is "$(jq -r '.[0].reason' "$T/cmp.json")" \
	"median 50.0% slower (+3.263 ms >= floor 0.5 ms), more than the 20% threshold, 9 of 12 samples above the baseline median; 12 of 12 current samples contended (their calls did not run for part of their time): the machine may have been busy" \
	"whose reason says its samples were mostly contended"
like "$(grep '^- `w`' "$T/summary.md")" "**warning**: median 50.0% slower" \
	"summary.md prints it on the row's line"
