#!/bin/bash
# prof-export --comparisons: each row's verdict (status, status_reason) in
# every format, improved among them; CSV cells still neutralised;
# comparisons of another run refused with nothing written.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 21

# A baseline at 10 ms; the run at 5 ms (improved), with an instruction
# count of its own segment (as prof-count's, which keys valgrind) 10% below
# the baseline's (improved too), and a memory sample.
mkrun2 "$T/base.json" base c0 2026-01-01T00:00:00Z 10 10 10
mkrun2 "$T/cur.json" cur c1 2026-01-02T00:00:00Z 5 5 5
counts() {
	local env key sid eid
	env=$(jq -c '.envs[] | .valgrind = "3.19.0"' "$1")
	key=$(printf '%s' "$env" | jq -r "$JQ_SEGMENT segment_key")
	sid=$(printf '%s' "$key" | sha256sum | cut -c1-16)
	eid=$(printf '%s' "$env" | sha256sum | cut -c1-16)
	jq --arg k "$key" --arg sid "$sid" --argjson env "$env" \
		--arg eid "$eid" --argjson n "$2" '
	.segments[$sid] = $k | .envs[$eid] = $env |
	.samples += [.samples[0] | .phase = "instructions" | .index = 0 |
		.env_id = $eid | .segment_id = $sid | .instructions = $n |
		.duration_ms = 100]' \
		"$1" >"$1.x" && mv "$1.x" "$1"
}
# A text as a CSV cell: quoted, quotes doubled, when it needs it.
csvq() {
	case $1 in
	*[,\"]*) printf '"%s"' "$(printf '%s' "$1" | sed 's/"/""/g')" ;;
	*) printf '%s' "$1" ;;
	esac
}
counts "$T/base.json" 1000000
counts "$T/cur.json" 900000
jq '.samples += [.samples[0] | .phase = "memory" | .index = 0 |
	.duration_ms = 7 | .memory = {host_peak_bytes: 4096}]' \
	"$T/cur.json" >"$T/x.json" && mv "$T/x.json" "$T/cur.json"
"$BIN/prof-diff" --baseline "$T/base.json" --output "$T/cmp.json" \
	"$T/cur.json" 2>"$err"
jq_ok 'map(select(.phase != "memory")) |
	length == 2 and map(.status) == ["improved", "improved"] and
	(map(.phase) | sort) == ["instructions", "timing"]' "$T/cmp.json" \
	"(prof-diff: improved in time and in counts; the memory row apart)"
treason=$(jq '.[] | select(.phase == "timing") | .reason' "$T/cmp.json")
creason=$(jq '.[] | select(.phase == "instructions") | .reason' "$T/cmp.json")
tcell=$(csvq "$(jq -r '.[] | select(.phase == "timing") | .reason' \
	"$T/cmp.json")")
ccell=$(csvq "$(jq -r '.[] | select(.phase == "instructions") | .reason' \
	"$T/cmp.json")")

# csv: two more columns, the sample's own verdict.
run prof-export --format csv "$T/cur.json"
is "$(head -n 1 "$out")" "$(printf 'run_id,commit,workload,backend,segment_id,category,phase,kind,index,duration_ms,outcome,reason,instructions,host_peak_bytes,host_allocs,host_allocated_bytes,rss_peak_bytes,device_peak_allocated_bytes\r')" \
	"without --comparisons the csv is as it was"
cp "$out" "$T/plain.csv"
run prof-export --format csv --comparisons "$T/cmp.json" "$T/cur.json"
is "$rc" 0 "csv with --comparisons"
is "$(head -n 1 "$out")" "$(printf 'run_id,commit,workload,backend,segment_id,category,phase,kind,index,duration_ms,outcome,reason,instructions,host_peak_bytes,host_allocs,host_allocated_bytes,rss_peak_bytes,device_peak_allocated_bytes,status,status_reason,threshold_pct\r')" \
	"has status, status_reason and threshold_pct columns"
tr -d '\r' <"$out" >"$T/s.csv"
is "$(grep -F ',timing,warm,' "$T/s.csv" | grep -c -F -x -e \
	"$(grep -F ',timing,warm,' "$T/plain.csv" | tr -d '\r' | head -n 1),improved,$tcell,20" \
	-e "$(grep -F ',timing,warm,' "$T/plain.csv" | tr -d '\r' | sed -n 2p),improved,$tcell,20" \
	-e "$(grep -F ',timing,warm,' "$T/plain.csv" | tr -d '\r' | sed -n 3p),improved,$tcell,20")" \
	3 "timing samples carry the time verdict: improved, its reason and its threshold"
is "$(grep -F ',instructions,warm,' "$T/s.csv")" \
	"$(grep -F ',instructions,warm,' "$T/plain.csv" | tr -d '\r'),improved,$ccell," \
	"the instruction sample the count verdict"
mreason=$(jq -r '.[] | select(.phase == "memory") | "\(.metric): \(.reason)"' \
	"$T/cmp.json")
is "$(grep -F ',memory,' "$T/s.csv")" \
	"$(grep -F ',memory,' "$T/plain.csv" | tr -d '\r'),new,$(csvq "$mreason")," \
	"a memory sample its memory row's verdict, the metric named"
is "$(wc -l <"$T/s.csv")" 6 "one line per sample, as without"

# A reason that a spreadsheet would run is neutralised.
jq 'map(if .phase == "timing" then .reason = "=HYPERLINK(\"http://x\")"
	else . end)' "$T/cmp.json" >"$T/cmp-f.json"
run prof-export --format csv --comparisons "$T/cmp-f.json" "$T/cur.json"
like "$(sed -n 2p "$out")" ',"'"'"'=HYPERLINK(""http://x"")"' \
	"a status_reason that begins with = gets a ' in front, quoted"

# bmf: status and status_reason in each metric.
run prof-export --format bmf --comparisons "$T/cmp.json" "$T/cur.json"
is "$rc" 0 "bmf with --comparisons"
jq_ok "[.[] | .latency | select(.)] | length == 1 and
	all(.status == \"improved\" and .status_reason == $treason)" "$out" \
	"the latency metric has the time verdict"
jq_ok "[.[] | .instructions | select(.)] | length == 1 and
	all(.status == \"improved\" and .status_reason == $creason and
	.value == 900000)" "$out" "the instructions metric the count verdict"
jq_ok 'to_entries | all(.[]; .value | to_entries | all(.[];
	(.value.value | type == "number")))' "$out" \
	"every metric still has its number (Bencher reads value)"

# gbench: each entry.
run prof-export --format gbench --comparisons "$T/cmp.json" "$T/cur.json"
is "$rc" 0 "gbench with --comparisons"
jq_ok "(.benchmarks | length == 3) and (.benchmarks | all(
	.status == \"improved\" and .status_reason == $treason and
	.run_type == \"iteration\"))" "$out" \
	"every iteration entry has the time verdict"

# Comparisons that are not of the run: exit 2, nothing written.
mkrun2 "$T/other.json" other c2 2026-01-03T00:00:00Z 5 5 5
echo keep >"$T/o.csv"
run prof-export --format csv --comparisons "$T/cmp.json" -o "$T/o.csv" \
	"$T/other.json"
is "$rc:$(cat "$err")" "2:prof-export: $T/cmp.json: [0].run_id: a comparison of run 'cur', not of the results' run 'other'" \
	"comparisons of another run are refused, naming the file and path"
is "$(cat "$T/o.csv")" keep "and the output is not touched"
for f in bmf gbench; do
	run prof-export --format $f --comparisons "$T/cmp.json" "$T/other.json"
	is "$rc:$(wc -c <"$out")" "2:0" "$f: refused too, nothing on stdout"
done
jq '.[0].backend = "gpu"' "$T/cmp.json" >"$T/cmp-row.json"
run prof-export --format csv --comparisons "$T/cmp-row.json" "$T/cur.json"
like "$rc:$(cat "$err")" "2:prof-export: $T/cmp-row.json: [0]: no such row in the results (test.step, gpu)" \
	"a comparison of a row the results lack is refused"
run prof-export --format csv --comparisons - - <"$T/cur.json"
is "$rc:$(cat "$err")" "2:prof-export: stdin ('-') can be given once" \
	"stdin once"
finish
