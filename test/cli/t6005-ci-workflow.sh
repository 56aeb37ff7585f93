#!/bin/bash
# The CI workflows pass @action-validator/cli (offline: the schema ships
# with it), and profile.yml keeps the run history on main and hands out
# report.html.
. "$(dirname "$0")/lib.sh"
av=node_modules/.bin/action-validator
if [ ! -x "$av" ]; then
	skip_all "@action-validator/cli is not installed (make deps runs npm ci)"
fi
workflows=(.github/workflows/*.yml)
plan $((${#workflows[@]} + 6))

for wf in "${workflows[@]}"; do
	"$av" "$wf" >"$out" 2>"$err"
	is "$?" 0 "action-validator: $wf"
done
wf=.github/workflows/profile.yml
sed 's/^    runs-on: ubuntu-latest$/    runs-on: ubuntu-latest\n    bogus: 1/' \
	"$wf" >"$T/broken.yml"
"$av" "$T/broken.yml" >"$out" 2>"$err"
is "$?" 1 "and it refuses a job with an unknown key"
like "$(cat "$out" "$err")" "Additional property 'bogus' is not allowed" \
	"naming it"

y=$(cat "$wf")
like "$y" "uses: actions/cache/restore@v4
        with:
          path: artifacts/history.sqlite" "the history is restored from the cache"
like "$y" "github.event_name != 'pull_request' &&
          github.ref == 'refs/heads/main' &&
          hashFiles('artifacts/history.sqlite') != ''
        uses: actions/cache/save@v4" "and saved back on main only"
like "$y" "name: performance-report
          path: artifacts/profiling/ci/report.html" "report.html is uploaded"
like "$y" '**HTML report:** \`report.html\` in the' \
	"and the job summary names it"
finish
