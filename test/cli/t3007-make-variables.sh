#!/bin/bash
# fragment/profile.sh checks every make variable before any phase runs, and
# nothing from a variable reaches a command as an option (issue 14, item
# 14). The switches (STORIES=yes) are make's own check: t3262.
. "$(dirname "$0")/lib.sh"
plan 19

mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" WORKLOADS="$TW" "$@" >"$out" 2>"$err"
	rc=$?
}

# refused TARGET VAR=VALUE MESSAGE: exit 2, that first line, no phase run
# and no run folder made.
refused() {
	local target=$1 var=$2 msg=$3
	rm -rf "$T/o"
	mk "$target" "$var" OUTPUT="$T/o"
	is "$rc:$(head -n 1 "$err")" "2:$msg" "$target $var: refused"
	ok "$(! grep -q '^prof-' "$err" && [ ! -e "$T/o" ]; echo $?)" \
		"$target $var: before any phase"
}

idrule="(letters, digits, '.', '_' and '-', the first a letter or a digit)"
refused diagnose "W=pipeline.svg_dense_circles --repeat 1" \
	"make diagnose: W: 'pipeline.svg_dense_circles --repeat 1': not a workload id $idrule"
refused diagnose W=--help \
	"make diagnose: W: '--help': not a workload id $idrule"
refused profile-quick REPEAT="1 --seed 5" \
	"make profile-quick: REPEAT: '1 --seed 5': expected a whole number"
refused profile-quick SEED=-1 \
	"make profile-quick: SEED: '-1': expected a whole number"
refused profile-quick TIMEOUT=--help \
	"make profile-quick: TIMEOUT: '--help': expected a number of seconds"
refused profile-quick BACKEND="cpu --repeat 1" \
	"make profile-quick: BACKEND: 'cpu --repeat 1': expected cpu, gpu, all or auto"
refused profile-full "CATEGORY=test --help" \
	"make profile-full: CATEGORY: '--help': not a category name $idrule"
refused profile-quick BASELINE=--version \
	"make profile-quick: BASELINE: '--version': starts with '-' (write ./--version for a file of that name)"

# OUTPUT itself: never an option to mkdir or rm, and checked first.
mk profile-quick OUTPUT=--version
is "$rc:$(head -n 1 "$err")" \
	"2:make profile-quick: OUTPUT: '--version': starts with '-' (write ./--version for a file of that name)" \
	"OUTPUT=--version is refused"
ok "$(! grep -q '^prof-time' "$err" && [ ! -e ./--version ]; echo $?)" \
	"before the timing phase, and no folder named --version"

# A newline in W is one line of error, the bytes shown.
PROF_BINDIR=${BIN#"$ROOT"/} sh fragment/profile.sh diagnose "$(printf 'a\nb')" \
	>"$out" 2>"$err"
rc=$?
is "$rc:$(head -n 1 "$err")" \
	"2:make diagnose: W: 'a \\n b' (bytes as od -c shows them): not a workload id $idrule" \
	"a newline in W, shown as od -c shows it"
finish
