#!/bin/bash
# An unsettled row is unsettled everywhere, never stable: in
# comparisons.json, summary.md (with the command that would settle it),
# the compact table, report.html (its own colour, its words and the
# command), the CI annotations, the history (trend), the dashboard and
# every export (csv, bmf, gbench, with the row's time threshold); and no
# exit code changes. Two hand-made rows: an interleaved A/A of a loaded
# machine that did not settle in its budget (issue 29's two clusters),
# and a baseline row whose calls waited for a core, their run-queue delay
# unknown, slower on wall time only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 29

col=$(sed -n 's/^#define PROF_PALETTE_UNSETTLED "\(#[0-9a-f]*\)"$/\1/p' \
	"$ROOT/src/report/palette.h")
others=$(sed -n 's/^#define PROF_PALETTE_[A-Z]* "\(#[0-9a-f]*\)"$/\1/p' \
	"$ROOT/src/report/palette.h" | sort | uniq -d)
ok "$([ -n "$col" ] && [ -z "$others" ]; echo $?)" \
	"unsettled has a colour of its own ($col), no other status's"

# The interleaved row: a template of every field prof-merge asks for.
"$BIN/prof-time" --name w --repeat 1 --max-repeat 1 -q \
	--against-command true --against-output "$T/tr.jsonl" \
	--output "$T/t.jsonl" -- true || exit 1
CUR="5.20 7.12 3.03 7.09 6.97 2.83 6.92 6.91 6.20 6.85 4.57 2.77"
REF="2.93 3.09 7.23 2.86 7.29 2.83 2.89 6.83 6.85 3.96 2.82 3.57"
side() {
	grep '"record"' "$T/t.jsonl" >"$1"
	grep -v '"record"' "$T/t.jsonl" | head -n 1 |
		jq -c --arg s "$2" --arg v "$3" '
		($v | split(" ") | map(tonumber)) as $v | . as $t |
		range(0; $v | length) as $i |
		$t | .duration_ms = $v[$i] | .index = $i |
		.warning_floor_ms = 0.5 | .time_threshold_pct = 20 |
		del(.contended, .cpu_ms, .involuntary_switches, .threads,
			.run_delay_ms, .run_delay) |
		.ab = {side: $s, slot: (2 * $i), round: ($i + 1), repeat: 3,
			max_repeat: 12}' >>"$1"
}
side "$T/c.jsonl" current "$CUR"
side "$T/r.jsonl" reference "$REF"
"$BIN/prof-merge" --run-id ab --command "make compare AGAINST=old/prof-workloads CATEGORY=test" \
	-o "$T/ab.json" "$T/c.jsonl" &&
	"$BIN/prof-merge" --run-id ab -o "$T/abref.json" "$T/r.jsonl"
run prof-diff --baseline "$T/abref.json" -o "$T/abcmp.json" "$T/ab.json"
is "$rc" 0 "prof-diff: an unsettled row changes no exit code"
jq_ok '.[0] | .status == "unsettled" and .threshold_pct == 20 and
	.interleaved.settled == false' "$T/abcmp.json" \
	"comparisons.json: unsettled, not stable"
GITHUB_ACTIONS=true run prof-report --comparisons "$T/abcmp.json" \
	--html "$T/ab.html" -o "$T/ab.md" "$T/ab.json"
is "$rc" 0 "prof-report: exit 0"
like "$(cat "$T/ab.md")" '- `w` (cpu): **unsettled**: not settled after 12 samples a side (p = 0.312)' \
	"summary.md: the row's status"
like "$(cat "$T/ab.md")" "To settle them, run: \`make compare AGAINST=old/prof-workloads CATEGORY=test MODE=full W=w\`" \
	"and the command that would settle it, its workload alone"
like "$(cat "$out")" "w cpu: not settled after 12 samples a side (p = 0.312): unsettled
to settle them: make compare AGAINST=old/prof-workloads CATEGORY=test MODE=full W=w" \
	"the compact table"
like "$(cat "$out")" "::notice title=Performance not settled::w (cpu): not settled after 12 samples a side" \
	"a CI notice, not a warning"
ok "$(grep -c '::warning' "$out")" "no CI warning"
like "$(cat "$T/ab.html")" '<span class="badge s-unsettled">unsettled</span>' \
	"report.html: its badge"
like "$(cat "$T/ab.html")" ".s-unsettled{background:var(--uns)}" \
	"in its own colour"
like "$(cat "$T/ab.html")" "--uns:$col" "which is palette.h's"
like "$(cat "$T/ab.html")" 'To settle it, run <code>make compare AGAINST=old/prof-workloads CATEGORY=test MODE=full W=w</code>.' \
	"and the command that would settle it"
like "$(cat "$T/ab.html")" '<button data-show="unsettled"' \
	"a filter button for the unsettled rows"

# The baseline row: calm baseline calls at 10 ms (their CPU time the
# same); current ones at 15 ms of wall time, contended, queued (2
# involuntary switches), 10 ms of CPU time; no run-queue delay recorded.
mkrun "$T/base.json" base c0 2026-01-01T00:00:00Z 10 10.1 10.2 10.1 10
mkrun "$T/cur.json" cur c1 2026-01-02T00:00:00Z 15 15.1 15.2 15.1 15
cpu() {
	jq --argjson q "$2" '.samples |= map(.threads = 1 |
		.cpu_ms = (if $q == 1 then 10 else .duration_ms end) |
		.involuntary_switches = (if $q == 1 then 2 else 0 end) |
		.contended = ($q == 1))' "$1" >"$1.x" && mv "$1.x" "$1"
}
cpu "$T/base.json" 0
cpu "$T/cur.json" 1
run prof-diff --baseline "$T/base.json" -o "$T/cmp.json" "$T/cur.json"
is "$rc" 0 "a baseline row: exit 0"
jq_ok '.[0] | .status == "unsettled" and .threshold_pct == 20 and
	(.reason | startswith("not settled: "))' "$T/cmp.json" \
	"calls that waited, delay unknown, CPU time the same: unsettled"
run prof-report --comparisons "$T/cmp.json" -o "$T/b.md" "$T/cur.json"
like "$(cat "$T/b.md")" "To settle them, judge it interleaved with the baseline's build (make compare REF=its commit), or run it again where the calls wait less for a core" \
	"summary.md says how to settle a baseline row"

# The history keeps it, trend gives it, the dashboard colours it.
db=$T/h.sqlite
"$BIN/prof-history" add --db "$db" "$T/base.json" 2>/dev/null
run prof-history add --db "$db" --comparisons "$T/cmp.json" "$T/cur.json"
is "$rc" 0 "prof-history add --comparisons"
run prof-history trend --db "$db"
jq_ok 'map(.status) == [null, "unsettled"] and
	(.[1].reason | contains("more than the 20% threshold"))' "$out" \
	"trend: unsettled, with the reason that names the threshold"
run prof-dashboard --db "$db" -o "$T/dash"
is "$rc" 0 "the dashboard is written"
like "$(cat "$T/dash/index.html")" \
	'<span class="v-unsettled" data-verdict="unsettled">unsettled</span>' \
	"its index shows the latest verdict, unsettled, coloured"
like "$(cat "$T/dash/index.html")" ".v-unsettled{color:$col" \
	"in the unsettled colour"
like "$(cat "$T"/dash/s-*.html)" '<circle class="pt uns"' \
	"the series page draws the run as an unsettled point"
like "$(cat "$T"/dash/s-*.html)" 'unsettled (not settled within its budget' \
	"and its legend says what that is"

# The exports.
run prof-export --format csv --comparisons "$T/cmp.json" "$T/cur.json"
is "$(head -n 1 "$out" | tr -d '\r' | awk -F, '{print $(NF-2) "," $(NF-1) "," $NF}')" \
	"status,status_reason,threshold_pct" "csv: status, reason, threshold"
is "$(sed -n 2p "$out" | tr -d '\r' | awk -F, '{print $19 ":" $NF}')" \
	"unsettled:20" "a timing sample's row: unsettled, at 20%"
run prof-export --format bmf --comparisons "$T/cmp.json" "$T/cur.json"
jq_ok '[.[][] | select(type == "object" and has("status"))] | length > 0 and
	all(.[]; .status == "unsettled" and .threshold_pct == 20)' "$out" \
	"bmf: unsettled, at 20%"
run prof-export --format gbench --comparisons "$T/cmp.json" "$T/cur.json"
jq_ok '.benchmarks | length == 5 and
	all(.[]; .status == "unsettled" and .threshold_pct == 20)' "$out" \
	"gbench: every entry unsettled, at 20%"
run prof-export --format csv --comparisons "$T/abcmp.json" "$T/ab.json"
is "$(sed -n 2p "$out" | tr -d '\r' | awk -F, '{print $19}')" unsettled \
	"an interleaved row's csv too"
finish
