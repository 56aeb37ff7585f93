#!/bin/bash
# A baseline is never replaced by accident: make baseline-update over a
# name that is there refuses (exit 2, one line with the workloads it holds
# and the run has, nothing written) unless FORCE=1 (replace it) or ADD=1
# (the run's rows replace the baseline's of the same workload x segment x
# phase, the others stay); a run the drift guard called unsteady is
# refused unless FORCE=1, which promotes it and says so.
. "$(dirname "$0")/lib.sh"
plan 21

D=test/data/results
B=$T/bl
mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
workloads() { as_v1 "$1" | jq -r '[.samples[].workload] | unique | join(" ")'; }

# A run of one workload, twice as slow as the baseline's.
jq '.run_id = "run-one" | .samples[0].workload as $w |
	.samples |= map(select(.workload == $w) |
	if .duration_ms then .duration_ms *= 2 else . end)' \
	$D/baseline.json >"$T/one.json"
one=$(jq -r '.samples[0].workload' "$T/one.json")
all=$(workloads $D/baseline.json)
n_all=$(jq '[.samples[].workload] | unique | length' $D/baseline.json)
n=$(jq '.samples | length' $D/baseline.json)
n_one=$(jq '.samples | length' "$T/one.json")

mk baseline-update FROM=$D/baseline.json NAME=local DIR="$B"
is "$rc" 0 "a first baseline of its name is promoted"
cp "$B/local.json" "$T/before.json"

mk baseline-update FROM="$T/one.json" NAME=local DIR="$B"
is "$rc" 2 "over a larger baseline of that name: refused"
is "$(head -n 1 "$err")" \
	"prof-baseline: '$B/local.json' is there with $n_all workloads, run 'run-one' has 1: give --add (make: ADD=1) to add the run's rows to it, or --force (FORCE=1) to replace it" \
	"one line with the workloads of both"
is "$(sed -n 2p "$err")" \
	"make baseline-update: exit code 2 (bad arguments or input; nothing was written)" \
	"and make's exit code"
is "$(md5sum <"$B/local.json")" "$(md5sum <"$T/before.json")" \
	"the baseline is left as it was"
run prof-baseline --from $D/baseline.json --name local --output "$B"
is "$rc" 2 "the same run again is refused too"

# ADD=1: the run's rows replace those of its workload, the others stay.
mk baseline-update FROM="$T/one.json" NAME=local DIR="$B" ADD=1
is "$rc" 0 "ADD=1 adds the run's rows"
is "$(errline)" \
	"prof-baseline: added run 'run-one' ($n_one samples) to '$B/local.json': $n_one samples of its rows replaced, $((n - n_one)) of other rows kept" \
	"and says what it replaced and kept"
is "$(workloads "$B/local.json")" "$all" "every workload is still there"
is "$(as_v1 "$B/local.json" | jq --arg w "$one" '[.samples[] |
	select(.workload == $w) | .duration_ms // 0] | add')" \
	"$(jq '[.samples[].duration_ms // 0] | add' "$T/one.json")" \
	"the run's workload has the run's numbers"
is "$(as_v1 "$B/local.json" | jq --arg w "$one" -c '[.samples[] |
	select(.workload != $w)] | sort_by(.workload, .index)')" \
	"$(as_v1 "$T/before.json" | jq --arg w "$one" -c '[.samples[] |
	select(.workload != $w)] | sort_by(.workload, .index)')" \
	"the other workloads' samples are as they were"

# FORCE=1 replaces it whole.
mk baseline-update FROM="$T/one.json" NAME=local DIR="$B" FORCE=1
is "$rc:$(errline)" \
	"0:prof-baseline: promoted run 'run-one' ($n_one samples) to '$B/local.json'" \
	"FORCE=1 replaces it"
is "$(workloads "$B/local.json")" "$one" "with the run's one workload"

# A run on an unsteady machine (calibration spread above 10%).
jq '.run_id = "run-shaky" | .calibration = {"kernel": "prof-calib-1",
	"points": [{"at": "start", "int_ms": 1, "mem_ms": 1, "ms": 2},
	{"at": "end", "int_ms": 1.24, "mem_ms": 1.24, "ms": 2.48}],
	"n": 2, "min_ms": 2, "median_ms": 2, "max_ms": 2.48,
	"spread_pct": 24, "machine": null}' $D/baseline.json >"$T/shaky.json"
mk baseline-update FROM="$T/shaky.json" NAME=shaky DIR="$B"
is "$rc:$(head -n 1 "$err")" \
	"2:prof-baseline: refusing '$T/shaky.json': the machine was unsteady during this run (calibration spread 24%, above 10%), so its times may be noise; run it again on a calm machine, or give --force (make: FORCE=1) to promote it all the same" \
	"an unsteady run is refused, saying why"
is "$(sed -n 2p "$err")" \
	"make baseline-update: exit code 1 (the run is unfit to be a baseline; nothing was written)" \
	"as unfit, exit 1"
ok "$([ ! -e "$B/shaky.json" ]; echo $?)" "nothing is written"
mk baseline-update FROM="$T/shaky.json" NAME=local DIR="$B" ADD=1
is "$rc:$(workloads "$B/local.json")" "2:$one" "ADD=1 does not let it in"
mk baseline-update FROM="$T/shaky.json" NAME=shaky DIR="$B" FORCE=1
is "$rc:$(errline)" \
	"0:prof-baseline: promoted run 'run-shaky' ($n samples) to '$B/shaky.json'; the machine was unsteady during this run (calibration spread 24%, above 10%)" \
	"FORCE=1 promotes it, and says so"

# A baseline that is there but not one: --force replaces it.
echo '{"old": true}' >"$B/odd.json"
run prof-baseline --from $D/baseline.json --name odd --output "$B"
is "$rc:$(cat "$B/odd.json")" "2:{\"old\": true}" \
	"a file of that name that is no baseline is refused and kept"
like "$(errline)" "does not read as a baseline" "saying what it is"
run prof-baseline --from $D/baseline.json --name odd --output "$B" --force
is "$rc:$(workloads "$B/odd.json")" "0:$all" "--force replaces it"
finish
