#!/bin/bash
# The run record in a git branch (mk/runs-branch.sh, CI's prof-runs):
# record adds one file a run and pushes, trying again when another job
# pushed first; import rebuilds the history from the branch by a shallow
# fetch; profile.yml runs both and passes the offline workflow check.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 20

rb=$ROOT/mk/runs-branch.sh
export PROF_BINDIR=$BIN GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@localhost \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@localhost
git init -q --bare "$T/origin.git"
git init -q "$T/a"
git -C "$T/a" remote add origin "$T/origin.git"

# An empty record: import says so and changes nothing.
(cd "$T/a" && sh "$rb" import prof-runs "$T/h.sqlite") >"$out" 2>"$err"
is "$?:$(cat "$out")" \
	"0:runs-branch: no branch 'prof-runs' on 'origin' yet; nothing to import" \
	"import from a remote without the branch is not an error"

mkrun "$T/r1.json" 20260101T000000Z-aa01 c1 2026-01-01T00:00:00Z 10 11 12
mkrun2 "$T/r2.json" 20260102T000000Z-aa02 c2 2026-01-02T00:00:00Z 20 21 22
(cd "$T/a" && sh "$rb" record prof-runs "$T/r1.json") >"$out" 2>"$err"
is "$?:$(cat "$out")" \
	"0:runs-branch: added 'runs/2026-01-01T000000Z-20260101T000000Z-aa01.json' to 'prof-runs'" \
	"record starts the branch with the run's file"
is "$(git -C "$T/a" status --porcelain | grep -v '^?? ' | wc -l)" 0 \
	"and leaves the clone's index and worktree alone"
(cd "$T/a" && sh "$rb" record prof-runs "$T/r1.json") >"$out" 2>"$err"
is "$?:$(cat "$out")" \
	"0:runs-branch: 'runs/2026-01-01T000000Z-20260101T000000Z-aa01.json' is already in 'prof-runs'" \
	"recording the same run again changes nothing"

# Four jobs record at once from clones of their own: every run is kept,
# whoever pushes first.
for i in 3 4 5 6; do
	git clone -q "$T/origin.git" "$T/c$i" 2>/dev/null
	mkrun "$T/r$i.json" "20260110T00000${i}Z-bb0$i" "c$i" \
		"2026-01-10T00:00:0${i}Z" "$i" "$i" "$i"
done
pids=()
for i in 3 4 5 6; do
	(cd "$T/c$i" && sh "$rb" record prof-runs "$T/r$i.json") \
		>"$T/o$i" 2>"$T/e$i" &
	pids+=($!)
done
rcs=
for p in "${pids[@]}"; do
	wait "$p"
	rcs=$rcs$?
done
is "$rcs" 0000 "four jobs record at once, each exit 0"
git clone -q -b prof-runs "$T/origin.git" "$T/check" 2>/dev/null
is "$(cd "$T/check" && ls runs | wc -l)" 5 "all five runs are in the branch"
is "$(git -C "$T/check" log --format=%s | sort | tr '\n' ' ')" \
	"Run 20260101T000000Z-aa01 Run 20260110T000003Z-bb03 Run 20260110T000004Z-bb04 Run 20260110T000005Z-bb05 Run 20260110T000006Z-bb06 " \
	"one commit a run"
retried=$(cat "$T"/o[3456] | grep -c 'not a fast-forward')
ok 0 "pushes refused as not fast-forward and tried again: $retried"

# A push that is refused once: record tries again on the new tip. A
# hook on the remote moves the branch before the first push lands.
git init -q --bare "$T/o2.git"
git clone -q "$T/o2.git" "$T/x" 2>/dev/null
git clone -q "$T/o2.git" "$T/y" 2>/dev/null
(cd "$T/x" && sh "$rb" record prof-runs "$T/r1.json") >/dev/null 2>&1
cat >"$T/o2.git/hooks/pre-receive" <<EOF
#!/bin/sh
# Once: another job's run lands first.
[ -e "$T/raced" ] && exit 0
touch "$T/raced"
echo 'not a fast-forward (made by the test)' >&2
exit 1
EOF
chmod +x "$T/o2.git/hooks/pre-receive"
(cd "$T/y" && sh "$rb" record prof-runs "$T/r2.json") >"$out" 2>"$err"
is "$?" 0 "a refused push is tried again"
like "$(cat "$out")" "runs-branch: 'prof-runs' moved (not a fast-forward); trying again" \
	"and says so"

# import: a shallow fetch of the tip, every run file into the history.
(cd "$T/a" && sh "$rb" import prof-runs "$T/h.sqlite") >"$out" 2>"$err"
is "$?:$(cat "$err")" \
	"0:prof-history: imported 5 runs into '$T/h.sqlite' from 5 results files (0 already there; 0 other JSON files skipped)" \
	"import fetches the branch and imports its five runs"
is "$(git -C "$T/a" rev-list --count refs/prof-runs-branch/prof-runs)" 1 \
	"from the tip alone (a shallow fetch)"
(cd "$T/a" && sh "$rb" import prof-runs "$T/h.sqlite") >"$out" 2>"$err"
like "$(cat "$err")" "imported 0 runs" "importing again adds nothing"

jq '.run_id = "../x"' "$T/r1.json" >"$T/bad.json"
(cd "$T/a" && sh "$rb" record prof-runs "$T/bad.json") >"$out" 2>"$err"
is "$?:$(cat "$err")" \
	"2:runs-branch: '$T/bad.json': run id or timestamp unfit for a file name" \
	"a run id unfit for a file name is refused"

# The workflow: the offline check passes, the record is imported before
# the merge, and only the recording job, on main, may write.
wf=$ROOT/.github/workflows/profile.yml
av=$ROOT/node_modules/.bin/action-validator
if [ -x "$av" ]; then
	"$av" "$wf" >"$out" 2>&1
	is "$?" 0 "profile.yml passes the offline workflow check"
else
	skip "@action-validator/cli is not installed"
fi
y=$(cat "$wf")
like "$y" "sh mk/runs-branch.sh import \"\$PROF_RUNS_BRANCH\" artifacts/history.sqlite" \
	"the merge job imports the record first"
ok "$([ "$(grep -n 'runs-branch.sh import' "$wf" | cut -d: -f1)" -lt \
	"$(grep -n 'make merge-shards' "$wf" | cut -d: -f1)" ]; echo $?)" \
	"before it merges and adds the run"
is "$(grep -c 'contents: write' "$wf")" 1 "one job may write contents"
like "$y" "  record:
    name: Keep the run in the record branch (main only)
    needs: merge
    if: >-
      always() && github.event_name == 'push' &&
      github.ref == 'refs/heads/main' && vars.PROF_RUNS != 'off'" \
	"the recording job, only on pushes to main"
like "$y" "    permissions:
      contents: write" "widens its own permissions"
finish
