#!/bin/bash
# prof-history: each row keeps its status and reason from the run's
# comparisons.json (improved among them); trend, changes and the dashboard
# show it; comparisons of another run are refused with nothing written; a
# version-4 history is migrated with null statuses; make profile-quick
# passes the comparisons.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 40

db=$T/h.sqlite
# A baseline at 10 ms; a run at half that: improved (ratio 0.5, 5 ms over
# the 1 ms floor, every sample below the baseline median).
mkrun "$T/base.json" base c0 2026-01-01T00:00:00Z 10 10 10
mkrun "$T/cur.json" cur c1 2026-01-02T00:00:00Z 5 5 5
"$BIN/prof-diff" --baseline "$T/base.json" --output "$T/cmp.json" \
	"$T/cur.json" 2>/dev/null
jq_ok 'length == 1 and .[0].status == "improved" and .[0].run_id == "cur"' \
	"$T/cmp.json" "(prof-diff calls the run improved)"
reason=$(jq -r '.[0].reason' "$T/cmp.json")
jreason=$(jq '.[0].reason' "$T/cmp.json")

run prof-history add --db "$db" --comparisons "$T/cmp.json" "$T/cur.json"
is "$rc:$(cat "$err")" "0:prof-history: added run 'cur' (commit c1) to '$db'" \
	"add --comparisons stores the run"
is "$(sqlite3 "$db" 'SELECT status FROM rows')" improved \
	"its row's status is stored: improved"
is "$(sqlite3 "$db" 'SELECT reason FROM rows')" "$reason" \
	"with the comparison's reason"
run prof-history trend --db "$db"
jq_ok ".[0].status == \"improved\" and .[0].reason == $jreason" "$out" \
	"trend shows it"

# A run added without comparisons: null, shown as null.
mkrun "$T/plain.json" plain c2 2026-01-03T00:00:00Z 5 5 5
run prof-history add --db "$db" "$T/plain.json"
is "$rc" 0 "a run without comparisons is added"
run prof-history trend --db "$db"
jq_ok 'map(.status) == ["improved", null] and .[1].reason == null' "$out" \
	"its status and reason are null"

# The same run again with its comparisons: the statuses it lacked.
mkrun "$T/base2.json" base2 c0 2026-01-01T00:00:00Z 5 5 5
"$BIN/prof-diff" --baseline "$T/base2.json" --output "$T/plain-cmp.json" \
	"$T/plain.json" 2>/dev/null
run prof-history add --db "$db" --comparisons "$T/plain-cmp.json" \
	"$T/plain.json"
is "$rc:$(cat "$err")" "0:prof-history: run 'plain' is already in '$db'; the statuses of its rows were added" \
	"adding it again with comparisons fills its status"
is "$(sqlite3 "$db" "SELECT w.status FROM rows w JOIN runs r ON r.id = w.run
	WHERE r.run_id = 'plain'")" stable "as the comparison says"
run prof-history add --db "$db" --comparisons "$T/plain-cmp.json" \
	"$T/plain.json"
is "$rc:$(cat "$err")" "0:prof-history: run 'plain' is already in '$db'; nothing changed" \
	"a third time changes nothing"
jq '.[0].status = "warning"' "$T/plain-cmp.json" >"$T/plain-warn.json"
run prof-history add --db "$db" --comparisons "$T/plain-warn.json" \
	"$T/plain.json"
is "$rc:$(cat "$err")" "2:prof-history: $db: run 'plain' is already there with other statuses (test.step, cpu: 'stable', not 'warning')" \
	"another status for a stored row is refused"

# Comparisons that are not of the run: exit 2, the file and JSON path
# named, nothing written.
sum=$(sqlite3 "$db" 'SELECT count(*), group_concat(status) FROM rows')
mkrun "$T/other.json" other c3 2026-01-04T00:00:00Z 5 5 5
run prof-history add --db "$db" --comparisons "$T/cmp.json" "$T/other.json"
is "$rc:$(cat "$err")" "2:prof-history: $T/cmp.json: [0].run_id: a comparison of run 'cur', not of the results' run 'other'
prof-history: nothing was added to '$db'" \
	"comparisons of another run id are refused, naming the file and path"
is "$(sqlite3 "$db" 'SELECT count(*), group_concat(status) FROM rows')" \
	"$sum" "and nothing is written"
is "$(sqlite3 "$db" "SELECT count(*) FROM runs WHERE run_id = 'other'")" 0 \
	"not even the run"
jq '.[0].workload = "test.other"' "$T/cmp.json" >"$T/cmp-row.json"
run prof-history add --db "$db" --comparisons "$T/cmp-row.json" \
	"$T/cur.json"
is "$rc:$(errline)" "2:prof-history: $T/cmp-row.json: [0]: no such row in the results (test.other, cpu)" \
	"a comparison of a row the results lack is refused"
jq '. + .' "$T/cmp.json" >"$T/cmp-dup.json"
run prof-history add --db "$db" --comparisons "$T/cmp-dup.json" \
	"$T/cur.json"
is "$rc:$(errline)" "2:prof-history: $T/cmp-dup.json: [1]: the same row as [0] (test.step, cpu)" \
	"and so is the same row twice"
jq '.[0].status = "faster"' "$T/cmp.json" >"$T/cmp-st.json"
run prof-history add --db "$db" --comparisons "$T/cmp-st.json" "$T/cur.json"
is "$rc:$(errline)" "2:prof-history: $T/cmp-st.json: [0].status: expected one of new, incomparable, stable, warning, improved, unsettled" \
	"and a status prof does not know"
printf '[{"run_id": ' >"$T/cmp-cut.json"
run prof-history add --db "$db" --comparisons "$T/cmp-cut.json" \
	"$T/cur.json"
like "$rc:$(errline)" "2:prof-history: $T/cmp-cut.json:1:" \
	"and a file that is not JSON, by line and column"
run prof-history add --db "$db" --comparisons "$T/cmp.json" "$T/cur.json" \
	"$T/plain.json"
is "$rc:$(cat "$err")" "2:prof-history: --comparisons goes with one results file" \
	"--comparisons takes one results file"
run prof-history trend --db "$db" --comparisons "$T/cmp.json"
is "$rc:$(cat "$err")" "2:prof-history: --comparisons is an option of add" \
	"and is an option of add only"

# changes: a step down whose runs prof called improved.
sdb=$T/step.sqlite
for i in 1 2 3 4 5 6 7 8; do
	m=$([ "$i" -le 4 ] && echo 10 || echo 5)
	mkrun "$T/s$i.json" "s$i" "commit$i" "2026-02-0${i}T00:00:00Z" \
		"$m" "$m" "$m"
	"$BIN/prof-diff" --baseline "$T/base.json" --output "$T/s$i-cmp.json" \
		"$T/s$i.json" 2>/dev/null
	"$BIN/prof-history" add --db "$sdb" --comparisons "$T/s$i-cmp.json" \
		"$T/s$i.json" 2>/dev/null
done
run prof-history changes --db "$sdb"
jq_ok 'length == 1 and .[0].index == 5 and .[0].status_before == "stable" and
	.[0].status_after == "improved" and
	(.[0].reason_after | type == "string")' "$out" \
	"changes gives the statuses on each side of a step: improved after"

# The dashboard colours improved points and statuses as report.html does.
"$BIN/prof-dashboard" --db "$sdb" -o "$T/dash" 2>/dev/null
is "$?" 0 "the dashboard is written"
col=$(sed -n 's/^#define PROF_PALETTE_IMPROVED "\(#[0-9a-f]*\)"$/\1/p' \
	"$ROOT/src/report/palette.h")
like "$(cat "$T/dash/index.html")" ".imp{fill:$col}" \
	"with report.html's improved colour ($col)"
like "$(cat "$T/dash/index.html")" \
	'<span class="v-improved" data-verdict="improved">improved</span>' \
	"the index shows the latest verdict, coloured"
is "$(grep -o '<circle class="pt imp"' "$T"/dash/s-*.html | wc -l)" 4 \
	"the four improved runs are improved points"
is "$(grep -o '<circle class="pt"' "$T"/dash/s-*.html | wc -l)" 4 \
	"the four stable ones are plain"
like "$(cat "$T"/dash/s-*.html)" '<a class="gl" href="#g-improved"><span class="v-improved" data-verdict="improved">improved</span></a></td></tr>' \
	"the runs table has the verdict"
# In chromium: the improved point's fill is report.html's improved badge.
"$BIN/prof-report" --comparisons "$T/s8-cmp.json" --baseline "$T/base.json" \
	--html "$T/report.html" --output "$T/summary.md" "$T/s8.json" \
	>/dev/null 2>&1
DASH=$(ls "$T"/dash/s-*.html) REPORT=$T/report.html \
	node --input-type=module -e "$(cat <<'JS'
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const { chromium } = await import('playwright-core');
const exe = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find(existsSync);
const browser = await chromium.launch({ executablePath: exe, timeout: 60000,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
const page = await browser.newPage();
const look = async (file, sel, prop) => {
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return page.evaluate(([s, p]) => {
    const e = document.querySelector(s);
    return e ? getComputedStyle(e)[p] : null;
  }, [sel, prop]);
};
const seen = {
  report: await look(process.env.REPORT, '.badge.s-improved', 'backgroundColor'),
  point: await look(process.env.DASH, 'circle.pt.imp', 'fill'),
  stable: await look(process.env.DASH, 'circle.pt:not(.imp)', 'fill'),
  word: await look(process.env.DASH, 'td span.v-improved', 'color'),
};
await browser.close();
process.stdout.write(JSON.stringify(seen) + '\n');
JS
)" >"$T/colours.json" 2>"$err"
jq_ok '.report == "rgb(130, 80, 223)" and .point == .report and
	.word == .report' "$T/colours.json" \
	"chromium: improved points and words have report.html's improved colour"
jq_ok '.stable != .report' "$T/colours.json" "and the stable points do not"
"$BIN/prof-dashboard" --db "$db" -o "$T/dash2" 2>/dev/null
like "$(cat "$T/dash2/index.html")" 'data-status="ok">ok · <a class="gl" href="#g-stable"><span data-verdict="stable">stable</span></a>' \
	"a stable verdict is shown in the index, not coloured"

# A version-4 history: migrated, its run with a null status.
v4=$T/v4.sqlite
sqlite3 "$v4" <"$ROOT/test/data/history/schema-v4.sql"
cp "$v4" "$T/v4-ro.sqlite"
chmod 444 "$T/v4-ro.sqlite"
run prof-history trend --db "$T/v4-ro.sqlite"
jq_ok 'length == 1 and .[0].run_id == "run-v4" and .[0].status == null and
	.[0].median == 10' "$out" "a read-only version-4 history is read, status null"
is "$(sqlite3 "$T/v4-ro.sqlite" 'PRAGMA user_version')" 4 \
	"and left as it is"
run prof-history add --db "$v4" --comparisons "$T/cmp.json" "$T/cur.json"
is "$rc" 0 "a version-4 history is migrated and takes a run with statuses"
is "$(sqlite3 "$v4" "PRAGMA user_version; SELECT count(*) FROM files;
	SELECT group_concat(ifnull(status, '-')) FROM (SELECT w.status
	FROM rows w JOIN runs r ON r.id = w.run ORDER BY r.timestamp_utc)" |
	tr '\n' ' ')" "8 1 -,improved " \
	"version 8 now: the old run null, the new one improved"

# import: a run folder's comparisons.json gives its statuses.
mkdir -p "$T/runs/cur" "$T/runs/plain"
cp "$T/cur.json" "$T/runs/cur/results.json"
cp "$T/cmp.json" "$T/runs/cur/comparisons.json"
cp "$T/plain.json" "$T/runs/plain/results.json"
run prof-history import --db "$T/imp.sqlite" "$T/runs"
is "$rc" 0 "import of run folders"
run prof-history trend --db "$T/imp.sqlite"
jq_ok 'map(.status) == ["improved", null]' "$out" \
	"takes a folder's comparisons.json, none where there is none"
cp "$T/cmp.json" "$T/runs/plain/comparisons.json"
run prof-history import --db "$T/imp2.sqlite" "$T/runs"
is "$rc:$(errline)" "2:prof-history: $T/runs/plain/comparisons.json: [0].run_id: a comparison of run 'cur', not of the results' run 'plain'" \
	"a folder's comparisons of another run fail the import"
is "$(ls -A "$T" | grep -c imp2)" 0 \
	"which stores nothing: no new history is left"

# A profiling run (profile.sh, as make profile-quick runs it) adds the run
# with its comparisons: with no baseline file every row is incomparable,
# and stored so.
make -s --no-print-directory -o all BINDIR="$BIN" profile-full \
	WORKLOADS="$TW" CATEGORY=memory REPEAT=2 STORIES=0 \
	BASELINE="$T/none.json" HISTORY="$T/mk.sqlite" OUTPUT="$T/q" \
	>"$out" 2>"$err"
is "$?" 0 "make profile-full"
"$BIN/prof-history" trend --db "$T/mk.sqlite" >"$T/mk.json"
jq_ok 'length > 0 and all(.status == "incomparable" and
	(.reason | test("not found")))' "$T/mk.json" \
	"adds its run to HISTORY with each row's status"
finish
