#!/bin/bash
# make bisect CHANNEL=memory in a tiny project on the installed fragment
# (lib-project.sh): four commits after GOOD, the 2nd makes run() sum a
# copy of its 400,000-byte buffer; bisect names it from one memory run per
# commit (the heap peak a warning against GOOD's), names the function
# that allocates the copy (DHAT), and writes bisect.json with every step's
# heap peak, allocations and bytes allocated.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 9

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init || exit 1
good=$(git rev-parse HEAD)
echo "/* a comment */" >>tiny.c
commit "a comment"
# run() sums a copy of the buffer: one allocation of TINY_N * 4 bytes more
project_copy_run
commit "run sums a copy"
first=$(git rev-parse HEAD)
echo "/* another */" >>tiny.c
commit "another comment"
echo "/* and one more */" >>tiny.c
commit "one more comment"

mk bisect GOOD="$good" BAD=HEAD W=tiny.sum CHANNEL=memory OUTPUT="$T/b"
is "$rc" 0 "make bisect CHANNEL=memory: exit 0"
is "$(sed -n 1p "$out")" "first changed commit: $first run sums a copy" \
	"it names the commit that added the copy"
like "$(sed -n 2p "$out")" \
	"change: warning against GOOD ${good:0:7}: heap peak " \
	"then the change: the heap peak, by the memory rule"
like "$(cat "$out")" \
	"allocation sites against $(git rev-parse --short "$first^") (its parent), by the most bytes live at once (valgrind's DHAT):" \
	"then the allocation sites against its parent"
ok "$(grep -A 3 'allocation sites against' "$out" |
	grep -q ' +400,000 .* new  *run (.*tiny.c)$'; echo $?)" \
	"run is the function that allocates 400,000 bytes more"
b=$T/b/bisect.json
jq_ok '.channel == "memory" and .first_changed.commit == "'"$first"'" and
	.first_changed.status == "warning" and
	.first_changed.metric == "host_peak_bytes"' "$b" \
	"bisect.json: the first changed commit, its heap peak a warning"
jq_ok 'all(.steps[] | select(.built); .value >= 0) and
	(.steps[] | select(.commit == "'"$first"'") | .memory |
	 .host_peak_bytes.current - .host_peak_bytes.good >= 400000 and
	 .host_allocs.current - .host_allocs.good == 1)' "$b" \
	"every step with its heap peak; the first changed one's numbers"
jq_ok '.functions.sites[0].name == "run" and
	.functions.sites[0].allocs_after - .functions.sites[0].allocs_before
	== 1' "$b" "and the allocation sites, run first"

mk bisect GOOD="$good" BAD=HEAD W=tiny.sum CHANNEL=bytes OUTPUT="$T/b2"
is "$rc:$(head -n 1 "$err")" \
	"2:make bisect: CHANNEL: 'bytes' is not instructions, time or memory" \
	"another channel is refused"

finish
