#!/bin/bash
# make compare REF= MEMORY=1 WHY=1 in a tiny project on the installed
# fragment: both sides built, the memory phase of each in turn; the
# commit that makes run() sum a copy of its 400,000-byte buffer is a heap
# peak warning against its parent, deterministic on both sides, and
# names run as the site that allocates the copy.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
command -v valgrind >/dev/null || skip_all "valgrind is not installed"
plan 4

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init || exit 1
project_copy_run
commit "run sums a copy"

mk compare REF=HEAD~1 MEMORY=1 WHY=1 OUTPUT="$T/c"
is "$rc" 0 "make compare REF=HEAD~1 MEMORY=1 WHY=1: exit 0"
jq_ok '[.[] | select(.phase == "memory") | {(.metric): .status}] | add |
	.host_peak_bytes == "warning" and .host_allocs == "stable" and
	.host_allocated_bytes == "warning"' "$T/c/comparisons.json" \
	"the heap peak and bytes allocated warnings, one allocation more stable"
jq_ok 'all(.[] | select(.phase == "memory" and .rule == "exact");
	.deterministic == {"current": true, "baseline": true})' \
	"$T/c/comparisons.json" "each side's exact rows deterministic"
jq_ok '.[] | select(.metric == "host_peak_bytes") | .memory_sites[0] |
	.name == "run" and .state == "new" and .max_live_after == 400000' \
	"$T/c/comparisons.json" "run is the site of the copy"
finish
