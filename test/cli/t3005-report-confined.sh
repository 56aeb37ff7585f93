#!/bin/bash
# prof-report reads artifacts only inside the run folder and never passes
# a value of a results file as an option (issue 14, item 7); what it prints
# to a terminal or a CI log is escaped, and run ids follow the id rule
# (item 8).
. "$(dirname "$0")/lib.sh"
plan 17

D=test/data/results
R=$T/run
mkdir -p "$R"
# A stand-in for google-pprof that records that it ran, and how.
cat >"$T/pprof" <<FAKE
#!/bin/sh
echo "\$*" >>"$T/pprof.args"
echo "Total: 1 samples"
FAKE
chmod +x "$T/pprof"
report() {
	rm -f "$T/pprof.args"
	run env -u GITHUB_ACTIONS PROF_PPROF="$T/pprof" "$BIN/prof-report" \
		-o "$T/s.md" "$@"
}

for a in ../x.prof /etc/x.prof sub/../../x.prof -x.prof; do
	jq --arg a "$a" '.samples[7].artifacts = [$a]' $D/current.json \
		>"$R/results.json"
	report "$R/results.json"
	is "$rc:$(errline)" \
		"2:prof-report: $R/results.json: .samples[7].artifacts[0]: not a path inside the run folder (relative, no '..', no leading '-', no control characters)" \
		"artifact '$a' is refused with its JSON path"
done
ok "$([ ! -e "$T/pprof.args" ]; echo $?)" "pprof never ran"
jq -c '.samples[7] | .artifacts = ["../x.prof"]' $D/current.json >"$T/p.jsonl"
run prof-merge "$T/p.jsonl"
like "$rc:$(errline)" "2:prof-merge: $T/p.jsonl:1: .artifacts[0]: not a path inside" \
	"prof-merge refuses it too"

# A link that leads out of the run folder is not followed.
echo secret >"$T/outside.prof"
ln -s ../outside.prof "$R/w.warning.prof"
cp $D/current.json "$R/results.json"
report "$R/results.json"
is "$rc" 0 "a link out of the run folder: the report is still written"
ok "$([ ! -e "$T/pprof.args" ]; echo $?)" "but pprof is not run on it"
like "$(cat "$T/s.md")" "No profile: $R/w.warning.prof leads outside the run folder." \
	"and the summary says why"
rm "$R/w.warning.prof"
echo profile >"$R/w.warning.prof"

# metrics.binary that looks like an option never reaches pprof.
jq '.samples[7].metrics.binary = "--help"' $D/current.json >"$R/results.json"
report "$R/results.json"
is "$rc" 0 "a binary named like an option: the report is written"
ok "$([ ! -e "$T/pprof.args" ]; echo $?)" "pprof is not run"
like "$(cat "$T/s.md")" "No profile: metrics.binary '--help' is not an absolute path." \
	"the summary says why"
cp $D/current.json "$R/results.json"
report "$R/results.json"
is "$(cat "$T/pprof.args")" "--text -- /usr/bin/true $R/w.warning.prof" \
	"a good profile: pprof gets '--' before the values"

# A commit follows its rule (id.h), so it cannot start a workflow command
# (issue 19, item 11).
jq '.commit = "abc\n::error ::x"' $D/current.json >"$R/results.json"
run env GITHUB_ACTIONS=true PROF_PPROF="$T/pprof" "$BIN/prof-report" \
	-o "$T/s2.md" "$R/results.json"
is "$rc" 2 "a commit with a newline is refused"
is "$(grep -c '^::' "$out")" 0 "no workflow command is printed"
like "$(errline)" ".commit: not a valid commit: byte 0x0a at offset 3" \
	"the error names the commit's path"
jq '.run_id = "r\n::error ::x"' $D/current.json >"$R/results.json"
run prof-report -o "$T/s.md" "$R/results.json"
is "$rc:$(errline)" \
	"2:prof-report: $R/results.json: .run_id: not a valid run id: byte 0x0a at offset 1 is not allowed (letters, digits, '.', '_' and '-')" \
	"a run id follows the id rule"
finish
