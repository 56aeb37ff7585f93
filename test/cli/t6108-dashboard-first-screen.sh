#!/bin/bash
# The dashboard's index answers first (issue 43), in Debian's chromium
# through playwright-core at 1280 x 800: what changed recently (a change
# point and a warning, largest first), then each series' status beside its
# name, all in the first screen; no sideways scroll, no box that scrolls
# sideways; segments in words, the id on hover; an intro of a sentence or
# two; series drawn in colours no status has; x labels that tell apart the
# runs of one commit. The first screen is kept as
# artifacts/test/t6108-dashboard-first-screen/index-first-screen.png.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
if [ ! -x /usr/lib/chromium/chromium ] && [ ! -x /usr/bin/chromium ]; then
	skip_all "chromium is not installed (make deps installs it)"
fi
if [ ! -d node_modules/playwright-core ]; then
	skip_all "playwright-core is not installed (make deps runs npm ci)"
fi
plan 15

# Six series over 8 runs, the last two of one commit; test.step steps up
# by 40% at run 5, test.late is a warning (+50%) in the last run.
mkhistory "$T/h.sqlite"
run prof-dashboard --db "$T/h.sqlite" --repo-url https://example.invalid/o/r \
	-o "$T/dash"
is "$rc:$(cat "$err")" \
	"0:prof-dashboard: wrote 6 series over 8 runs to '$T/dash/index.html'" \
	"the dashboard of six series"

shots=$ROOT/artifacts/test/t6108-dashboard-first-screen
rm -rf "$shots"
mkdir -p "$shots"
node test/browser/dashboard.mjs --dir "$T/dash" --shots "$shots" \
	>"$T/seen.json" 2>"$err"
is "$?:$(cat "$err")" 0: "chromium opens it"
jq_ok '.console_errors == [] and .page_errors == [] and .outside == []' \
	"$T/seen.json" "with no error and no request outside the folder"
jq_ok '.scroll_width <= .inner_width and .inner_width == 1280 and
	.scroll_boxes == []' "$T/seen.json" \
	"no sideways scroll at 1280 pixels, and no box that scrolls sideways"
jq_ok '[.recent[] | [.kind, .series, .size]] ==
	[["warning", "test.late", "49.8% slower"], ["change", "test.step", "+39.6%"]]
	and .recent_count == 2 and (.recent | all(.in_screen))' "$T/seen.json" \
	"what changed recently first: the warning (49.8%), then the change point (39.6%)"
# The sizes are the ones the series' own pages and the index's last change
# give.
like "$(cat "$T"/dash/s-*.html)" "warning: median 49.8% slower" \
	"the warning's size is its reason's"
like "$(cat "$T/dash/index.html")" \
	'<span class="bad">+39.6%</span> <span class="mono">0000000..0000000</span>' \
	"the change point's is the last change column's"
jq_ok '.rows == 6 and (.first_screen | length == 6 and
	all(.next_cell and .same_line and .gap >= 0 and .gap <= 24 and .in_screen))' \
	"$T/seen.json" "each series' status beside its name, in the first screen"
jq_ok '[.first_screen[].status] == ["ok · stable", "ok · stable",
	"ok · stable", "ok · stable", "ok · warning", "ok · stable"]' \
	"$T/seen.json" "test.late's reads warning"
jq_ok '.segment_words[1] == "cpu · Other CPU · gcc 12 · size 1000" and
	(.segment_titles | all(test("^segment [0-9a-f]{16}$")))' "$T/seen.json" \
	"a segment in words (backend, machine, compiler, size), its id on hover"
is "$(grep -o '>[0-9a-f]\{16\}<' "$T/dash/index.html" | wc -l)" 0 \
	"and no id in the index's text"
jq_ok '(.series_pages | all((.title | test("[0-9a-f]{16}") | not) and
	(.title_id | test("^segment [0-9a-f]{16}$"))))
	and .series_pages[1].title == "test.flat · cpu · Other CPU · gcc 12 · size 1000"' \
	"$T/seen.json" "nor in a series page's heading: its segment in words, the id on hover"
jq_ok '.intro_words <= 40' "$T/seen.json" "an intro of a sentence or two"

# No colour of a status (palette.h) draws a series' line or a point that
# no verdict colours.
rgb() {
	printf '"rgb(%d, %d, %d)"\n' "0x${1:1:2}" "0x${1:3:2}" "0x${1:5:2}"
}
statuses=$(sed -n 's/^#define PROF_PALETTE_[A-Z]* "\(#[0-9a-f]\{6\}\)"$/\1/p' \
	"$ROOT/src/report/palette.h" | while read -r c; do rgb "$c"; done |
	paste -sd, -)
jq_ok "[$statuses] as \$s | [.series_pages[].series_colours[]] | unique |
	length >= 2 and all(. as \$c | \$s | index(\$c) == null)" "$T/seen.json" \
	"the series' colours are no status's (palette.h)"
# Runs 7 and 8 share a commit; runs 1 to 6 have commits alike in their
# first 7 digits: each label tells its run apart.
jq_ok '[.series_pages[].x_runs[]] | all(length == 8 and (unique | length) == 8)
	and .[0][0:2] == ["7777777 03-08 10:00", "7777777 03-07 10:00"]' \
	"$T/seen.json" "x labels that tell apart the runs of one commit"
finish
