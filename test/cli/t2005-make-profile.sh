#!/bin/bash
# The make targets: profile-quick, diagnose, baseline-update (and the
# pipeline script under them): the run folder, the files, the exit codes.
. "$(dirname "$0")/lib.sh"
plan 50

D=test/data/results
# make without rebuilding: the tools are built already (make test-build),
# and a build of someone else's half-written code must not fail these.
mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}

# A run whose samples errored: exit 1 (make: 2, and it says 1).
mk profile-quick WORKLOADS="$TW" CATEGORY=test OUTPUT="$T/q" \
	BASELINE="$T/does/not/exist.json"
is "$rc" 2 "make profile-quick with an errored sample fails"
like "$(cat "$err")" \
	"make profile-quick: run finished with exit code 1 (a sample errored)" \
	"and prints the run's exit code, 1"
for f in samples.jsonl results.json comparisons.json summary.md; do
	ok "$([ -s "$T/q/$f" ]; echo $?)" "the run folder has $f"
done
like "$(cat "$out")" "summary: $T/q/summary.md" "the summary's path is printed"
like "$(cat "$out")" "test.ok" "after the compact table"
jq_ok '.command | startswith("make profile-quick CATEGORY=test OUTPUT=")' \
	"$T/q/results.json" "results.json records the make command"
jq_ok '[.samples[] | select(.outcome == "error") | .workload] | sort ==
	["test.crash", "test.invalid"]' "$T/q/results.json" \
	"results hold the error samples"
like "$(cat "$T/q/summary.md")" "- \`test.crash\` (cpu, phase timing, warm #0): worker killed by signal 11" \
	"and the summary lists them"
like "$(cat "$T/q/summary.md")" \
	"**incomparable**: baseline file '$T/does/not/exist.json' not found" \
	"a missing baseline: incomparable"

PROF_BINDIR=$BIN PROF_WORKLOADS=$TW PROF_CATEGORY=test PROF_OUTPUT=$T/q2 \
	PROF_BASELINE=$T/none.json sh fragment/profile.sh quick >"$out" 2>"$err"
is "$?" 1 "the pipeline script itself exits 1"

# profile-full: warmup 2, REPEAT samples, plus one cold sample that is
# recorded but never aggregated.
mk profile-full WORKLOADS="$TW" CATEGORY=test REPEAT=2 OUTPUT="$T/f" \
	BASELINE="$T/none.json"
is "$rc" 2 "make profile-full with an errored sample fails"
like "$(cat "$err")" \
	"make profile-full: run finished with exit code 1 (a sample errored)" \
	"with the run's exit code, 1"
jq_ok '[.samples[] | select(.kind == "cold")] | length == 1' "$T/f/results.json" \
	"the cold sample is in the results"
jq_ok '[.[] | select(.workload | startswith("test.ok")) | .current.n] ==
	[2, 2]' "$T/f/comparisons.json" "and REPEAT warm samples are aggregated"

# A clean run: exit 0, incomparable against a missing baseline.
mk diagnose W=test.ok WORKLOADS="$TW" OUTPUT="$T/d" \
	BASELINE=does/not/exist.json
is "$rc" 0 "make diagnose of a clean workload exits 0"
like "$(cat "$T/d/summary.md")" \
	"**incomparable**: baseline file 'does/not/exist.json' not found" \
	"and summary.md says incomparable"
jq_ok '.command == "make diagnose W=test.ok OUTPUT='"$T"'/d BASELINE=does/not/exist.json WORKLOADS='"$TW"'"' \
	"$T/d/results.json" "the command names the workload"
jq_ok '[.samples[] | select(.phase == "timing")] | length == 5' \
	"$T/d/results.json" "diagnose times 5 samples"
jq_ok '[.samples[].phase] | unique ==
	["instructions", "memory", "profile", "timing"]' \
	"$T/d/results.json" \
	"and merges the memory, diagnostic and instruction-count phases"
like "$(cat "$T/d/summary.md")" "## CPU profile" \
	"whose CPU profile is in the summary"

# The same, compared with a baseline made from it: stable, and still 0.
# FORCE=1: a busy machine's calibration spread may call the run unsteady.
mk baseline-update FROM="$T/d/results.json" NAME=self DIR="$T/bl" FORCE=1
is "$rc" 0 "make baseline-update promotes a clean run"
ok "$([ -s "$T/bl/self.json" ]; echo $?)" "to DIR/NAME.json"

# PLAYWRIGHT rows are merged and compared like timing rows.
jq -c '.samples[] | select(.phase == "browser")' $D/current.json >"$T/pw.jsonl"
mk profile-quick WORKLOADS="$TW" CATEGORY=test OUTPUT="$T/pw" \
	BASELINE="$T/bl/self.json" PLAYWRIGHT="$T/pw.jsonl"
like "$(cat "$err")" "run finished with exit code 1 (a sample errored)" \
	"a run with PLAYWRIGHT rows"
jq_ok '[.samples[] | select(.phase == "browser")] | length == 3' \
	"$T/pw/results.json" "the browser rows are in the results"
jq_ok '.[] | select(.workload == "browser.boot") | .status == "new"' \
	"$T/pw/comparisons.json" "and compared (new: the baseline has none)"
jq_ok '.[] | select(.workload == "test.ok") | .status != "new" and
	.status != "incomparable"' "$T/pw/comparisons.json" \
	"test.ok is judged against its own baseline"

mk profile-quick WORKLOADS="$TW" OUTPUT="$T/pw2" PLAYWRIGHT="$T/none.jsonl"
is "$rc" 2 "a PLAYWRIGHT file that is not there fails"
like "$(cat "$err")" "make profile-quick: PLAYWRIGHT: cannot read '$T/none.jsonl'" \
	"saying so"

# An infrastructure failure: exit 2, no results.
mk profile-quick WORKLOADS="$T/no-such-binary" OUTPUT="$T/x"
is "$rc" 2 "make profile-quick with a missing workload binary fails"
like "$(cat "$err")" \
	"make profile-quick: run finished with exit code 2 (infrastructure or argument failure)" \
	"and prints the run's exit code, 2"
ok "$([ ! -e "$T/x/results.json" ] && [ ! -e "$T/x/summary.md" ]; echo $?)" \
	"and writes no results"
before=$(ls artifacts/profiling 2>/dev/null | wc -l)
mk profile-quick WORKLOADS="$T/no-such-binary"
is "$(ls artifacts/profiling 2>/dev/null | wc -l)" "$before" \
	"and leaves no empty run folder behind"

# A malformed baseline: exit 2, the summary still written.
mk profile-quick WORKLOADS="$TW" CATEGORY=test OUTPUT="$T/m" \
	BASELINE=$D/schema-bad.json
is "$rc" 2 "a malformed baseline fails the run"
like "$(cat "$err")" "run finished with exit code 2 (infrastructure or argument failure)" \
	"with exit code 2"
like "$(cat "$err")" "prof-diff: $D/schema-bad.json: .samples[2].duration_ms: expected a number, got a string" \
	"naming the place"
ok "$([ -s "$T/m/summary.md" ] && [ -s "$T/m/results.json" ]; echo $?)" \
	"results and summary are still written"

# The default run folder: artifacts/profiling/<run id>/.
mk profile-quick WORKLOADS="$TW" CATEGORY=test BASELINE=$D/none.json
like "$(cat "$err")" "run finished with exit code 1" "a run without OUTPUT"
run_dir=$(sed -n 's/^summary: \(.*\)\/summary.md$/\1/p' "$out")
like "$run_dir" "artifacts/profiling/" "goes under artifacts/profiling/"
jq_ok ".run_id == \"${run_dir##*/}\" and
	(.run_id | test(\"^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{4}$\"))" \
	"$run_dir/results.json" "named by its run id"
case "$run_dir" in artifacts/profiling/?*) rm -rf "$run_dir" ;; esac

mk diagnose WORKLOADS="$TW"
is "$rc:$(head -n 1 "$err")" \
	"2:make diagnose: give the workload: make diagnose W=ID" \
	"make diagnose without W fails with exit 2"

# baseline-update refusals: nothing written, the tool's code printed.
mk baseline-update FROM=$D/current.json NAME=x DIR="$T/bl"
is "$rc" 2 "make baseline-update of a run with an error sample fails"
like "$(cat "$err")" \
	"make baseline-update: exit code 1 (the run is unfit to be a baseline; nothing was written)" \
	"printing the code, 1"
ok "$([ ! -e "$T/bl/x.json" ]; echo $?)" "and writes nothing"
mk baseline-update FROM=$D/truncated.json NAME=x DIR="$T/bl"
like "$(cat "$err")" "make baseline-update: exit code 2 (bad arguments or input; nothing was written)" \
	"a malformed results file: code 2"
mk baseline-update NAME=x
is "$rc:$(head -n 1 "$err")" \
	"2:make baseline-update: give FROM=results.json and NAME=name" \
	"FROM is required"

# The real workloads: make profile-quick against a missing baseline.
mk profile-quick OUTPUT="$T/real" BASELINE=does/not/exist.json
is "$rc" 0 "make profile-quick BASELINE=does/not/exist.json exits 0"
like "$(cat "$T/real/summary.md")" "incomparable" \
	"and summary.md says incomparable"
finish
