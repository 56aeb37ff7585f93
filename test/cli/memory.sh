# memory.sh: the memory history story of t7021 and t7022; source after
# lib.sh.
#
# Makes $T/runs/m1..m6.json (the memory phase of test.ab_copy: m1..m3 of
# prof-ab-a, m4..m6 of prof-ab-b, which keeps a second copy of its buffer),
# $T/cmp4.json (m4 against m3) and $T/cmp4-other.json (the same, its heap
# peak row said stable), and defines
#   story DB DIR   add the runs to DB (m4 without, then with its
#                  comparisons), then trend and changes, into DIR
#   mrow METRIC    cmp4.json's memory row of METRIC: {median, status, reason}

# The memory phase of the A/B pair: prof-ab-b keeps a second copy of its
# buffer (twice the heap peak). Runs m1..m3 of a, m4..m6 of b.
for s in a b; do
	"$BIN/prof-mem" full --category copy --workloads "$TBIN/prof-ab-$s" -q \
		--output "$T/$s.jsonl" &&
		"$BIN/prof-merge" --run-id "$s" -o "$T/$s.json" "$T/$s.jsonl"
done
mkdir -p "$T/runs"
for i in 1 2 3 4 5 6; do
	s=a
	[ "$i" -ge 4 ] && s=b
	jq --arg i "$i" '.run_id = "m\($i)" | .commit = ("c\($i)" * 3) |
		.timestamp_utc = "2026-05-0\($i)T00:00:00Z"' "$T/$s.json" \
		>"$T/runs/m$i.json"
done
"$BIN/prof-diff" --baseline "$T/runs/m3.json" -o "$T/cmp4.json" \
	"$T/runs/m4.json"
mrow() { # mrow METRIC: the memory row of cmp4.json
	jq -c --arg m "$1" '.[] | select(.phase == "memory" and .metric == $m)
		| {median: .current.median, status, reason}' "$T/cmp4.json"
}

# story DB DIR: the same steps over a SQLite file or a PostgreSQL address.
story() {
	local db=$1 dir=$2
	mkdir -p "$dir"
	"$BIN/prof-history" add --db "$db" "$T/runs/m1.json" "$T/runs/m2.json" \
		"$T/runs/m3.json" "$T/runs/m5.json" "$T/runs/m6.json" \
		2>"$dir/add.err"
	echo "$?" >"$dir/add.rc"
	"$BIN/prof-history" add --db "$db" "$T/runs/m4.json" 2>>"$dir/add.err"
	"$BIN/prof-history" add --db "$db" --comparisons "$T/cmp4.json" \
		"$T/runs/m4.json" >"$dir/judge.out" 2>"$dir/judge.err"
	echo "$?" >"$dir/judge.rc"
	"$BIN/prof-history" trend --db "$db" >"$dir/trend.json" 2>&1
	"$BIN/prof-history" changes --db "$db" >"$dir/changes.json" 2>&1
}
jq '(.[] | select(.phase == "memory" and .metric == "host_peak_bytes") |
	.status) = "stable"' "$T/cmp4.json" >"$T/cmp4-other.json"
# The heap peak of b (pa) and of a (pb), as cmp4.json says them.
pa=$(jq -r '.[] | select(.phase == "memory" and .metric == "host_peak_bytes") | .current.median' "$T/cmp4.json")
pb=$(jq -r '.[] | select(.phase == "memory" and .metric == "host_peak_bytes") | .baseline.median' "$T/cmp4.json")
