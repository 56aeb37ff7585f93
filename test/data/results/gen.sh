#!/bin/sh
# gen.sh: regenerate the hand-made results and baselines of this folder.
#
#   sh test/data/results/gen.sh
#
# Each workload of current.json hits one rule of prof-diff against
# baseline.json (see README); the other files are unfit or malformed inputs.
set -eu
cd "$(dirname "$0")"

# sample WORKLOAD VERSION FIXTURE_SUM FLOOR SEGMENT PHASE KIND DURATIONS...
# prints one sample per duration ("error" for an error sample).
jq_sample='
def envs: {
	cpu: {os: "linux", distro: "debian", distro_version: "12",
	      distro_name: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0-18",
	      machine: "x86_64", cpu_model: "Test CPU 3000", cpu_count: 4,
	      cpu_governor: null, libc: "glibc 2.36", compiler: "gcc",
	      compiler_version: "12.2.0", compiler_major: "12", cflags: "-O2 -g",
	      backend_requested: "cpu", backend: "cpu", device: null,
	      device_cc: null, device_sms: null, device_memory_bytes: null,
	      cuda_driver: null, cuda_runtime: null, browser: null,
	      dtype: "float64", problem_size: "1000", tile: "none"},
	fallback: {os: "linux", distro: "debian", distro_version: "12",
	      distro_name: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0-18",
	      machine: "x86_64", cpu_model: "Test CPU 3000", cpu_count: 4,
	      cpu_governor: null, libc: "glibc 2.36", compiler: "gcc",
	      compiler_version: "12.2.0", compiler_major: "12", cflags: "-O2 -g",
	      backend_requested: "gpu", backend: "cpu", device: null,
	      device_cc: null, device_sms: null, device_memory_bytes: null,
	      cuda_driver: null, cuda_runtime: null, browser: null,
	      dtype: "float32", problem_size: "1000", tile: "none"},
	gpu: {os: "linux", distro: "debian", distro_version: "12",
	      distro_name: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0-18",
	      machine: "x86_64", cpu_model: "Test CPU 3000", cpu_count: 4,
	      cpu_governor: null, libc: "glibc 2.36", compiler: "gcc",
	      compiler_version: "12.2.0", compiler_major: "12", cflags: "-O2 -g",
	      backend_requested: "gpu", backend: "gpu", device: "NVIDIA H200",
	      device_cc: "9.0", device_sms: 132,
	      device_memory_bytes: 150754820096, cuda_driver: "12.4",
	      cuda_runtime: "12.4", browser: null,
	      dtype: "float32", problem_size: "1000", tile: "256"},
	browser: {os: "linux", distro: "debian", distro_version: "12",
	      distro_name: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0-18",
	      machine: "x86_64", cpu_model: "Test CPU 3000", cpu_count: 4,
	      cpu_governor: null, libc: "glibc 2.36", compiler: null,
	      compiler_version: null, compiler_major: null, cflags: null,
	      backend_requested: "chromium", backend: "chromium", device: null,
	      device_cc: null, device_sms: null, device_memory_bytes: null,
	      cuda_driver: null, cuda_runtime: null,
	      browser: "Chromium 120.0.6099.224", dtype: "none",
	      problem_size: "1280x720", tile: "none"}
};
def keyed: ["os", "distro", "distro_version", "machine", "cpu_model",
	"compiler", "compiler_major", "backend", "device", "device_cc",
	"device_sms", "device_memory_bytes", "cuda_driver", "cuda_runtime",
	"browser", "dtype", "problem_size", "tile"];
def segment($e): [keyed[] as $k | {key: $k, value: $e[$k]}]
	| sort_by(.key) | from_entries | tojson;
envs[$seg] as $e
| ($durs | split(" ")) | to_entries[] | .key as $i | .value as $d
| {schema_version: 1, workload: $w, workload_version: ($v | tonumber),
   category: $cat, fixture: "fx-1000",
   fixture_checksum: (if $sum == "null" then null else $sum end),
   warning_floor_ms: ($floor | tonumber), backend: $e.backend, env: $e,
   segment: segment($e), phase: $phase, kind: $kind, index: $i,
   duration_ms: (if $d == "error" then null else ($d | tonumber) end),
   metrics: {}, checksum: null,
   outcome: (if $d == "error" then "error" else "success" end),
   reason: (if $d == "error" then "worker killed by signal 11 (SIGSEGV: Segmentation fault)" else null end),
   artifacts: []}
'

SUM_A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
SUM_B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb

# s WORKLOAD VERSION SUM FLOOR SEG PHASE KIND CATEGORY "DURATIONS"
s() {
	jq -n -c --arg w "$1" --arg v "$2" --arg sum "$3" --arg floor "$4" \
		--arg seg "$5" --arg phase "$6" --arg kind "$7" --arg cat "$8" \
		--arg durs "$9" "$jq_sample"
}

# results RUN_ID COMMAND < sample lines
results() {
	jq -s --arg id "$1" --arg cmd "$2" '{schema: "prof.results",
		schema_version: 1, run_id: $id,
		timestamp_utc: "2026-11-29T18:15:00Z", command: $cmd,
		commit: "0123456789abcdef0123456789abcdef01234567",
		samples: .}'
}

{
	s w.warning 1 $SUM_A 1 cpu timing warm pipeline "12.8 13.0 13.0 13.1 13.3"
	s w.warning 1 $SUM_A 1 cpu timing cold pipeline "50.0"
	s w.warning 1 $SUM_A 1 cpu memory warm pipeline "13.5" |
		jq -c '.memory = {host_peak_bytes: 10485760,
			rss_peak_bytes: 20971520, host_allocs: 1000,
			device_allocated_bytes: null, device_reserved_bytes: null,
			device_peak_allocated_bytes: null,
			device_peak_reserved_bytes: null}'
	s w.warning 1 $SUM_A 1 cpu profile warm pipeline "14.0" |
		jq -c '.artifacts = ["w.warning.prof"] |
			.metrics.binary = "/usr/bin/true"'
	s w.under_floor 1 $SUM_A 1 cpu timing warm pipeline "1.28 1.3 1.3 1.31 1.33"
	s w.half 1 $SUM_A 1 cpu timing warm pipeline "9.0 9.5 16.0 17.0"
	s w.version 2 $SUM_A 1 cpu timing warm pipeline "13.0 13.0 13.0"
	s w.checksum 1 $SUM_B 1 cpu timing warm pipeline "13.0 13.0 13.0"
	s w.zero 1 $SUM_A 0 cpu timing warm pipeline "1.0 1.0 1.0"
	s w.new 1 $SUM_A 1 cpu timing warm pipeline "3.0 3.1 2.9"
	s w.gpu 1 $SUM_A 1 gpu timing warm engine "0.5 0.6 0.55"
	s w.gpu 1 $SUM_A 1 gpu memory warm engine "0.6" |
		jq -c '.memory = {host_peak_bytes: 1048576,
			rss_peak_bytes: 52428800, host_allocs: 10,
			device_allocated_bytes: 268435456,
			device_reserved_bytes: 1073741824,
			device_peak_allocated_bytes: 536870912,
			device_peak_reserved_bytes: 1073741824}'
	s w.stable 1 $SUM_A 1 cpu timing warm engine "5.0 5.1 4.9"
	s w.crash 1 null 1 cpu timing warm engine "error"
	s browser.boot 1 null 5 browser browser warm browser "100.0 102.0 98.0"
} | results 20261129T181500Z-c0de "make profile-quick" >current.json

{
	s w.warning 1 $SUM_A 1 cpu timing warm pipeline "9.8 10.0 10.0 10.1 10.2"
	s w.under_floor 1 $SUM_A 1 cpu timing warm pipeline "0.98 1.0 1.0 1.01 1.02"
	s w.half 1 $SUM_A 1 cpu timing warm pipeline "9.9 10.0 10.0 10.1"
	s w.version 1 $SUM_A 1 cpu timing warm pipeline "10.0 10.0 10.0"
	s w.checksum 1 $SUM_A 1 cpu timing warm pipeline "10.0 10.0 10.0"
	s w.zero 1 $SUM_A 0 cpu timing warm pipeline "0 0 0"
	s w.gpu 1 $SUM_A 1 cpu timing warm engine "5.0 5.0 5.0"
	s w.stable 1 $SUM_A 1 cpu timing warm engine "5.0 5.0 5.1"
	s w.crash 1 null 1 cpu timing warm engine "2.0 2.0 2.0"
	s browser.boot 1 null 5 browser browser warm browser "100.0 101.0 99.0"
} | results 20261101T000000Z-ba5e "make profile-quick" >baseline.json

results 20261129T181500Z-e0e0 "make profile-quick" </dev/null >empty.json

s w.fallback 1 $SUM_A 1 fallback timing warm engine "3.0 3.0" |
	results 20261129T181500Z-fa11 "make profile-full BACKEND=gpu" >gpu-fallback.json

{
	s w.stable 1 $SUM_A 1 cpu timing warm engine "5.0"
	s w.stable 1 $SUM_A 1 cpu timing warm engine "5.1" |
		jq -c '.schema_version = 2'
} | results 20261129T181500Z-0d0d "make profile-quick" >mixed-schema.json

# A baseline with a schema error: a duration that is not a number.
jq '.samples[2].duration_ms = "fast"' baseline.json >schema-bad.json

# A results file cut in the middle of a sample.
head -c 3000 current.json >truncated.json
