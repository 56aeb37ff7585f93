#!/bin/bash
# The README's examples run as written (issue 30: a `v1.2` tag that this
# repository does not have, a `gzip-old` that does not exist). Every
# command of its code blocks that starts with bin/ is read from the README
# itself and run, exit 0, in a folder laid out as the README says: bin/
# (this checkout's tools), run/ (a run folder), artifacts/profiling/ and
# artifacts/history.sqlite, and a data.bin. A command holding a value in
# <angle brackets> (the reader's own: a tag, a binary) is not run, nor is
# one that runs the whole quick profile of this tree (minutes); both are
# counted. The README also says where summary.md is written, and where CI
# downloads a browser and why; both uploaded artifacts keep the retention
# it states. And it is short: at most 600 lines, opening with the two
# set-up commands, then the first hour, all of it within the first 60
# lines: the first run, a baseline kept in config.mak, compare before
# merging, diagnose, WHY=1, bisect, the dashboard, and what make test is
# for and how long it takes.
. "$(dirname "$0")/lib.sh"
unset PROF_HISTORY HISTORY

# The commands: a line of four spaces and bin/, with the lines indented
# deeper after it (continuations), as one shell text each, NUL-ended.
awk '
	function flush() { if (cmd != "") printf "%s%c", cmd, 0; cmd = "" }
	/^    bin\// { flush(); cmd = substr($0, 5); next }
	cmd != "" && /^        / { cmd = cmd "\n" substr($0, 5); next }
	{ flush() }
	END { flush() }
' README.md >"$T/cmds"
mapfile -d '' cmds <"$T/cmds"
run_these=()
own=0
long=0
for c in "${cmds[@]}"; do
	if grep -q '<[a-z][a-z0-9-]*>' <<<"$c"; then
		own=$((own + 1))
	elif grep -q '^bin/prof-time quick\( \|$\)' <<<"$c"; then
		long=$((long + 1))
	else
		run_these+=("$c")
	fi
done
plan $((${#run_these[@]} + 10))

is "$own:$long" "5:3" \
	"5 examples need the reader's own values, 3 run the quick profile"

S=$T/sb
mkdir -p "$S/run" "$S/artifacts/profiling/r1"
ln -s "$BIN" "$S/bin"
D=test/data/results
cp $D/current.json "$S/run/results.json"
"$BIN/prof-diff" --baseline $D/baseline.json -o "$S/run/comparisons.json" \
	"$S/run/results.json"
cp "$S/run/results.json" "$S/run/comparisons.json" "$S/artifacts/profiling/r1/"
"$BIN/prof-history" import --db "$S/artifacts/history.sqlite" \
	"$S/artifacts/profiling" 2>/dev/null
head -c 1048576 /dev/urandom >"$S/data.bin"

for c in "${run_these[@]}"; do
	(cd "$S" && bash -c "$c") >"$out" 2>"$err"
	rc=$?
	is "$rc" 0 "README: $(head -n 1 <<<"$c")"
	[ "$rc" = 0 ] || head -n 3 "$err" | sed 's/^/#   /' >&2
done

ok "$([ -s "$S/run/summary.md" ]; echo $?)" \
	"prof-report's example wrote run/summary.md, beside its results"
text=$(tr '\n' ' ' <README.md | tr -s ' ')
like "$text" '`prof-report` writes `summary.md` beside its results file (here `run/summary.md`; for a bare `results.json`, or `-`, into the current folder' \
	"the README says where prof-report writes summary.md"

# CI: where the browser comes from, and the artifacts' retention.
wf=.github/workflows/profile.yml
ok "$(grep -q 'npx playwright-core install --with-deps chromium' "$wf" &&
	grep -q 'on CI.s hosted runners the workflow does, with `npx playwright-core install --with-deps chromium`' <<<"$text"
	echo $?)" "the README says the workflow downloads Chromium, where and why"
days=$(python3 -c '
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
for job in wf["jobs"].values():
	for st in job.get("steps", []):
		w = st.get("with") or {}
		if str(st.get("uses", "")).startswith("actions/upload-artifact") \
			and w.get("name") in ("performance-profile", "performance-report"):
			print(w["name"], w.get("retention-days", "unset"))
' "$wf" | sort | tr '\n' ' ')
is "$days" "performance-profile 30 performance-report 30 " \
	"both uploaded artifacts are kept 30 days"
like "$text" "\`performance-profile\` and \`report.html\` as \`performance-report\`, both kept for 30 days" \
	"as the README says"
# The first hour.
ok "$([ "$(wc -l <README.md)" -le 600 ]; echo $?)" \
	"the README is at most 600 lines ($(wc -l <README.md))"
is "$(grep -n -m 2 '^    make ' README.md | cut -d: -f1,2 | sed 's/ *#.*//' |
	tr '\n' ' ')" "13:    make profile-quick 14:    make test " \
	"the two set-up commands come first"
hour=$(awk '/^## The first hour/ { h = 1; print NR; next }
	h && /^## / { print NR; exit }' README.md | tr '\n' ' ')
ok "$(set -- $hour; [ "$#" = 2 ] && [ "$1" -le 20 ] && [ "$2" -le 62 ]; echo $?)" \
	"the first hour lies within the first 60 lines (lines $hour)"
text60=$(head -n 60 README.md | tr '\n' ' ' | tr -s ' ')
missing=
for w in summary.md report.html "make baseline-update" config.mak \
	"make compare REF=main" "make diagnose W=" WHY=1 "make bisect" \
	"make dashboard" "make test" "minutes on 2 cores" "prof(7)"; do
	grep -qF -- "$w" <<<"$text60" || missing="$missing '$w'"
done
is "$missing" "" "the first hour names each of its steps"
finish
