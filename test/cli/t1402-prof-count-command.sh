#!/bin/bash
# prof-count --name ID -- CMD: a whole process tree counted, the same from
# any caller; 2% more work is a warning by count, the same work stable.
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 26

# The fixed folder of this checkout's project (prof-count(1), NOTES): the
# folder that holds its repository's .git.
project=${PROF_PROJECT:-$(git rev-parse --path-format=absolute \
	--git-common-dir 2>/dev/null | sed 's|/\.git$||; s|.*/||')}
FIXED=/tmp/prof-count-$(id -u)/$(printf '%s' "$project" | sha256sum |
	cut -c1-16)
build() {
	cc -O1 -DWORK="$1" -o "$T/work" test/data/count/work.c
}
# count NAME FILE ARGS...: counts of the command into FILE
count() {
	local name=$1 file=$2
	shift 2
	"$BIN/prof-count" --name "$name" -q -o "$file" "$@" >"$out" 2>"$err"
	rc=$?
}
# The samples of a stream, without its run and context records.
samples() {
	jq -c 'select(.record == null)' "$1"
}
# The first sample's count.
first() {
	samples "$1" | head -n 1 | jq .instructions
}
merge() {
	"$BIN/prof-merge" -o "$2" "$1" 2>"$err"
}

build 100000
count work "$T/base.jsonl" -- "$T/work"
is "$rc" 0 "a command that exits 0 is counted"
jq_ok -s 'map(select(.record == null)) | length == 2 and
	all(.[]; .phase == "instructions" and
	.outcome == "success" and .instructions > 1000000 and
	.metrics.processes == 1 and .metrics.exit_status == 0)' \
	"$T/base.jsonl" "2 samples by default, one process each"
jq_ok -s 'map(select(.record == null)) |
	.[0].instructions == .[1].instructions' "$T/base.jsonl" \
	"and the two counts are equal"
merge "$T/base.jsonl" "$T/base.json"

# The same command again: stable. The same command line built to do 2%
# more work: a warning, by count.
count work "$T/same.jsonl" -- "$T/work"
merge "$T/same.jsonl" "$T/same.json"
run prof-diff --baseline "$T/base.json" "$T/same.json"
is "$rc" 0 "prof-diff exits 0"
jq_ok '.[0].phase == "instructions" and .[0].status == "stable" and
	(.[0].reason | test("^instructions [0-9,]+ -> [0-9,]+ \\(\\+0\\.00%\\), within the 1% threshold$"))' \
	"$out" "the same command against itself is stable"
build 102000
count work "$T/more.jsonl" -- "$T/work"
merge "$T/more.jsonl" "$T/more.json"
run prof-diff --baseline "$T/base.json" "$T/more.json"
is "$rc" 0 "a warning does not change the exit code"
jq_ok '.[0].status == "warning" and .[0].delta_pct > 1.9 and
	.[0].delta_pct < 2.1 and
	(.[0].reason | test("^instructions [0-9,]+ -> [0-9,]+ \\(\\+[12]\\.[0-9]{2}%\\), more than the 1% threshold$"))' \
	"$out" "2% more work is a warning, naming both counts and the change"
jq_ok '.[0].current.median > .[0].baseline.median and
	.[0].delta_instructions == .[0].current.median - .[0].baseline.median' \
	"$out" "with the counts and their difference"
count work "$T/more5.jsonl" --threshold 5 -- "$T/work"
merge "$T/more5.jsonl" "$T/more5.json"
run prof-diff --baseline "$T/base.json" "$T/more5.json"
jq_ok '.[0].status == "stable" and .[0].threshold_pct == 5' "$out" \
	"--threshold 5: the same 2% is stable"

# The caller's environment and working directory do not change the count:
# the command gets a fixed environment, HOME and PWD. (The shell execs the
# work: a shell that waits for a child may take one more turn in its wait
# when the machine is busy, a few dozen instructions in millions.)
build 100000
SH='cd . && pwd >/dev/null; exec '$T/work' >/dev/null'
count sh "$T/s1.jsonl" --repeat 1 -- sh -c "$SH"
mkdir -p "$T/a/much/longer/working/directory/name/than/the/other/one"
# (From a folder outside the checkout, of the same project: a count may
# depend by a few instructions on the letters of HOME and PWD.)
(cd "$T/a/much/longer/working/directory/name/than/the/other/one" &&
	PROF_PROJECT=$project PADDING=$(printf '%0900d' 0) \
		"$BIN/prof-count" --name sh -q --repeat 1 \
		-o "$T/s2.jsonl" -- sh -c "$SH")
is "$(first "$T/s1.jsonl")" "$(first "$T/s2.jsonl")" \
	"another working directory and a larger environment: the same count"
# The work alone: the first count of base.jsonl (the same build of
# WORK=100000, rebuilt alike).
cp "$T/base.jsonl" "$T/one.jsonl"
ok "$([ "$(first "$T/s1.jsonl")" -gt "$(first "$T/one.jsonl")" ]; echo $?)" \
	"what a shell did before exec is counted too"
count kids "$T/k.jsonl" --repeat 1 -- sh -c "$T/work >/dev/null; $T/work >/dev/null"
jq_ok 'select(.record == null) | .metrics.processes == 3' "$T/k.jsonl" \
	"a shell and its two children are all counted"
ok "$([ "$(first "$T/k.jsonl")" -gt $((2 * $(first "$T/one.jsonl"))) ]; echo $?)" \
	"and summed"

FOO=outside count env "$T/e.jsonl" --repeat 1 -- sh -c \
	"test \"\$HOME\" = $FIXED/home && test -z \"\$(ls -A \"\$HOME\")\" &&
	test -z \"\$FOO\" && test \"\$PWD\" = $FIXED/cwd &&
	test \"\$PATH\" = /usr/local/bin:/usr/bin:/bin && test \"\$LC_ALL\" = C"
is "$rc" 0 "a fresh fixed HOME, PWD a fixed link, PATH and the C locale; \
nothing of the caller's"
count env2 "$T/e2.jsonl" --repeat 1 --env FOO=1 --env LC_ALL=C.UTF-8 -- \
	sh -c 'test "$FOO" = 1 && test "$LC_ALL" = C.UTF-8'
is "$rc" 0 "--env adds to it and replaces"
count aslr "$T/p.jsonl" --repeat 1 -- sh -c \
	'test "$(cat /proc/self/personality)" = 00040000'
is "$rc" 0 "address-space randomization is off (ADDR_NO_RANDOMIZE)"

# Failures.
count fail "$T/f.jsonl" -- sh -c 'echo broken >&2; exit 3'
is "$rc" 1 "a failing command is an error sample, exit 1"
jq_ok -s 'map(select(.record == null)) | length == 2 and
	all(.[]; .outcome == "error" and
	.reason == "exited with status 3, expected 0: broken" and
	.instructions == null)' "$T/f.jsonl" "with its status and stderr"
run prof-count --name x -- /no/such/program
is "$rc:$(errline)" \
	"2:prof-count: cannot run '/no/such/program': No such file or directory" \
	"a command that is not there: exit 2"
run prof-count --name x -- no-such-program-here
is "$rc:$(errline)" \
	"2:prof-count: cannot run 'no-such-program-here': No such file or directory" \
	"nor in PATH: exit 2"
PATH=/nonexistent run "$BIN/prof-count" --name x -- /bin/true
is "$rc:$(errline)" \
	"2:prof-count: valgrind is not installed; install it with: sudo apt-get install -y valgrind" \
	"no valgrind in PATH: exit 2 with the install line"
PATH=/nonexistent run "$BIN/prof-count" quick
is "$rc" 2 "in every mode"
run prof-count quick --backend gpu
is "$rc:$(errline)" "2:prof-count: --backend: prof-count counts the CPU path only" \
	"the CPU path only"
run prof-count --name x --env NOPE -- true
is "$rc:$(errline)" "2:prof-count: --env: 'NOPE' is not NAME=VALUE" \
	"--env wants NAME=VALUE"
run prof-time --name x --threshold 2 -- true
is "$rc:$(errline)" "2:prof-time: --threshold: only for prof-count" \
	"--threshold is prof-count's"
run prof-count --help
like "$(cat "$out")" "usage: prof-count quick|full [options]" "--help"
finish
