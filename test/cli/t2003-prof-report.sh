#!/bin/bash
# prof-report: summary.md (header, rows with memory peaks and deltas,
# errors, CPU profiles), the compact table, and CI annotations.
. "$(dirname "$0")/lib.sh"
plan 33

D=test/data/results
R=$T/run
mkdir "$R"
cp $D/current.json "$R/results.json"
"$BIN/prof-diff" --baseline $D/baseline.json -o "$R/comparisons.json" \
	"$R/results.json"
touch "$R/w.warning.prof"

# A stand-in for google-pprof: its arguments, then 25 functions.
cat >"$T/pprof" <<FAKE
#!/bin/sh
echo "\$*" >"$T/pprof.args"
echo "Using local file \$3."
echo "Total: 25 samples"
i=1
while [ \$i -le 25 ]; do
	echo "       1   4.0%  50.0%        1   4.0% func_\$i"
	i=\$((i + 1))
done
FAKE
chmod +x "$T/pprof"

env -u GITHUB_ACTIONS PROF_PPROF="$T/pprof" "$BIN/prof-report" \
	--comparisons "$R/comparisons.json" "$R/results.json" >"$out" 2>"$err"
rc=$?
is "$rc" 0 "a run with warnings and an error sample reports, exit 0"
S=$R/summary.md
ok "$([ -s "$S" ]; echo $?)" "summary.md is in the run folder"
summary=$(cat "$S")

like "$summary" '| run | `20261129T181500Z-c0de` |' "the header has the run id"
like "$summary" '| command | `make profile-quick` |' "the command"
like "$summary" '| commit | `0123456789abcdef0123456789abcdef01234567` |' \
	"the commit"
like "$summary" '| timestamp (UTC) | 2026-11-29T18:15:00Z |' "the timestamp"
like "$summary" '| error samples | 1 |' "and the number of error samples"
like "$summary" \
	"- CPU Test CPU 3000 (x86_64, 4 CPUs); OS Debian GNU/Linux 12 (bookworm), linux 6.1.0-18; compiler gcc 12.2.0; backend cpu; device none" \
	"the CPU segment in words"
like "$summary" "backend gpu; device NVIDIA H200 (compute capability 9.0, CUDA runtime 12.4, driver 12.4)" \
	"the GPU segment in words"

like "$summary" \
	'| `w.warning` | cpu | 5 | 12.800 ms | 13.000 ms | - | - | 13.300 ms | 13.300 ms | 10.0 MiB | - | +3.000 ms | +30.0% | 1.300 | 0.012 | warning |' \
	"a row: n, min, median, CPU (none here), contended, p90, max, host peak, delta ms and %, ratio, p, status"
like "$summary" \
	'| `w.gpu` | gpu | 3 | 500.000 µs | 550.000 µs | - | - | 600.000 µs | 600.000 µs | 1.0 MiB | 512.0 MiB | - | - | - | - | new |' \
	"host and GPU peaks apart"
like "$summary" \
	'| `w.half` | cpu | 4 | 9.000 ms | 12.750 ms | - | - | 17.000 ms | 17.000 ms | - | - | +2.750 ms | +27.5% | 1.275 | 1 | stable |' \
	"an even-n row"
like "$summary" \
	'| `browser.boot` | chromium | 3 | 98.000 ms | 100.000 ms | - | - | 102.000 ms | 102.000 ms |' \
	"a browser row"
like "$summary" \
	'- `w.version` (cpu): **incomparable**: workload version 2 != baseline 1' \
	"each status's reason under the table"

like "$summary" "## Errors

- \`w.crash\` (cpu, phase timing, warm #0): worker killed by signal 11 (SIGSEGV: Segmentation fault)" \
	"the Errors section lists each error sample with phase and reason"

is "$(cat "$T/pprof.args")" "--text -- /usr/bin/true $R/w.warning.prof" \
	"pprof --text BINARY FILE, the file relative to the run folder"
like "$summary" "### \`w.warning\` (cpu): \`w.warning.prof\`" \
	"the CPU profile section names the workload"
like "$summary" "Total: 25 samples" "and shows the profile's total"
like "$summary" "func_20" "and its top 20 functions"
ok "$(grep -q func_21 "$S"; [ $? = 1 ]; echo $?)" "and no more"

like "$(cat "$out")" "workload                             backend     n       median        cpu contended          p90    delta  ratio       p  status" \
	"a compact table on stdout, with the ratio and the p-value"
like "$(cat "$out")" "w.warning                            cpu         5    13.000 ms          -         -    13.300 ms   +30.0%  1.300   0.012  warning" \
	"a row of it"
ok "$(grep -q '::warning' "$out"; [ $? = 1 ]; echo $?)" \
	"no annotations outside GitHub Actions"

GITHUB_ACTIONS=true PROF_PPROF="$T/pprof" "$BIN/prof-report" -q \
	--comparisons "$R/comparisons.json" "$R/results.json" >"$out" 2>"$err"
is "$(cat "$out")" \
	"::warning title=Performance regression::w.warning (cpu): median 13.000 ms vs baseline 10.000 ms, +30.0%25 (+3.000 ms)" \
	"on GitHub Actions, one annotation per warning (-q: no table)"

rm "$R/w.warning.prof"
run prof-report --comparisons "$R/comparisons.json" "$R/results.json"
is "$rc" 0 "a missing .prof is noted, not fatal"
like "$(cat "$S")" "No profile: $R/w.warning.prof: No such file or directory." \
	"the summary says why"

run prof-report -o - "$R/results.json"
is "$rc" 0 "without comparisons"
like "$(cat "$out")" "No baseline comparison was made." \
	"the summary has no baseline columns (-o -: on stdout)"

"$BIN/prof-diff" --baseline "$T/missing.json" -o "$T/c2.json" "$R/results.json"
run prof-report --comparisons "$T/c2.json" -o "$T/s2.md" "$R/results.json"
like "$(cat "$T/s2.md")" \
	"**incomparable**: baseline file '$T/missing.json' not found" \
	"a missing baseline: the summary says incomparable"

echo '[{"run_id": "x", "workload": 1}]' >"$T/badc.json"
run prof-report --comparisons "$T/badc.json" -o "$T/s3.md" "$R/results.json"
is "$rc:$(errline)" \
	"2:prof-report: $T/badc.json: [0].workload: expected a string, got a number" \
	"a malformed comparisons file is exit 2 with its place"
ok "$([ ! -e "$T/s3.md" ]; echo $?)" "and nothing is written"

run prof-report
is "$rc" 2 "no results file is exit 2"

# The real google-pprof on a real profile, where gperftools is here.
lib=$(ls /usr/lib/*/libprofiler.so.0 /usr/lib/libprofiler.so.0 2>/dev/null | head -n 1)
if command -v google-pprof >/dev/null && [ -n "$lib" ]; then
	jq_bin=$(command -v jq)
	CPUPROFILE="$R/jq.prof" CPUPROFILE_FREQUENCY=1000 LD_PRELOAD="$lib" \
		"$jq_bin" -n '[range(200000)] | map(. * 2) | add' >/dev/null 2>&1
	jq --arg b "$jq_bin" '.samples |= map(select(.phase == "profile") |
		.artifacts = ["jq.prof"] | .metrics.binary = $b)' \
		$D/current.json >"$R/results.json"
	run prof-report -q "$R/results.json"
	like "$(cat "$S")" "Total: " "google-pprof --text reads a real profile"
else
	skip "google-pprof or libprofiler.so is not installed"
fi
finish
