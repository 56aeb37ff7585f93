#!/bin/bash
# A changed memory row whose two DHAT outputs show no site that changed
# (an RSS peak that moved while run() allocates nothing, or the same
# sites on both sides) gets the one line that says so, as the row's
# memory_sites_note, in summary.md under the row: it said nothing, an
# empty list and no line.
. "$(dirname "$0")/lib.sh"
plan 6

D=test/data/dhat
for i in 1 2; do
	"$BIN/prof-mem" diagnose test.ok --workloads "$TW" -q -o "$T/m$i.jsonl"
	"$BIN/prof-merge" --run-id "r$i" -o "$T/r$i.json" "$T/m$i.jsonl"
done
mkdir -p "$T/c/memory/current" "$T/c/memory/reference"
cp "$T/r2.json" "$T/c/results.json"
"$BIN/prof-diff" --baseline "$T/r1.json" "$T/r2.json" |
	jq '(.[] | select(.metric == "rss_peak_bytes") | .status) = "warning" |
	(.[] | select(.metric == "rss_peak_bytes") | .reason) = "RSS up"' \
	>"$T/c/c0.json"

# run() allocated nothing on either side (no point under the harness).
jq '.pps = []' $D/before.json >"$T/c/memory/reference/test.ok.cpu.dhat.json"
cp "$T/c/memory/reference/test.ok.cpu.dhat.json" "$T/c/memory/current/"
cp "$T/c/c0.json" "$T/c/comparisons.json"
run prof-why --comparisons "$T/c/comparisons.json" --memory "$T/c/memory"
is "$rc" 0 "prof-why --comparisons --memory: exit 0"
jq_ok '.[] | select(.metric == "rss_peak_bytes") | .memory_sites == [] and
	.memory_sites_note == "run() allocated nothing on either side (valgrind'"'"'s DHAT, one call of each)"' \
	"$T/c/comparisons.json" "a run() that allocates nothing: the note says so"
jq_ok '[.[] | select(.status == "stable") | has("memory_sites_note")] |
	all(. == false)' "$T/c/comparisons.json" "stable rows are left as they are"
"$BIN/prof-report" --comparisons "$T/c/comparisons.json" \
	-o "$T/c/summary.md" "$T/c/results.json" >/dev/null
like "$(cat "$T/c/summary.md")" \
	"No allocation sites: run() allocated nothing on either side (valgrind's DHAT, one call of each)" \
	"summary.md: the line under the row"

# The same sites on both sides.
cp $D/before.json "$T/c/memory/reference/test.ok.cpu.dhat.json"
cp $D/before.json "$T/c/memory/current/test.ok.cpu.dhat.json"
cp "$T/c/c0.json" "$T/c/comparisons.json"
run prof-why --comparisons "$T/c/comparisons.json" --memory "$T/c/memory"
n=$("$BIN/prof-why" --json $D/before.json $D/before.json | jq .unchanged)
jq_ok '.[] | select(.metric == "rss_peak_bytes") | .memory_sites == [] and
	.memory_sites_note == "no allocation site changed: '"$n"' site(s) allocated the same on both sides (valgrind'"'"'s DHAT, one call of each)"' \
	"$T/c/comparisons.json" "the same sites on both sides: the note counts them"
ok "$([ "$n" -gt 0 ]; echo $?)" "($n unchanged sites)"
finish
