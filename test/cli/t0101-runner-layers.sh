#!/bin/bash
# src/runner reads top-down: dispatch (options.c) chooses a mode, each mode
# (workloads, command, ab, count) does one way of running, and the services
# below them are shared; calls go downwards only, never across two modes
# and never in a circle. Checked on the objects: which file's global
# symbols each file uses (nm).
. "$(dirname "$0")/lib.sh"

OBJ=$ROOT/${PROF_BUILD:-build}/src/runner
command -v nm >/dev/null || skip_all "nm is not installed"
plan 6

dispatch="options"
modes="workloads command ab count"
# Every file of src/runner has its place.
files=$(cd "$ROOT/src/runner" && ls *.c | sed 's/\.c$//' | sort | tr '\n' ' ')
services=$(for f in $files; do
	case " $dispatch $modes " in *" $f "*) ;; *) echo "$f" ;; esac
done | tr '\n' ' ')

# edges: "FROM TO" for each file that uses a global symbol of another.
for f in $files; do
	nm -g --defined-only "$OBJ/$f.o" | awk -v f="$f" 'NF == 3 { print $3, f }'
done | sort -u >"$T/defs"
for f in $files; do
	nm -u "$OBJ/$f.o" | awk -v f="$f" '{ print $2, f }'
done | sort -u >"$T/uses"
join "$T/uses" "$T/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u \
	>"$T/edges"

in_set() {
	case " $2 " in *" $1 "*) return 0 ;; esac
	return 1
}
up=
across=
into_dispatch=
while read -r from to; do
	if in_set "$to" "$dispatch"; then
		into_dispatch="$into_dispatch $from->$to"
	elif in_set "$from" "$modes" && in_set "$to" "$modes"; then
		across="$across $from->$to"
	elif in_set "$from" "$services" && in_set "$to" "$modes"; then
		up="$up $from->$to"
	fi
done <"$T/edges"

ok "$([ -s "$T/edges" ] && echo 0 || echo 1)" "the objects name each other"
is "$into_dispatch" "" "nothing calls back into the dispatch"
is "$across" "" "no mode calls another mode"
is "$up" "" "no service calls a mode"
tsort "$T/edges" >/dev/null 2>"$T/loop"
is "$(cat "$T/loop")" "" "no circle between the runner's files"
# The calibration kernel has a file of its own, used by the timing modes.
is "$(awk '$2 == "calibrate" { print $1 }' "$T/edges" | sort | tr '\n' ' ')" \
	"ab command workloads " "the calibration kernel is a service of the timing modes"
