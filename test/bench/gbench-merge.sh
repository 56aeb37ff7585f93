#!/bin/bash
# gbench-merge.sh: prof-merge --gbench on large Google Benchmark JSON files,
# its peak RSS and time (GNU time, /usr/bin/time -v).
#
# usage: [GBENCH_MERGE_ENTRIES=N] test/bench/gbench-merge.sh [PROF_MERGE...]
#
# Each PROF_MERGE (default bin/prof-merge) reads two files of 200,000
# entries each, made here with awk in the shape libbenchmark writes
# (context first, then the entries, each with its counters and times):
#   wide  200,000 benchmarks of one repetition (BM_w/0 ... BM_w/199999)
#   deep  20,000 benchmarks of 10 repetitions each, with their mean,
#         median, stddev and cv aggregates after them (as
#         --benchmark_repetitions=10 writes; 280,000 entries in all, of
#         which 200,000 are samples)
# and prints one line per binary and file:
#   gbench-merge: BIN FILE: ENTRIES entries, SAMPLES samples (BYTES bytes):
#     peak RSS N MB, WALL wall, U s user + S s system
# (the CPU times are what to compare on a busy machine).
# Give an older build's prof-merge too to compare (issue 41, item 15:
# before the reader streamed, it held about 10 KB an entry).
set -eu
cd "$(dirname "$0")/../.."
[ $# -gt 0 ] || set -- bin/prof-merge
[ -x /usr/bin/time ] || { echo "gbench-merge: needs GNU time (apt-get install time)" >&2; exit 2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gbench-merge.XXXXXX")
trap 'rm -rf "$T"' EXIT

# gen BENCHMARKS REPETITIONS AGGREGATES(0|1): the file on stdout.
gen() {
	awk -v benches="$1" -v reps="$2" -v aggs="$3" 'BEGIN {
		print "{\n  \"context\": {\"date\": \"2026-12-01T00:00:00+00:00\", \"host_name\": \"bench-host\", \"executable\": \"./bench\", \"num_cpus\": 16, \"mhz_per_cpu\": 3000, \"cpu_scaling_enabled\": false, \"library_build_type\": \"release\"},\n  \"benchmarks\": ["
		first = 1
		for (b = 0; b < benches; b++) {
			name = "BM_w/" b
			for (r = 0; r < reps; r++) {
				printf "%s    {\"name\": \"%s\", \"family_index\": 0, \"per_family_instance_index\": %d, \"run_name\": \"%s\", \"run_type\": \"iteration\", \"repetitions\": %d, \"repetition_index\": %d, \"threads\": 1, \"iterations\": %d, \"real_time\": %.6f, \"cpu_time\": %.6f, \"time_unit\": \"ns\", \"bytes_per_second\": %.1f, \"items\": 4096}", first ? "" : ",\n", name, b, name, reps, r, 100000 + r, 2.45 + (b % 97) * 0.01 + r * 0.001, 2.40 + (b % 97) * 0.01, 1.5e9 + r
				first = 0
			}
			if (aggs)
				for (a = 0; a < 4; a++) {
					split("mean median stddev cv", an, " ")
					printf ",\n    {\"name\": \"%s_%s\", \"family_index\": 0, \"per_family_instance_index\": %d, \"run_name\": \"%s\", \"run_type\": \"aggregate\", \"repetitions\": %d, \"threads\": 1, \"aggregate_name\": \"%s\", \"aggregate_unit\": \"time\", \"iterations\": %d, \"real_time\": 2.5, \"cpu_time\": 2.4, \"time_unit\": \"ns\"}", name, an[a + 1], b, name, reps, an[a + 1], reps
				}
		}
		print "\n  ]\n}"
	}'
}
N=${GBENCH_MERGE_ENTRIES:-200000}
gen "$N" 1 0 >"$T/wide.json"
gen $((N / 10)) 10 1 >"$T/deep.json"
for bin in "$@"; do
	for f in wide deep; do
		/usr/bin/time -v "$bin" --gbench "$T/$f.json" -o "$T/out.json" \
			--run-id bench 2>"$T/time.txt" >/dev/null ||
			{ echo "gbench-merge: $bin $f: failed: $(tail -n 1 "$T/time.txt")" >&2; exit 1; }
		rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$T/time.txt")
		wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$T/time.txt")
		usr=$(sed -n 's/.*User time (seconds): //p' "$T/time.txt")
		sys=$(sed -n 's/.*System time (seconds): //p' "$T/time.txt")
		n=$(jq '.benchmarks | length' "$T/$f.json")
		s=$(jq '.samples | length' "$T/out.json")
		printf 'gbench-merge: %s %s: %s entries, %s samples (%s bytes): peak RSS %s MB, %s wall, %s s user + %s s system\n' \
			"$bin" "$f" "$n" "$s" "$(wc -c <"$T/$f.json")" $((rss / 1024)) "$wall" "$usr" "$sys"
	done
done
