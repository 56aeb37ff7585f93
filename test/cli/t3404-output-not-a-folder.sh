#!/bin/bash
# OUTPUT that is a file, or a path through one: refused in one line (exit
# 2) before anything runs, the file as it was (it was "mkdir: cannot
# create directory '...': File exists" and then "cannot create the run
# folder"). run_folder in fragment/run-lib.sh, for every target.
. "$(dirname "$0")/lib.sh"
plan 6

mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
# lines: what the target says (not make's own line).
lines() {
	grep -v '^make: \*\*\*' "$err"
}
FAIL="run finished with exit code 2 (infrastructure or argument failure)"

echo '{"kept": true}' >"$T/f.json"
mk profile-quick WORKLOADS="$TW" CATEGORY=test OUTPUT="$T/f.json"
is "$rc:$(lines)" "2:make profile-quick: OUTPUT '$T/f.json' is not a folder: a run is written only into a new or empty folder; give a new folder
make profile-quick: $FAIL" "OUTPUT a file: exit 2, one line naming it"
is "$(cat "$T/f.json")" '{"kept": true}' "the file is as it was"
mk compare AGAINST="$TW" WORKLOADS="$TW" CATEGORY=test OUTPUT="$T/f.json"
is "$rc:$(head -n 1 "$err")" "2:make compare: OUTPUT '$T/f.json' is not a folder: a run is written only into a new or empty folder; give a new folder" \
	"make compare too"
mk merge-shards DIR="$T" OUTPUT="$T/f.json"
like "$rc:$(head -n 1 "$err")" "2:make merge-shards: OUTPUT '$T/f.json' is not a folder" \
	"make merge-shards too"

mk profile-quick WORKLOADS="$TW" CATEGORY=test OUTPUT="$T/f.json/run"
is "$rc:$(lines)" "2:make profile-quick: cannot create the run folder '$T/f.json/run': Not a directory
make profile-quick: $FAIL" "a path through a file: one line with mkdir's reason"
is "$(cat "$T/f.json")" '{"kept": true}' "and the file is as it was"
finish
