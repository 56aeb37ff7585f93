#!/bin/sh
# seed.sh: (re)make the seed corpus of each fuzz target from the test data.
# The test data files themselves are not copied: run.sh reads their
# folders as seeds too (one copy of each file).
#
#   sh test/fuzz/seed.sh
#
# Writes test/fuzz/corpus/<target>/seed-*; files named crash-* and slow-*
# (inputs that once found a defect, kept as regression tests;
# test/fuzz/corpus/README) are left alone.
set -eu
cd "$(dirname "$0")/../.."
C=test/fuzz/corpus
for t in json results browser svg path http callgrind dhat gbench; do
	mkdir -p "$C/$t"
	rm -f "$C/$t"/seed-*
done

# JSON and results: the results files' samples as JSON lines (the files
# are test/data/results/, which run.sh reads).
for f in test/data/results/*.json; do
	n=$(basename "$f" .json)
	if jq -e '.samples | length > 0' "$f" >/dev/null 2>&1; then
		jq -c '.samples[]' "$f" | head -n 4 >"$C/results/seed-$n.jsonl"
		jq -c '.samples[0]' "$f" >"$C/json/seed-$n-sample"
	fi
done
printf '%s\n' '[1,-0,1.5e3,"\u00e9\ud83d\ude00",{"a":{"b":[null,true,false]}}]' \
	>"$C/json/seed-mixed"
printf '%s\n' '{"a":1}' '' '{"b":[2,3]}' >"$C/json/seed-lines"

# Browser rows: both forms (t2007's).
cat >"$C/browser/seed-new" <<'ROWS'
{"workload":"browser.large_viewport","workload_version":1,"fixture":"dense-circles-8000","fixture_checksum":"abc","warning_floor_ms":50,"backend":"chromium","kind":"warm","index":0,"outcome":"success","duration_ms":412.25,"metrics":{"shapes":8000,"layout_ms":12.5},"reason":null,"env":{"browser":"Chromium 156.0.8078.108","viewport":"2560x1600"}}
{"workload":"browser.boot","fixture":"viewer","backend":"chromium","duration_ms":95.5,"metrics":{"script_ms":3.25},"env":{"browser":"Chromium 156.0.8078.108","viewport":"1280x800"}}
{"workload":"browser.boot","fixture":"viewer","backend":"chromium","outcome":"error","reason":"Timeout 60000ms exceeded","duration_ms":null,"env":{"browser":"Chromium 156.0.8078.108"}}
ROWS
cat >"$C/browser/seed-old" <<'ROWS'
{"story": "boot", "duration_ms": 812.5, "pfm": 3, "shapes": 0}

{"story": "boot", "duration_ms": 790}
ROWS

# Callgrind: the test dumps are test/data/callgrind/ and test/data/why/
# (run.sh reads them); here a CALLS HZ line (the target reads the bytes as
# both).
printf '2 1000\n' >"$C/callgrind/seed-calls"

# DHAT: the test outputs are test/data/dhat/; compact forms of them, a
# program that is no prof worker (no timed_call: every point counted), a
# thread of run()'s (its stack starts at start_thread), and the smallest
# file the reader takes.
jq -c . test/data/dhat/after.json >"$C/dhat/seed-after-compact"
jq -c '.ftbl |= map(sub("timed_call|prof_worker_run"; "other"))' \
	test/data/dhat/before.json >"$C/dhat/seed-process"
jq -c '.ftbl += ["0x4000: start_thread (in /usr/lib/x86_64-linux-gnu/libc.so.6)"] |
	.pps[0].fs = [1, 2, (.ftbl | length - 1)]' \
	test/data/dhat/before.json >"$C/dhat/seed-thread"
printf '%s\n' '{"dhatFileVersion":2,"mode":"heap","pps":[{"tb":1,"tbk":1,"mb":1,"fs":[0]}],"ftbl":["[root]"]}' \
	>"$C/dhat/seed-smallest"

# SVG: every test file, good and bad, is test/data/svg/ (run.sh reads it).

# Path data and transforms: the attribute values of the test files.
i=0
for f in test/data/svg/*.svg; do
	grep -o -E '( d| transform| r| width)="[^"]*"' "$f" |
		sed -E 's/^ [a-z]+="(.*)"$/\1/'
done | sort -u | while IFS= read -r v; do
	i=$((i + 1))
	printf '%s' "$v" >"$C/path/seed-$i"
done

# HTTP: requests on every route, with bodies from the SVG test data.
req() { # NAME METHOD PATH [BODYFILE]
	{
		printf '%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n' "$2" "$3"
		if [ $# -gt 3 ]; then
			printf 'Content-Type: image/svg+xml\r\n'
			printf 'Content-Length: %s\r\n\r\n' "$(wc -c <"$4")"
			cat "$4"
		else
			printf '\r\n'
		fi
	} >"$C/http/seed-$1"
}
req index GET /
req script GET /viewer.js
req head HEAD /index.html
req preview GET /api/preview.svg
req favicon GET /favicon.ico
req nope GET /nope
req delete DELETE /api/flatten
req flatten POST /api/flatten test/data/svg/circle.svg
req flatten-step POST '/api/flatten?step=2&tolerance=0.1' test/data/svg/cubic.svg
req plan POST /api/plan test/data/svg/path-lines.svg
req bad-svg POST /api/flatten test/data/svg/bad-unclosed.svg
{
	printf 'POST /api/plan HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'
	printf '10\r\n<svg xmlns="http:\r\n'
	printf '2f\r\n//www.w3.org/2000/svg"><line x2="5" stroke="red"/>\r\n'
	printf '6\r\n</svg>\r\n0\r\n\r\n'
} >"$C/http/seed-chunked"
{
	printf 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'
	printf 'GET /viewer.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
} >"$C/http/seed-pipeline"
printf 'POST /api/flatten HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n' \
	>"$C/http/seed-too-long"
printf 'GET / HTTP/1.0\r\n\r\n' >"$C/http/seed-http10"
# A body that could end in two places: refused with 400, then closed.
{
	printf 'POST /api/flatten HTTP/1.1\r\nHost: x\r\n'
	printf 'Content-Length: 0\r\nContent-Length: 46\r\n\r\n'
	printf 'GET /api/preview.svg HTTP/1.1\r\nHost: x\r\n\r\n'
} >"$C/http/seed-two-lengths"
{
	printf 'POST /api/plan HTTP/1.1\r\nHost: x\r\n'
	printf 'Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n'
	printf '5\r\n<svg>\r\n0\r\n\r\n'
} >"$C/http/seed-chunked-and-length"

# Google Benchmark JSON: what libbenchmark 1.7.1 writes for
# gbench-tiny.cc with --benchmark_repetitions=2 (repetitions, their
# aggregates after them, a benchmark that failed); the same with its keys
# sorted (jq -S: the context after the list); aggregates alone; and
# names whose filter needs the regular expression's characters escaped
# (the target's first line is also a name).
cat >"$C/gbench/seed-repetitions" <<'JSON'
{
  "context": {
    "date": "2026-12-01T23:59:02+00:00",
    "host_name": "vm",
    "executable": "./tiny",
    "num_cpus": 2,
    "mhz_per_cpu": 2445,
    "cpu_scaling_enabled": false,
    "caches": [
      {
        "type": "Data",
        "level": 1,
        "size": 32768,
        "num_sharing": 1
      },
      {
        "type": "Instruction",
        "level": 1,
        "size": 32768,
        "num_sharing": 1
      },
      {
        "type": "Unified",
        "level": 2,
        "size": 524288,
        "num_sharing": 1
      },
      {
        "type": "Unified",
        "level": 3,
        "size": 33554432,
        "num_sharing": 2
      }
    ],
    "load_avg": [16.1284,16.0029,14.8398],
    "library_build_type": "debug"
  },
  "benchmarks": [
    {
      "name": "BM_crc32/64",
      "family_index": 0,
      "per_family_instance_index": 0,
      "run_name": "BM_crc32/64",
      "run_type": "iteration",
      "repetitions": 2,
      "repetition_index": 0,
      "threads": 1,
      "iterations": 1,
      "real_time": 8.8248540005224645e+06,
      "cpu_time": 4.4343000000000073e+04,
      "time_unit": "ns",
      "bytes": 6.4000000000000000e+01
    },
    {
      "name": "BM_crc32/64",
      "family_index": 0,
      "per_family_instance_index": 0,
      "run_name": "BM_crc32/64",
      "run_type": "iteration",
      "repetitions": 2,
      "repetition_index": 1,
      "threads": 1,
      "iterations": 1,
      "real_time": 1.4019997252034955e+03,
      "cpu_time": 1.1519999999999238e+03,
      "time_unit": "ns",
      "bytes": 6.4000000000000000e+01
    },
    {
      "name": "BM_crc32/64_mean",
      "family_index": 0,
      "per_family_instance_index": 0,
      "run_name": "BM_crc32/64",
      "run_type": "aggregate",
      "repetitions": 2,
      "threads": 1,
      "aggregate_name": "mean",
      "aggregate_unit": "time",
      "iterations": 2,
      "real_time": 4.4131280001238342e+06,
      "cpu_time": 2.2747500000000000e+04,
      "time_unit": "ns",
      "bytes": 6.4000000000000000e+01
    },
    {
      "name": "BM_crc32/64_median",
      "family_index": 0,
      "per_family_instance_index": 0,
      "run_name": "BM_crc32/64",
      "run_type": "aggregate",
      "repetitions": 2,
      "threads": 1,
      "aggregate_name": "median",
      "aggregate_unit": "time",
      "iterations": 2,
      "real_time": 4.4131280001238342e+06,
      "cpu_time": 2.2747500000000000e+04,
      "time_unit": "ns",
      "bytes": 6.4000000000000000e+01
    },
    {
      "name": "BM_crc32/64_stddev",
      "family_index": 0,
      "per_family_instance_index": 0,
      "run_name": "BM_crc32/64",
      "run_type": "aggregate",
      "repetitions": 2,
      "threads": 1,
      "aggregate_name": "stddev",
      "aggregate_unit": "time",
      "iterations": 2,
      "real_time": 6.2391227432377534e+06,
      "cpu_time": 3.0540648986228280e+04,
      "time_unit": "ns",
      "bytes": 0.0000000000000000e+00
    },
    {
      "name": "BM_crc32/64_cv",
      "family_index": 0,
      "per_family_instance_index": 0,
      "run_name": "BM_crc32/64",
      "run_type": "aggregate",
      "repetitions": 2,
      "threads": 1,
      "aggregate_name": "cv",
      "aggregate_unit": "percentage",
      "iterations": 2,
      "real_time": 1.4137642830805455e+00,
      "cpu_time": 1.3425936470481714e+00,
      "time_unit": "ns",
      "bytes": 0.0000000000000000e+00
    },
    {
      "name": "BM_fails",
      "family_index": 1,
      "per_family_instance_index": 0,
      "run_name": "BM_fails",
      "run_type": "iteration",
      "repetitions": 2,
      "repetition_index": 0,
      "threads": 1,
      "error_occurred": true,
      "error_message": "no input here",
      "iterations": 1,
      "real_time": 0.0000000000000000e+00,
      "cpu_time": 0.0000000000000000e+00,
      "time_unit": "ns"
    },
    {
      "name": "BM_fails",
      "family_index": 1,
      "per_family_instance_index": 0,
      "run_name": "BM_fails",
      "run_type": "iteration",
      "repetitions": 2,
      "repetition_index": 1,
      "threads": 1,
      "error_occurred": true,
      "error_message": "no input here",
      "iterations": 1,
      "real_time": 0.0000000000000000e+00,
      "cpu_time": 0.0000000000000000e+00,
      "time_unit": "ns"
    }
  ]
}
JSON
jq -S . "$C/gbench/seed-repetitions" >"$C/gbench/seed-sorted"
jq '.benchmarks |= map(select(.run_type == "aggregate"))' \
	"$C/gbench/seed-repetitions" >"$C/gbench/seed-aggregates-only"
jq -c '.benchmarks |= [.[0] | (.name = "BM_set[3]/{2}"),
	(.name = "BM_a(b)|c+d?*.^$\\\\", .repetition_index = 1)]' \
	"$C/gbench/seed-repetitions" >"$C/gbench/seed-names"
printf 'BM_map{2}[x](y)\n' >"$C/gbench/seed-name-line"

# One copy of each seed: a file made twice (two results files whose first
# sample is the same line) is kept once, under its first name.
for t in json results browser svg path http callgrind dhat gbench; do
	for f in "$C/$t"/seed-*; do
		[ -f "$f" ] && sha1sum "$f"
	done | sort -s -k1,1 | awk 'seen[$1]++ { print $2 }' |
		while IFS= read -r f; do rm -f "$f"; done
done
