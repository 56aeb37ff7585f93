#!/bin/bash
# prof-history changes gives each change point the make bisect line that
# would find its commit; null where a commit is not a git hash.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 3

# series DB COMMIT-FORMAT: 20 runs of test.step, 30% slower from run 11.
series() {
	local files=() i m
	for i in $(seq 1 20); do
		m=10
		[ "$i" -ge 11 ] && m=13
		mkrun "$T/s$i.json" "s$i" "$(printf "$2" "$i")" \
			"2026-02-$(printf %02d "$i")T00:00:00Z" \
			"$((m - 1))" "$m" "$((m + 1))"
		files+=("$T/s$i.json")
	done
	"$BIN/prof-history" add --db "$1" "${files[@]}" 2>/dev/null
}
series "$T/h.sqlite" '%040x'
run prof-history changes --db "$T/h.sqlite"
is "$rc" 0 "prof-history changes: exit 0"
jq_ok '.[0].bisect == "make bisect GOOD='"$(printf %040x 10)"' BAD='"$(printf %040x 11)"' W=test.step"' \
	"$out" "the change point's make bisect line names its two commits"
series "$T/n.sqlite" 'commit%d'
run prof-history changes --db "$T/n.sqlite"
jq_ok 'length == 1 and .[0].bisect == null' "$out" \
	"no line where the commits are not git hashes"
finish
