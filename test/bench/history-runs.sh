#!/bin/sh
# history-runs.sh: synthetic run files for the history's benchmarks, made
# cheaply (one awk for all of them, no tool of this tree).
#
#   sh test/bench/history-runs.sh DIR RUNS SERIES [FIRST]
#
# Writes DIR/run-NNNNNNN.json for runs FIRST .. FIRST + RUNS - 1 (FIRST
# default 0): schema-2 results files with a groups table, run i at minute i
# of 2026 with a commit of its own, SERIES series bench.series_NNNN (cpu,
# one segment) of 3 warm timing samples each, seeded (the same files every
# time). One series in ten steps up 20% from run 500 on, so changes has
# something to find. 1,000 runs of 200 series are about 110 MB.
set -eu
[ $# -ge 3 ] || {
	echo "usage: sh test/bench/history-runs.sh DIR RUNS SERIES [FIRST]" >&2
	exit 2
}
dir=$1 runs=$2 series=$3 first=${4:-0}
mkdir -p "$dir"
# The env and its segment key, as prof-time writes them (the key is the
# canonical JSON of the keyed fields: env.h; awk -v reads \\ as \).
env='{"backend":"cpu","browser":null,"compiler":"gcc","compiler_major":"12","cpu_model":"Bench CPU","cuda_driver":null,"cuda_runtime":null,"device":null,"device_cc":null,"device_memory_bytes":null,"device_sms":null,"distro":"debian","distro_version":"12","dtype":"float64","machine":"x86_64","os":"linux","problem_size":"1000","tile":"none"}'
key=$(printf '%s' "$env" | sed 's/"/\\\\"/g')
awk -v dir="$dir" -v runs="$runs" -v series="$series" -v first="$first" \
	-v env="$env" -v key="$key" '
function rnd() { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }
BEGIN {
	seed = 20261201
	for (i = first; i < first + runs; i++) {
		f = sprintf("%s/run-%07d.json", dir, i)
		t = i
		ts = sprintf("2026-%02d-%02dT%02d:%02d:00Z", 1 + int(t / 40320) % 12,
			1 + int(t / 1440) % 28, int(t / 60) % 24, t % 60)
		printf "{\"schema\":\"prof.results\",\"schema_version\":2," \
			"\"run_id\":\"bench-%07d\",\"timestamp_utc\":\"%s\"," \
			"\"command\":\"history-runs.sh\",\"commit\":\"%08x%032d\"," \
			"\"envs\":{\"e000000000000000\":%s}," \
			"\"segments\":{\"s000000000000000\":\"%s\"},\"groups\":{", \
			i, ts, i, i, env, key > f
		for (s = 0; s < series; s++)
			printf "%s\"g%015d\":{\"workload\":\"bench.series_%04d\"," \
				"\"workload_version\":1,\"category\":\"bench\"," \
				"\"fixture\":\"none\",\"warning_floor_ms\":1," \
				"\"backend\":\"cpu\",\"env_id\":\"e000000000000000\"," \
				"\"segment_id\":\"s000000000000000\"}", \
				s ? "," : "", s, s > f
		printf "},\"samples\":[" > f
		for (s = 0; s < series; s++) {
			base = 1 + s % 97
			if (s % 10 == 0 && i >= 500)
				base *= 1.2
			for (k = 0; k < 3; k++)
				printf "%s{\"group_id\":\"g%015d\",\"phase\":\"timing\"," \
					"\"kind\":\"warm\",\"index\":%d,\"duration_ms\":%.6f," \
					"\"outcome\":\"success\"}", \
					s || k ? "," : "", s, k, base * (0.98 + 0.04 * rnd()) > f
		}
		print "]}" > f
		close(f)
	}
}'
