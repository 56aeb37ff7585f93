#!/bin/bash
# make dashboard on the installed fragment, in a project outside the tree:
# after a profile-quick, the project's history (artifacts/history.sqlite)
# as pages in artifacts/dashboard/, drawn by the installed prof-dashboard,
# the commits linked to the https origin remote (its user name and token
# left out); HISTORY= (empty) refused.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
plan 8

project_install
is "$rc" 0 "make install PREFIX=..."
project_init || exit 1
git remote add origin https://someone:t0ken@example.invalid/o/tiny.git
mk profile-quick REPEAT=2
is "$rc" 0 "make profile-quick in the project"

mk dashboard
is "$rc:$(cat "$err")" \
	"0:prof-dashboard: wrote 1 series over 1 runs to 'artifacts/dashboard/index.html'" \
	"make dashboard draws the project's history"
ok "$(grep -q '>tiny.sum<' artifacts/dashboard/index.html; echo $?)" \
	"its index names the project's workload"
like "$(grep -h "$pfx/bin/prof-dashboard" "$out" "$err"; \
	make -n --no-print-directory dashboard)" "$pfx/bin/prof-dashboard" \
	"with the installed prof-dashboard"
c=$(git rev-parse HEAD)
like "$(cat artifacts/dashboard/s-*.html)" \
	"href=\"https://example.invalid/o/tiny/commit/$c\"" \
	"its commits link to the origin remote"
is "$(cat artifacts/dashboard/*.html | grep -c 't0ken')" 0 \
	"which never shows its token"

mk dashboard HISTORY=
is "$rc:$(head -n 1 "$err")" "2:make dashboard: give HISTORY=the history file" \
	"HISTORY= (empty) is refused"
finish
