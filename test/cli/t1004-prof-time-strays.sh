#!/bin/bash
# A command's own process is timed, not what it leaves behind: the clock
# stops when the command is reaped; every descendant still running then is
# killed (its group, and any that escaped with setsid) and counted.
. "$(dirname "$0")/lib.sh"
plan 14

# The background child writes its pid, then holds stdout and stderr open.
bg='sleep 30 & echo $! > "$1"; exit 0'
run prof-time --name c.bg --repeat 1 --timeout 20 -- sh -c "$bg" sh "$T/pid1"
is "$rc" 0 "a command that leaves a background child is a success"
jq_ok '.outcome == "success" and .metrics.exit_status == 0' "$out" \
	"its sample is the command's, not a timeout"
jq_ok '.metrics.stray_processes == 1' "$out" "the stray child is counted"
pid=$(cat "$T/pid1")
kill -0 "$pid" 2>/dev/null
is "$?" 1 "and it does not outlive the run"
like "$(cat "$err")" \
	"prof-time: c.bg: the command left 1 process(es) running when it exited: killed, and not timed (metrics.stray_processes)" \
	"and the user is told"

# A child holding stderr used to turn every sample into a false timeout.
run prof-time --name c.bg2 --repeat 2 --timeout 3 -- sh -c 'sleep 20 & exit 0'
is "$rc" 0 "a child outliving --timeout is no timeout of the command"
jq_ok -s 'length == 2 and all(.[]; .outcome == "success")' "$out" \
	"both samples succeed"

# setsid: a new session and process group; the subreaper still finds it.
sid='setsid sh -c '\''echo $$ > "$0"; exec sleep 30'\'' "$1" & 
	while [ ! -s "$1" ]; do sleep 0.01; done; exit 0'
run prof-time --name c.sid --repeat 1 --timeout 20 -- sh -c "$sid" sh "$T/pid2"
is "$rc" 0 "a command whose child escaped with setsid is a success"
jq_ok '.metrics.stray_processes >= 1' "$out" "the escaped child is counted"
pid=$(cat "$T/pid2")
kill -0 "$pid" 2>/dev/null
is "$?" 1 "and killed"

# A command that leaves nothing has nothing counted and no note.
run prof-time --name c.clean --repeat 2 -- true
jq_ok -s 'all(.[]; .metrics.stray_processes == 0)' "$out" \
	"a clean command has no strays"
is "$(grep -c 'left' "$err")" 0 "and no note"

# A worker that leaves a child behind: its samples still arrive, and the
# group ends without waiting for the child.
run prof-time --name c.out --repeat 1 -- sh -c 'echo hi; (sleep 30 >&2 &); exit 0'
is "$rc" 0 "a grandchild holding stderr does not hold the run"
jq_ok '.metrics.stray_processes == 1' "$out" \
	"the orphaned grandchild is found through the subreaper"
finish
