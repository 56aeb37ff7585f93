#!/bin/bash
# No variable silently ignored (issue 33): make compare and make bisect,
# make's only goal, refuse at parse time a variable of the other targets
# given on the command line (make compare STORIES=1, make bisect REF=...),
# where each ran without it; nothing and 0 pass.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
plan 5

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init || exit 1
mk
mk compare AGAINST=bin/tiny STORIES=1
is "$rc:$(sed 's/^[^ ]*:[0-9]*: //' "$err"):$(ls artifacts/profiling 2>/dev/null)" \
	"2:*** STORIES: make compare does not use it (man prof.mk); nothing was run.  Stop.:" \
	"make compare STORIES=1 is refused, nothing run"
mk compare AGAINST=bin/tiny BASELINE=baselines/x.json
is "$rc:$(sed 's/^[^ ]*:[0-9]*: //' "$err")" \
	"2:*** BASELINE: make compare does not use it (man prof.mk); nothing was run.  Stop." \
	"so is BASELINE (compare's reference is REF or AGAINST)"
mk bisect GOOD=HEAD BAD=HEAD W=tiny.sum REF=HEAD
is "$rc:$(sed 's/^[^ ]*:[0-9]*: //' "$err")" \
	"2:*** REF: make bisect does not use it (man prof.mk); nothing was run.  Stop." \
	"make bisect REF= is refused"
mk bisect GOOD=HEAD BAD=HEAD W=tiny.sum COUNTS=0 HISTORY=
is "$rc:$(head -n 1 "$err")" \
	"2:make bisect: GOOD and BAD are the same commit: nothing to bisect" \
	"COUNTS=0 and HISTORY= pass (nothing to ignore)"
mk compare AGAINST=bin/tiny REPEAT=2 COUNTS=0 OUTPUT="$T/c"
is "$rc" 0 "make compare with its own variables runs"
finish
