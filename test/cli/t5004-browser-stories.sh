#!/bin/bash
# The browser stories (playwright-core driving Debian's chromium against
# plotkit serve) and make profile-full with all four layers.
. "$(dirname "$0")/lib.sh"
if [ ! -x /usr/lib/chromium/chromium ] && [ ! -x /usr/bin/chromium ]; then
	skip_all "chromium is not installed (make deps installs it)"
fi
if [ ! -d node_modules/playwright-core ]; then
	skip_all "playwright-core is not installed (make deps runs npm ci)"
fi
plan 19

mk() {
	make -s --no-print-directory -o all BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}

# The stories' rows as they write them (stories.mjs --out), from the
# make profile-full below: one run of chromium, not two. Its exit 0 says
# that they ran: a failed story fails the run (exit 2, as below).
mk profile-full REPEAT=2 OUTPUT="$T/full" BASELINE="$T/none.json"
is "$rc" 0 "make profile-full runs the engine, pipeline, server and browser"
b=$T/full/browser.jsonl
jq_ok -s 'length == 4 and all(.[]; .outcome == "success" and
	.backend == "chromium" and .duration_ms > 0 and
	(.env.browser | startswith("Chromium ")))' "$b" \
	"two samples of each story, with the browser's version"
jq_ok -s '[.[] | select(.workload == "browser.large_viewport")] |
	all(.[]; .metrics.shapes == 8000 and .fixture == "dense-circles-8000"
	and (.metrics.style_recalc_ms | type == "number") and
	(.metrics.layout_ms | type == "number") and
	(.metrics.script_ms | type == "number"))' "$b" \
	"the large viewport painted 8,000 shapes; CDP metrics are kept"
jq_ok -s '[.[] | select(.workload == "browser.boot")] | map(.index) == [0, 1]' \
	"$b" "samples are numbered"
run prof-merge --playwright "$b"
jq_ok '.samples | all(.[]; .phase == "browser")' "$out" "prof-merge reads them"

node workloads/browser/stories.mjs --out "$T/x.jsonl" \
	--chromium /no/such/chromium >"$out" 2>"$err"
is "$?" 2 "a missing browser is an infrastructure error"
is "$(cat "$err")" "stories: chromium not found at '/no/such/chromium'" \
	"that names it"
node workloads/browser/stories.mjs --out "$T/x.jsonl" --story nope \
	>"$out" 2>"$err"
is "$?:$(cat "$err")" "2:stories: unknown story 'nope' (boot, large_viewport)" \
	"an unknown story is exit 2"

jq_ok '[.samples[] | select(.phase == "timing" or .phase == "browser") |
	.category] | unique == ["browser", "generator", "pipeline",
	"primitive", "reference", "server"]' "$T/full/results.json" \
	"with every category"
jq_ok '. as $r | [.samples[] | select(.category == "browser")] |
	length == 4 and
	all(.[]; $r.segments[.segment_id] | fromjson | .backend == "chromium" and
	(.browser | startswith("Chromium ")))' "$T/full/results.json" \
	"the browser rows carry chromium's version in their segment"
like "$(cat "$T/full/summary.md")" '| `browser.boot` | chromium |' \
	"summary.md has a row for browser.boot"
like "$(cat "$T/full/summary.md")" '| `browser.large_viewport` | chromium |' \
	"and for browser.large_viewport"
ok "$([ -s "$T/full/browser.jsonl" ] && [ ! -e results.jsonl ]; echo $?)" \
	"the browser rows are in the run folder"

# CATEGORY names browser and one cheap workload's category: the exclusion
# wins, and the run times libxml2's parse alone, not every workload again.
mk profile-full REPEAT=1 EXCLUDE_CATEGORY=browser CATEGORY="reference browser" \
	CHROMIUM=/no/such/chromium OUTPUT="$T/nob" BASELINE="$T/none.json"
is "$rc" 0 "EXCLUDE_CATEGORY=browser works without a browser, even when CATEGORY names it"
jq_ok '[.samples[] | select(.category == "browser")] | length == 0' \
	"$T/nob/results.json" "and plays no story"

mk profile-full REPEAT=1 CATEGORY=browser CHROMIUM=/no/such/chromium \
	OUTPUT="$T/bad" BASELINE="$T/none.json"
is "$rc" 2 "without the browser, the stories fail the run"
like "$(cat "$err")" "CHROMIUM: '/no/such/chromium' is not an executable file" \
	"saying why, before the first phase (t6312)"

# node missing: a PATH without it.
sudo=
[ "$(id -u)" = 0 ] || sudo="sudo "
mkdir -p "$T/path"
for f in /usr/bin/* /bin/*; do
	b=${f##*/}
	[ "$b" = node ] && continue
	[ -e "$T/path/$b" ] || ln -s "$f" "$T/path/$b"
done
PATH=$T/path mk profile-full REPEAT=1 CATEGORY=browser OUTPUT="$T/nonode" \
	BASELINE="$T/none.json"
is "$rc" 2 "without node, the stories fail the run"
like "$(cat "$err")" "missing before the first phase: node (the browser stories); install with: ${sudo}apt-get install -y nodejs npm (or: make deps, as root)" \
	"saying what to install"
finish
