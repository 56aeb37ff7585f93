#!/bin/bash
# Every function (and datum) that libprof (src/lib and its folders), the
# cli layer (src/cli) or the runner (src/runner) exports is named by
# another file of the tools' build: a tool, the runner, the cli layer, the
# harness or another lib file. One that only its own file uses is static;
# one that only a unit test uses goes, and the test calls what the tools
# call.
# Checked on the objects (nm), beside t0102 and t0105. The exceptions:
# what the installed headers declare (mk/install.mk's PUBLIC_HEADERS: the
# API a project's workloads call), and the few below, each with its reason.
. "$(dirname "$0")/lib.sh"

OBJ=$ROOT/${PROF_BUILD:-build}
command -v nm >/dev/null || skip_all "nm is not installed"
plan 6

# Exported for the unit tests, each for a reason.
allowed() {
	cat <<'EOF'
prof_cmp_side_add how the rule's unit tests (lib-verdict-rule, -seq, memory-rule, extremes) fill a hand-made row's side for prof_cmp_judge(), without a results file
prof_cmp_side_add_marked the same, with a sample's contention and CPU time
prof_cmp_side_add_at the same, with a memory value's call index
prof_cmp_side_add_timed the same, with a call's own time (wall minus run-queue delay)
prof_cmp_seq_look one look of the sequential rule with its interval, which lib-verdict-seq checks (prof-time asks prof_cmp_seq_stop(), which calls it)
prof_cmp_json the whole comparisons array in memory: the unit tests' view of a judged document (prof-diff writes its rows one at a time through prof_cmp_row_json() since a2a9203)
cli_opt_list what --list-options prints, without the exit that cli_getopt_next() adds: cli-opt's way to it
EOF
}

# The files whose exports are checked, and every file that may use them.
defs_of=$(cd "$ROOT" && ls src/lib/*/*.c src/cli/*.c \
	src/runner/*.c | sed 's/\.c$//')
users=$(cd "$ROOT" && ls src/prof-*.c src/lib/*/*.c src/cli/*.c \
	src/report/*.c \
	src/runner/*.c src/harness/*.c src/harness/cuda/*.c 2>/dev/null |
	sed 's/\.c$//')
missing=
for f in $users; do
	case $f in
	src/harness/cuda/*) ;;
	*) [ -f "$OBJ/$f.o" ] || missing="$missing $f.o" ;;
	esac
done
is "$missing" "" "every file's object is built"

for f in $defs_of; do
	nm -g --defined-only "$OBJ/$f.o" 2>/dev/null |
		awk -v f="$f" 'NF == 3 && $2 ~ /^[TDBRVW]$/ { print $3, f }'
done | sort >"$T/defs"
# uses [SKIP]: "symbol file" for every undefined symbol of each user but
# the files matching SKIP.
uses() {
	for f in $users; do
		[ -f "$OBJ/$f.o" ] || continue
		case $f in $1) continue ;; esac
		nm -u "$OBJ/$f.o" | awk -v f="$f" '{ print $2, f }'
	done | sort -u
}
# unused USES: each symbol of defs that no file but its own names.
unused() {
	join "$T/defs" "$1" | awk '$2 != $3 { print $1 }' | sort -u >"$T/used"
	awk '{ print $1 }' "$T/defs" | sort -u | comm -23 - "$T/used"
}

# The installed headers, as mk/install.mk names them, and what they declare.
headers=$(sed -n 's/^PUBLIC_HEADERS :*= *//p' "$ROOT/mk/install.mk" |
	sed 's/\$(wildcard \([^)]*\))/\1/g')
# shellcheck disable=SC2086
headers=$(cd "$ROOT" && ls $headers 2>/dev/null)
like "$headers" "src/harness/prof/sum.h" "the installed headers are found"
# shellcheck disable=SC2086
public=$(cd "$ROOT" && cat $headers | grep -o '\bprof_[a-z0-9_]*(' |
	tr -d '(' | sort -u)
allow=$(allowed | awk '{ print $1 }' | sort -u)

uses "" >"$T/uses"
# The check sees what it looks for: without the tools' objects, what only
# the tools call is unused.
uses "src/prof-*" >"$T/uses-no-tools"
like "$(unused "$T/uses-no-tools" | tr '\n' ' ')" "prof_cmp_judge_groups" \
	"the check finds an export only the tools call, without them"

unused "$T/uses" >"$T/unused"
is "$(printf '%s\n' $public $allow | sort -u | comm -13 - "$T/unused" |
	tr '\n' ' ')" "" \
	"no export of libprof, src/cli or src/runner that no other file uses"
is "$(printf '%s\n' $allow | comm -23 - "$T/unused" | tr '\n' ' ')" "" \
	"each allowed export is still exported and still used by no other file"
is "$(allowed | awk 'NF < 3 { print $1 }' | tr '\n' ' ')" "" \
	"each allowed export says why"
finish
