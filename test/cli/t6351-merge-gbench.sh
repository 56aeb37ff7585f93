#!/bin/bash
# prof-merge --gbench: a real Google Benchmark binary's --benchmark_out
# JSON, repetitions included, read as timing samples of one run; exported
# again with prof-export --format gbench and read by Google Benchmark's
# own compare.py; aggregate-only files and bad numbers refused, exit 2.
. "$(dirname "$0")/lib.sh"

command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] ||
	skip_all "g++ or Google Benchmark is not installed (make deps: libbenchmark-dev)"
g++ -O2 -o "$T/bm" test/data/gbench-tiny.cc -lbenchmark -lpthread -lz \
	2>"$T/cc.err" || skip_all "the Google Benchmark binary does not build: $(head -n 1 "$T/cc.err")"
plan 28

bench() {
	"$T/bm" --benchmark_min_time=0.001 --benchmark_out_format=json \
		--benchmark_out="$1" "${@:2}" >/dev/null 2>&1
}
bench "$T/a.json" --benchmark_repetitions=3
bench "$T/b.json" --benchmark_repetitions=3

run prof-merge --gbench "$T/a.json" -o "$T/ra.json" --run-id gb-a
is "$rc" 0 "a Google Benchmark JSON file merges"
is "$(cat "$err")" "" "and says nothing, written here"
jq_ok "$JQ_WHOLE"' whole | .samples | map(.workload) | unique ==
	["BM_crc32.4096", "BM_crc32.64", "BM_fails"]' "$T/ra.json" \
	"each benchmark a workload: BM_crc32/4096 is BM_crc32.4096"
jq_ok "$JQ_WHOLE"' whole | .samples | group_by(.workload) |
	all(map(.index) == [0, 1, 2])' "$T/ra.json" \
	"each repetition a sample, indexed by its repetition"
# Its times, nanoseconds to microseconds, in their unit on every page:
# never "0.000 ms".
run prof-report -o "$T/ra.md" --html "$T/ra.html" "$T/ra.json"
ns=$(jq -r "$JQ_WHOLE"' whole | [.samples[] | select(.workload ==
	"BM_crc32.64" and .outcome == "success") | .duration_ms] | sort |
	.[length / 2 | floor] | . * 1e6 | . < 1000' "$T/ra.json")
is "$rc:$(grep -c '0\.000 ms' "$out" "$T/ra.md" "$T/ra.html" | tr '\n' ' ')" \
	"0:$out:0 $T/ra.md:0 $T/ra.html:0 " \
	"prof-report: no gbench row's time is 0.000 ms"
if [ "$ns" = true ]; then
	like "$(grep '^BM_crc32.64 ' "$out")" " ns " \
		"the compact table prints a row under a microsecond in ns"
else
	like "$(grep '^BM_crc32.64 ' "$out")" " µs " \
		"the compact table prints a row under a millisecond in µs"
fi
jq -s '.[0] as $g | .[1] | ('"$JQ_WHOLE"' whole) | .samples |
	map(select(.workload == "BM_crc32.4096")) | sort_by(.index) |
	[., ($g.benchmarks | map(select(.name == "BM_crc32/4096" and
		.run_type == "iteration")))] | transpose |
	all(.[0] as $s | .[1] as $b |
		$s.phase == "timing" and $s.kind == "warm" and
		$s.outcome == "success" and
		$s.fixture == "BM_crc32/4096" and $s.category == "gbench" and
		($s.duration_ms - $b.real_time / 1e6 | fabs) <= 5e-7 and
		($s.cpu_ms - $b.cpu_time / 1e6 | fabs) <= 5e-7 and
		$s.iterations == $b.iterations and
		$s.metrics.bytes == 4096 and $s.threads == 1)' \
	"$T/a.json" "$T/ra.json" >"$T/v" 2>&1
is "$(cat "$T/v")" true \
	"duration_ms the per-iteration real time, cpu_ms its CPU time, iterations and counters beside it"
jq_ok "$JQ_WHOLE"' whole | .samples | map(select(.outcome == "success")) |
	all(.checksum == null and
	    .checksum_reason == "Google Benchmark has no output checksum")' \
	"$T/ra.json" "checksum null, with the reason"
jq_ok "$JQ_WHOLE"' whole | .samples | map(select(.workload == "BM_fails")) |
	length == 3 and all(.outcome == "error" and .duration_ms == null and
	.reason == "the benchmark failed (SkipWithError): no input here")' \
	"$T/ra.json" "a benchmark that called SkipWithError gives error samples"
jq_ok '(.envs | to_entries[0].value) as $e |
	$e.gbench_build_type != null and $e.gbench_num_cpus >= 1 and
	($e | has("gbench_mhz_per_cpu") and has("gbench_cpu_scaling_enabled")
	 and has("gbench_library_version")) and $e.cpu_model != null and
	(.segments | to_entries[0].value | fromjson |
	 .gbench_build_type == $e.gbench_build_type and
	 (has("gbench_num_cpus") | not))' "$T/ra.json" \
	"the context is the env; the library's build type is keyed, the rest recorded"

# The run's verdicts and exports work on it as on any run.
"$BIN/prof-merge" --gbench "$T/b.json" -o "$T/rb.json" --run-id gb-b
run prof-diff --baseline "$T/ra.json" "$T/rb.json"
is "$rc" 0 "prof-diff compares two imported runs"
jq_ok 'map({(.workload): .status}) | add |
	(.["BM_crc32.64"] | IN("stable", "warning", "improved")) and
	(.["BM_crc32.4096"] | IN("stable", "warning", "improved")) and
	.BM_fails == "incomparable"' \
	"$out" "row by row, on their segment"
run prof-export --format gbench -o "$T/xa.json" "$T/ra.json"
is "$rc" 0 "and exports back to Google Benchmark's format"
jq_ok '.benchmarks | map(select(.name == "BM_crc32/4096")) | length == 3' \
	"$T/xa.json" "one entry per repetition, under the benchmark's own name"
"$BIN/prof-export" --format gbench -o "$T/xb.json" "$T/rb.json"
cmp_py=/usr/share/benchmark/compare.py
if [ -r "$cmp_py" ] && /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
	(cd "$(dirname "$cmp_py")" && /usr/bin/python3 compare.py -d \
		"$T/cmp.json" benchmarks "$T/xa.json" "$T/xb.json") \
		>"$out" 2>"$err"
	is "$?" 0 "Google Benchmark's compare.py reads the two exports"
	jq_ok 'map(select(.run_type == "iteration")) |
		(map(.name) | sort == ["BM_crc32/4096", "BM_crc32/64"]) and
		all(.[]; .measurements | length == 3)' "$T/cmp.json" \
		"and compares them repetition by repetition"
	(cd "$(dirname "$cmp_py")" && /usr/bin/python3 compare.py -d \
		"$T/rt.json" benchmarks "$T/a.json" "$T/xa.json") \
		>"$out" 2>"$err"
	jq_ok 'map(select(.run_type == "iteration")) |
		(map(.name) | sort == ["BM_crc32/4096", "BM_crc32/64"]) and
		all(.[]; .measurements | length == 3 and
		    all(.[]; (.real_time - .real_time_other | fabs) <= 0.5))' \
		"$T/rt.json" \
		"the original against its round trip: the same benchmarks, the same times (to the ns)"
else
	skip "Google Benchmark's compare.py or scipy is not installed"
	skip "(make deps installs libbenchmark-tools and python3-scipy)"
	skip "compare.py"
fi

# Aggregates only: no repetitions to judge.
bench "$T/agg.json" --benchmark_repetitions=3 \
	--benchmark_report_aggregates_only=true
run prof-merge --gbench "$T/agg.json" -o "$T/ragg.json"
is "$rc" 2 "an aggregate-only file is refused, exit 2"
is "$(errline)" "prof-merge: $T/agg.json: .benchmarks[0].run_type: 'BM_crc32/64_mean' is an aggregate (mean) without its repetitions: prof needs each repetition (run without --benchmark_report_aggregates_only)" \
	"naming the entry and the reason"
[ -e "$T/ragg.json" ]
is "$?" 1 "and nothing is written"

# Numbers out of what a sample holds, by their JSON path.
jq '.benchmarks[1].real_time = 1e30' "$T/a.json" >"$T/big.json"
run prof-merge --gbench "$T/big.json"
is "$rc:$(errline)" "2:prof-merge: $T/big.json: .benchmarks[1].real_time: 1e+24 ms cannot be judged (expected 0, or from 1e-09 to 1e+09 ms)" \
	"a time out of range is refused with its path"
jq '.benchmarks[0].time_unit = "fortnights"' "$T/a.json" >"$T/unit.json"
run prof-merge --gbench "$T/unit.json"
is "$rc:$(errline)" "2:prof-merge: $T/unit.json: .benchmarks[0].time_unit: expected ns, us, ms or s" \
	"an unknown time unit is refused"
jq '.benchmarks[0].iterations = 0' "$T/a.json" >"$T/it.json"
run prof-merge --gbench "$T/it.json"
is "$rc:$(errline)" "2:prof-merge: $T/it.json: .benchmarks[0].iterations: iterations 0 is out of range (expected from 1 to 9e+18)" \
	"so is an iteration count below 1"

# The id rule: readable, stable, one id per name.
jq '.benchmarks |= [.[0] | (.name = "BM_sort<int>/threads:2"),
	(.name = "_BM_x/8")]' "$T/a.json" >"$T/names.json"
"$BIN/prof-merge" --gbench "$T/names.json" -o "$T/rn.json"
jq_ok "$JQ_WHOLE"' whole | .samples | map(.workload) ==
	["BM_sort_int_.threads-2", "gbench._BM_x.8"]' "$T/rn.json" \
	"'/' is '.', ':' is '-', other bytes '_'; a name not led by a letter gets gbench."
jq '.benchmarks |= [.[0] | (.name = "BM_a/1"), (.name = "BM_a.1")]' \
	"$T/a.json" >"$T/clash.json"
run prof-merge --gbench "$T/clash.json"
is "$rc:$(errline)" "2:prof-merge: $T/clash.json: .benchmarks[1].name: 'BM_a/1' and 'BM_a.1' are both workload 'BM_a.1': rename one" \
	"two names with one id are refused"

# Written on another host: its machine's facts are not this one's.
jq '.context.host_name = "ci-runner-7"' "$T/a.json" >"$T/far.json"
run prof-merge --gbench "$T/far.json" -o "$T/rf.json"
is "$rc:$(errline)" "0:prof-merge: '$T/far.json': written on host 'ci-runner-7', not here: its OS, distribution and CPU model are recorded as null" \
	"a file from another host merges, and says so"
jq_ok '.envs | to_entries[0].value | .cpu_model == null and .os == null and
	.gbench_host_name == "ci-runner-7"' "$T/rf.json" \
	"its host facts null, its host name kept"
jq '.benchmarks += [.benchmarks[0]]' "$T/a.json" >"$T/twice.json"
run prof-merge --gbench "$T/twice.json"
is "$rc:$(errline)" "2:prof-merge: $T/twice.json: .benchmarks[17]: a second sample of 'BM_crc32.64' (cpu, timing, warm, index 0): the first is at $T/twice.json: .benchmarks[0]; an input given twice, or two runs? (a run's shards merge with --shards)" \
	"a repetition given twice is refused with both places"
finish
