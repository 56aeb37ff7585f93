#!/bin/bash
# prof-export: CSV, Bencher Metric Format and Google Benchmark JSON from
# results of schema 1 and 2, each checked against its documented shape.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 19

mkrun "$T/r.json" run-x c0ffee 2026-01-01T00:00:00Z 2 1 3 4
# An error sample whose reason needs CSV quoting.
jq '.samples += [.samples[0] | .index = 9 | .outcome = "error" |
	.duration_ms = null | .reason = "validation failed: \"x\", line 2"]' \
	"$T/r.json" >"$T/re.json"
mkrun2 "$T/r2.json" run-x c0ffee 2026-01-01T00:00:00Z 2 1 3 4
# Schema 2 with an instruction count (prof-count's phase).
jq '.samples += [.samples[0] | .phase = "instructions" | .index = 0 |
	.instructions = 123456789 | .duration_ms = null]' "$T/r2.json" \
	>"$T/ri.json"

run prof-export --format csv "$T/re.json"
is "$rc" 0 "csv"
is "$(head -n 1 "$out")" "$(printf 'run_id,commit,workload,backend,segment_id,category,phase,kind,index,duration_ms,outcome,reason,instructions,host_peak_bytes,host_allocs,host_allocated_bytes,rss_peak_bytes,device_peak_allocated_bytes\r')" \
	"has the header"
jq_ok -R -s 'split("\r\n") | .[:-1] | length == 6 and
	(.[1] | split(",") | .[2] == "test.step" and .[6] == "timing" and
	 .[9] == "2" and .[10] == "success")' "$out" \
	"and one row per sample, CRLF-terminated"
like "$(tail -n 1 "$out")" ',error,"validation failed: ""x"", line 2",,' \
	"a field with a comma or a quote is quoted, quotes doubled"

run prof-export --format bmf "$T/r.json"
is "$rc" 0 "bmf"
jq_ok 'keys == ["test.step/cpu"] and (.["test.step/cpu"].latency |
	.value == 2500000 and .lower_value == 1000000 and
	.upper_value == 4000000)' "$out" \
	"latency: median, min and max in nanoseconds"
jq_ok 'to_entries | all(.[]; .value | to_entries | all(.[];
	(.value.value | type == "number") and
	((.value | keys) - ["value", "lower_value", "upper_value"] == [])))' \
	"$out" "every metric has the BMF shape"
cp "$out" "$T/bmf1.json"
run prof-export --format bmf "$T/r2.json"
ok "$(cmp -s "$out" "$T/bmf1.json"; echo $?)" "schema 2 gives the same"
run prof-export --format bmf "$T/ri.json"
jq_ok '.["test.step/cpu"].instructions == {value: 123456789}' "$out" \
	"instructions where counted"

run prof-export --format gbench -o "$T/g.json" "$T/r.json"
is "$rc:$(cat "$out")" "0:" "gbench, written to a file"
jq_ok '(.context | .date == "2026-01-01T00:00:00Z" and .num_cpus == 2 and
	.library_build_type == "release") and (.benchmarks | length == 4 and
	all(.[]; .name == "test.step/cpu" and .run_name == .name and
	.run_type == "iteration" and .repetitions == 4 and .iterations == 1 and
	.time_unit == "ns" and .real_time == .cpu_time and
	.family_index == 0) and map(.repetition_index) == [0, 1, 2, 3] and
	map(.real_time) == [2000000, 1000000, 3000000, 4000000])' "$T/g.json" \
	"a context and one repetition per sample"
run prof-export --format gbench "$T/ri.json"
jq_ok '.benchmarks | all(.[]; .instructions == 123456789)' "$out" \
	"with the instruction count as a counter"

# Google Benchmark's own tools/compare.py (Debian's libbenchmark-tools).
cmp_py=/usr/share/benchmark/compare.py
if [ -r "$cmp_py" ] && /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
	mkrun "$T/slow.json" run-y c0ffee 2026-01-02T00:00:00Z 4 2 6 8
	"$BIN/prof-export" --format gbench -o "$T/g2.json" "$T/slow.json"
	(cd "$(dirname "$cmp_py")" && /usr/bin/python3 compare.py -d \
		"$T/cmp.json" benchmarks "$T/g.json" "$T/g2.json") \
		>"$out" 2>"$err"
	is "$?" 0 "compare.py reads two exports"
	jq_ok 'map(select(.run_type == "iteration")) | length == 1 and
		.[0].name == "test.step/cpu" and
		(.[0].measurements | length == 4) and
		(.[0].measurements[0].time == 1) and
		(.[0].utest | has("time_pvalue"))' "$T/cmp.json" \
		"and compares them: +100% time, with its U test"
else
	skip "Google Benchmark's compare.py or scipy is not installed"
	skip "(make deps installs libbenchmark-tools and python3-scipy)"
fi

run prof-export --format xml "$T/r.json"
is "$rc:$(cat "$err")" "2:prof-export: --format: 'xml' is not csv, bmf or gbench" \
	"an unknown format is exit 2"
run prof-export "$T/r.json"
is "$rc:$(cat "$err")" "2:prof-export: give the format: --format csv, bmf or gbench" \
	"the format is required"
jq '.samples[1].segment_id = "nope"' "$T/r2.json" >"$T/bad2.json"
run prof-export --format csv "$T/bad2.json"
is "$rc:$(cat "$err")" "2:prof-export: $T/bad2.json: .samples[1].segment_id: no such id in .segments" \
	"a schema-2 sample with an unknown segment id is exit 2, by path"
jq '.schema_version = 3' "$T/r.json" >"$T/bad3.json"
run prof-export --format csv "$T/bad3.json"
is "$rc:$(cat "$err")" "2:prof-export: $T/bad3.json: .schema_version: unknown schema version 3 (this prof reads 1 and 2)" \
	"an unknown schema version is exit 2"
run prof-export --format bmf -o /nonexistent/dir/x.json "$T/r.json"
is "$rc" 2 "a failed write is exit 2"
finish
