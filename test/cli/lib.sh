# lib.sh: TAP helpers for the CLI tests; source it first.
#
#   . "$(dirname "$0")/lib.sh"
#   plan 3
#   run prof-time quick --workloads "$TW"   # sets $rc, files $out and $err
#   is "$rc" 1 "exit code 1 when a sample errored"
#   jq_ok '.outcome == "error"' "$out" "the crash is an error sample"
#
# Variables: $BIN (the tools), $TBIN (test-only binaries), $TW (the test
# workload binary), $ROOT (the checkout), $T (a private temporary folder,
# removed at exit), $out and $err (stdout and stderr of the last run).
set -u
# A test's own make runs as a make of its own: no jobserver of the outer
# `make -j2 test`, whose warning would be the first line of stderr.
unset MAKEFLAGS MFLAGS MAKELEVEL
# Nor do the variables by which a CI engine or a scheduler says which shard
# a job is (run-lib.sh: engine_shard): a test's runs are whole unless it
# says otherwise.
unset SLURM_ARRAY_TASK_ID CI_NODE_INDEX BUILDKITE_PARALLEL_JOB \
	CIRCLE_NODE_INDEX JOB_COMPLETION_INDEX TEST_SHARD_INDEX

ROOT=${PROF_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 1
BIN=$ROOT/${PROF_BINDIR:-bin}
TBIN=$ROOT/${PROF_TEST_BINDIR:-build/test}
TW=$TBIN/prof-test-workloads
T=$(mktemp -d "${TMPDIR:-/tmp}/prof-test.XXXXXX")
# At exit: the server serve started, if one is still up, then $T.
spid=
trap '[ -z "$spid" ] || kill "$spid" 2>/dev/null; rm -rf "$T"' EXIT
# make profile-* in a test keeps its run history here, not in artifacts/;
# so do the run scripts called as they are (PROF_HISTORY), and prof-history
# and prof-dashboard without --db: tests run side by side (make test runs
# prove -j), and a history in the checkout would be shared by all of them.
export HISTORY=$T/history.sqlite PROF_HISTORY=$T/history.sqlite
out=$T/stdout
err=$T/stderr
rc=0
_n=0
_failed=0

plan() {
	echo "1..$1"
}

ok() {
	_n=$((_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_n - $2"
	else
		echo "not ok $_n - $2"
		# The got/want lines on stderr that follow, named: other
		# tests' output may come between (make test runs prove -j).
		echo "# ${0##*/}: not ok $_n - $2" >&2
		_failed=$((_failed + 1))
	fi
}

# is GOT WANT NAME
is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		echo "#   got: '$1'" >&2
		echo "#  want: '$2'" >&2
	fi
}

# like GOT SUBSTRING NAME
like() {
	case "$1" in
	*"$2"*) ok 0 "$3" ;;
	*)
		ok 1 "$3"
		echo "#   got: '$1'" >&2
		echo "#  want it to contain: '$2'" >&2
		;;
	esac
}

# A jq function: a results document with its grouped samples joined with
# their groups (what every reader does), as the README gives it.
JQ_WHOLE='def whole: if .groups then .groups as $g | del(.groups) |
	.samples |= map(if .group_id then $g[.group_id] + del(.group_id)
		else . end) else . end;'

# A jq function: the segment key of an env (prof_env_segment(), env.h):
# its keyed fields, null where it has none, and valgrind and the
# workload's compiler major and optimized flag where it has them, as
# canonical JSON. Readers refuse a segment that is not its env's key, so
# a hand-made fixture makes its segments with it.
JQ_SEGMENT='def segment_key: . as $e | {backend, browser, compiler,
	compiler_major, cpu_model, cuda_driver, cuda_runtime, device,
	device_cc, device_memory_bytes, device_sms, distro, distro_version,
	dtype, machine, os, problem_size, tile} + ([("valgrind",
	"workload_compiler_major", "workload_optimized") |
	select($e[.] != null) | {(.): $e[.]}] | add // {}) | to_entries |
	sort_by(.key) | from_entries | tojson;'

# jq_ok FILTER FILE NAME: jq -e on a file (a JSON document or JSON lines,
# slurped when -s is the first argument). A schema-2 sample stream is seen
# as schema-1 lines (lines_as_v1): its context and run lines are folded
# into the samples; a results document's grouped samples are joined with
# their groups (whole); plain jq -e sees a file as it is.
jq_ok() {
	local slurp= file
	if [ "$1" = -s ]; then
		slurp=-s
		shift
	fi
	file=$2
	if grep -q '^{"record":' "$2" 2>/dev/null; then
		file=$T/jq.v1.jsonl
		lines_as_v1 "$2" >"$file"
	elif grep -q '^  "groups": {' "$2" 2>/dev/null; then
		file=$T/jq.whole.json
		jq "$JQ_WHOLE whole" "$2" >"$file"
	fi
	if jq -e $slurp "$1" "$file" >/dev/null 2>"$T/jq.err"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		echo "#   jq -e $slurp '$1' failed on $2:" >&2
		head -c 2000 "$2" | sed 's/^/#   /' >&2
		sed 's/^/#   /' "$T/jq.err" >&2
	fi
}

# jq_raw [-s] FILTER FILE NAME: jq -e on the file as it is, record lines
# included (jq_ok reads a stream's samples only).
jq_raw() {
	local slurp=
	if [ "$1" = -s ]; then
		slurp=-s
		shift
	fi
	ok "$(jq -e $slurp "$1" "$2" >/dev/null 2>&1; echo $?)" "$3"
}

# run CMD ARGS...: a tool from $BIN when the name has no slash.
run() {
	local cmd=$1
	shift
	case "$cmd" in
	*/*) ;;
	prof-* | plotkit) cmd=$BIN/$cmd ;;
	esac
	"$cmd" "$@" >"$out" 2>"$err"
	rc=$?
}

# serve [ARGS...]: plotkit serve --port 0 ARGS in the background, stdout
# in $T/serve.out and stderr in $T/serve.err; $spid is its pid and $port
# the port its one line says ("listening on http://127.0.0.1:PORT/").
# Waits for that line with no time limit (a busy machine may take long to
# start it), returning 1 (no $port) if the server ends first. The file is
# emptied first, so that a second server's wait never reads the port of
# the one before it. The server is killed at exit if still up.
serve() {
	: >"$T/serve.out"
	"$BIN/plotkit" serve --port 0 "$@" >"$T/serve.out" \
		2>"$T/serve.err" &
	spid=$!
	port=
	while :; do
		port=$(sed -n \
			's|^listening on http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' \
			"$T/serve.out")
		[ -n "$port" ] && return 0
		kill -0 "$spid" 2>/dev/null || return 1
		sleep 0.05
	done
}

# The first line of stderr of the last run.
errline() {
	head -n 1 "$err"
}

skip() {
	_n=$((_n + 1))
	echo "ok $_n # skip $1"
}

# Skip the whole file (before plan).
skip_all() {
	echo "1..0 # skip $1"
	exit 0
}

finish() {
	[ "$_failed" = 0 ]
}

# man_options PAGE: the options a man page's scdoc source documents, as
# the tool's --help-options names them ("-o, --output FILE"), one a line,
# sorted: the terms of its lists (a line that starts with *- and has its
# description, tab-indented, on the next), a term being one option or
# several, comma-separated, and a lone short letter joining the long name
# after it.
man_options() {
	awk '/^\t/ && term { print term } { term = /^\*-/ ? $0 : "" }' "$1" |
		sed 's/\\_/\x01/g; s/[*_]//g; s/\x01/_/g; s/\\\(.\)/\1/g' |
		awk -F', ' '{
			short = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^-[A-Za-z0-9]$/) {
					short = short $i ", "
					continue
				}
				print short $i
				short = ""
			}
			if (short != "")
				print "(a letter alone: " short ")"
		}' | sort -u
}

# as_v1 FILE: a results file (schema 1 or 2) as schema 1 would hold it, keys
# sorted: each sample whole, with its env and segment again and the null
# and empty fields a schema-2 writer leaves out. Schema-2 files compare
# with schema-1 ones through it.
as_v1() {
	jq -S "$JQ_WHOLE"' whole | . as $r | if .schema_version == 2 then
		del(.envs, .segments, .run) | .schema_version = 1 |
		.samples |= map({schema_version: 1, checksum: null,
			reason: null, artifacts: []} + del(.env_id,
			.segment_id, .shard) + {env: $r.envs[.env_id],
			segment: $r.segments[.segment_id]})
	else . end' "$1"
}

# lines_as_v1 FILE: a JSON-lines stream (schema 1 or 2) as schema-1 sample
# lines: context and run lines are used up, samples get env and segment.
lines_as_v1() {
	jq -cn 'reduce inputs as $l ({e: {}, s: {}, out: [], schema: 0};
		if $l.record == "context" then
			.e[$l.env_id] = $l.env | .s[$l.segment_id] = $l.segment
		elif $l.record then .
		elif ($l | has("env_id") | not) then .out += [$l]
		else .out += [{schema_version: 1} + ($l | del(.env_id,
			.segment_id)) + {env: .e[$l.env_id],
			segment: .s[$l.segment_id]}]
		end) | .out[]' "$1"
}
