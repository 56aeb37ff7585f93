#!/bin/bash
# prof-count across builds (issue 21): --against-command STRING and
# --against BIN with --against-output FILE. A command's identity is its
# --name and its arguments, never the program's path: one program copied
# to two paths is stable, a build doing 2% more work a warning, other
# arguments incomparable with a reason that names them.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 13

mkdir -p "$T/p1" "$T/p2" "$T/more"
cc -O1 -o "$T/p1/work" "$ROOT/test/data/count-work.c" &&
	cp "$T/p1/work" "$T/p2/work" &&
	cc -O1 -DWORK=1020000 -o "$T/more/work" \
		"$ROOT/test/data/count-work.c" || exit 1

# counted AGAINST CURRENT...: both sides counted (REPEAT calls, default
# 2), merged, compared.
counted() {
	local against=$1
	shift
	rm -f "$T"/cur.* "$T"/ref.*
	run prof-count --name cmd.work --repeat "${REPEAT:-2}" -q \
		--against-command "$against" --against-output "$T/ref.jsonl" \
		--output "$T/cur.jsonl" -- "$@"
	"$BIN/prof-merge" -o "$T/cur.json" "$T/cur.jsonl" &&
		"$BIN/prof-merge" -o "$T/ref.json" "$T/ref.jsonl" &&
		"$BIN/prof-diff" --baseline "$T/ref.json" -o "$T/cmp.json" \
			"$T/cur.json" 2>"$T/diff.err"
}

counted "$T/p2/work 3" "$T/p1/work" 3
is "$rc" 0 "prof-count --against-command: exit 0"
jq_ok -s 'length == 2 and all(.[]; .phase == "instructions" and
	.instructions > 0)' "$T/cur.jsonl" "the current side's counts"
jq_ok -s 'length == 2 and all(.[]; .instructions > 0)' "$T/ref.jsonl" \
	"the reference side's counts, in --against-output"
is "$(jq -r 'select(.record == "context") | .env.program' "$T/cur.jsonl")" \
	"$T/p1/work" "the program's path is recorded in the environment"
jq_ok 'length == 1 and .[0].status == "stable"' "$T/cmp.json" \
	"one program at two paths: stable"

counted "$T/p1/work 3" "$T/more/work" 3
jq_ok 'length == 1 and .[0].status == "warning" and
	(.[0].reason | test("\\(\\+(1\\.9|2\\.[01])[0-9]*%\\), more than the 1% threshold"))' \
	"$T/cmp.json" \
	"a build doing 2% more work: a warning"

# One call a side: an incomparable row is judged on no count.
REPEAT=1 counted "$T/p2/work 4" "$T/p1/work" 3
jq_ok 'length == 1 and .[0].status == "incomparable" and
	(.[0].reason | contains("fixture '"'"'command [\"3\"]'"'"' != baseline '"'"'command [\"4\"]'"'"'"))' \
	"$T/cmp.json" "other arguments: incomparable, and the reason names them"

run prof-count --name cmd.work --against-command "'unclosed" \
	--against-output "$T/ref.jsonl" -- "$T/p1/work" 1
is "$rc:$(errline)" \
	"2:prof-count: --against-command: an open ' quote" \
	"a reference command that does not split"
run prof-mem --name cmd.work --against-command "$T/p1/work 1" \
	--against-output "$T/ref.jsonl" -- "$T/p1/work" 1
is "$rc:$(errline)" \
	"2:prof-mem: --against: only prof-time and prof-count compare two builds" \
	"prof-mem compares no builds"

# Workload binaries: --against BIN; prof-ab-b's test.ab does 30% more.
run prof-count quick --workloads "$TBIN/prof-ab-b" -q --repeat 1 \
	--against "$TBIN/prof-ab-a" --against-output "$T/wref.jsonl" \
	--output "$T/wcur.jsonl"
is "$rc" 0 "prof-count --against BIN: exit 0"
"$BIN/prof-merge" -o "$T/wcur.json" "$T/wcur.jsonl" &&
	"$BIN/prof-merge" -o "$T/wref.json" "$T/wref.jsonl" &&
	"$BIN/prof-diff" --baseline "$T/wref.json" -o "$T/wcmp.json" \
		"$T/wcur.json"
jq_ok 'map({(.workload): .status}) | add == {"test.ab": "warning",
	"test.ab_same": "stable"}' "$T/wcmp.json" \
	"the workload doing more work warns, the same one is stable"
ok "$(jq -s -e 'map(select(.record == null)) | length == 2' \
	"$T/wref.jsonl" >/dev/null; echo $?)" "the reference side in --against-output"
run prof-count quick --workloads "$TBIN/prof-ab-b" --against "$TBIN/prof-ab-a"
is "$rc:$(errline)" \
	"2:prof-count: give the reference side's samples a file: --against-output FILE" \
	"--against needs --against-output"
finish
