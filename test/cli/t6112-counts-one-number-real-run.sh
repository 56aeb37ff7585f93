#!/bin/bash
# One run's instruction count is one number everywhere, in a real
# make profile-quick COUNTS=1 run (issue 30): prof-count's samples key
# valgrind's version in their segment, so the counts are rows of their
# own beside the time rows. prof-export's time entry carries the count of
# its workload x backend's count row (prof_runview_count_row()), and its
# bmf and gbench names are those of a run without COUNTS: a count row is
# no second segment of the name.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 13

mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
W=primitive.nearest_site_assignment

mk profile-quick COUNTS=1 CATEGORY=primitive OUTPUT="$T/q" \
	BASELINE="$T/none.json"
is "$rc" 0 "make profile-quick COUNTS=1 exits 0"
Q=$T/q
N=$(jq "[.[] | select(.phase == \"instructions\" and
	.workload == \"$W\")] | .[0].current.median" "$Q/comparisons.json")
jq_ok "[.samples[] | select(.workload == \"$W\") | select(.phase ==
	\"instructions\" or .phase == \"timing\") | .segment_id] | unique |
	length == 2" "$Q/results.json" \
	"its counts and its times lie in two segments"
G=$(echo "$N" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
like "$(grep "^| \`$W\` |" "$Q/summary.md")" "| $G |" \
	"summary.md: the count $G of comparisons.json"
like "$(cat "$Q/report.html")" "<td class=\"num\">$G</td>" \
	"report.html: $G"

mkdir -p "$T/runs"
cp -r "$Q" "$T/runs/r1"
run prof-history import --db "$T/h.sqlite" "$T/runs"
is "$rc" 0 "prof-history import takes the run folder"
run prof-history trend --db "$T/h.sqlite"
jq_ok "[.[] | select(.workload == \"$W\") | .instructions |
	select(. != null)] == [$N]" "$out" "the history: $N"

run prof-export --format csv "$Q/results.json"
is "$(grep ",$W,cpu,.*,instructions," "$out" | cut -d, -f13 | sort -n |
	awk '{ v[NR] = $0 } END { print v[int((NR + 1) / 2)] }')" "$N" \
	"the CSV export: $N, the lower median of the calls' counts (stats.h)"
run prof-export --format bmf "$Q/results.json"
cp "$out" "$T/bmf.json"
jq_ok "keys == [\"$W/cpu\"] and .[\"$W/cpu\"].instructions.value == $N and
	(.[\"$W/cpu\"].latency.value | type) == \"number\"" "$T/bmf.json" \
	"the BMF export: one entry, its latency and $N"
run prof-export --format gbench "$Q/results.json"
cp "$out" "$T/gbench.json"
jq_ok "[.benchmarks[] | .name, .instructions] | unique ==
	[$N, \"$W/cpu\"]" "$T/gbench.json" \
	"the Google Benchmark export: $N on every entry of $W/cpu"
run prof-export --format bmf --comparisons "$Q/comparisons.json" \
	"$Q/results.json"
jq_ok ".[\"$W/cpu\"].instructions | .value == $N and
	.status == \"incomparable\"" "$out" \
	"with --comparisons the count's own verdict"

# A run without counts: the same names, so that the two exports pair.
mk profile-quick CATEGORY=primitive OUTPUT="$T/p" BASELINE="$T/none.json"
is "$rc" 0 "make profile-quick without COUNTS exits 0"
run prof-export --format bmf "$T/p/results.json"
is "$(jq -c keys "$out")" "$(jq -c keys "$T/bmf.json")" \
	"the BMF names are those of the run with counts"
run prof-export --format gbench "$T/p/results.json"
is "$(jq -c '[.benchmarks[].name] | unique' "$out")" \
	"$(jq -c '[.benchmarks[].name] | unique' "$T/gbench.json")" \
	"and so are the Google Benchmark names"
finish
