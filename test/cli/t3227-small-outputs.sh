#!/bin/bash
# Smaller ones of issue 19, item 19: prof-report's two outputs (--html -
# wrote a file named '-'; -o F --html F overwrote F), a zombie counted as
# a process left running, and prof-count -- FOLDER said exit 1 where the
# other tools say "cannot run", exit 2.
. "$(dirname "$0")/lib.sh"
plan 12

D=test/data/results
cd "$T" || exit 1
run prof-report -q -o x.md --html - "$ROOT/$D/current.json"
is "$rc:$(errline)" \
	"2:prof-report: --html: stdout ('-') carries the summary or its table; give the page a file" \
	"--html -: exit 2"
ok "$([ ! -e ./- ] && [ ! -e x.md ]; echo $?)" "no file named '-', no summary"
run prof-report -q -o F --html F "$ROOT/$D/current.json"
is "$rc:$(errline)" \
	"2:prof-report: --html: 'F' is the summary's file too; give the page a file of its own" \
	"-o F --html F: exit 2"
ok "$([ ! -e F ]; echo $?)" "nothing written"
echo old >G
run prof-report -q -o G --html ./G "$ROOT/$D/current.json"
is "$rc:$(cat G)" "2:old" "-o G --html ./G: exit 2, G untouched"
mkdir d
run prof-report -q -o d/s.md --html "$T/d/../d/s.md" "$ROOT/$D/current.json"
is "$rc" 2 "one file named two ways, not there yet: exit 2"
run prof-report -q -o d/s.md --html d/r.html "$ROOT/$D/current.json"
is "$rc" 0 "two files: exit 0"
cd "$ROOT" || exit 1

# A zombie (a child that exited, never reaped by its parent) is not a
# process left running; a process that runs on is.
run prof-time --name z --repeat 1 --warmup 0 -o "$T/z.jsonl" -- \
	sh -c 'true & exec sleep 0.3'
jq_ok '.metrics.stray_processes == 0' "$T/z.jsonl" \
	"a zombie is not counted as left running"
is "$(grep -c 'left .* running' "$err")" 0 "and nothing is said of it"
run prof-time --name s --repeat 1 --warmup 0 -o "$T/s.jsonl" -- \
	sh -c 'sleep 60 & exit 0'
jq_ok '.metrics.stray_processes == 1' "$T/s.jsonl" \
	"a process that runs on still is"

# prof-count -- FOLDER: "cannot run", exit 2, as prof-time says.
run prof-time --name d -q -o "$T/t.jsonl" -- /tmp
t="$rc:$(errline | sed 's/^prof-time//')"
run prof-count --name d -q -o "$T/c.jsonl" -- /tmp
is "$rc:$(errline)" "2:prof-count: cannot run '/tmp': Permission denied" \
	"prof-count -- /tmp: exit 2, cannot run"
is "$rc:$(errline | sed 's/^prof-count//')" "$t" "the words prof-time says"
finish
