#!/bin/bash
# prof-time --memory and prof-count --memory -- CMD: after the timed or
# counted runs, two runs of the command of their own under the allocation
# interposer give memory samples (call 0 each, so prof-diff checks that
# they repeat) with the heap peak, allocations and bytes allocated of the
# command's process tree, judged exactly like a workload's: an A/A stable
# and deterministic, twice the block size a warning. A static or setuid
# program, which the loader does not preload into, is said so: no heap
# numbers, the RSS peak still, exit 0. Every memory sample carries its
# run's RSS peak, as a worker's does. The interposer is never inside a
# timed or counted run.
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || skip_all "no C compiler"
plan 25

# N blocks of SIZE bytes, live together (environment, so that the
# arguments, the command's identity, stay the same).
cat >"$T/allocs.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
int
main(void)
{
	long n = atol(getenv("N")), size = atol(getenv("SIZE")), i;
	char **p = malloc(n * sizeof(*p));

	for (i = 0; i < n; i++) {
		p[i] = malloc(size);
		memset(p[i], 1, size);
	}
	for (i = 0; i < n; i++)
		free(p[i]);
	free(p);
	return 0;
}
EOF
cc -O1 -o "$T/allocs" "$T/allocs.c" || exit 1

timed() {
	N=100 SIZE=$2 "$BIN/prof-time" --name allocs --repeat 3 -q --memory \
		-o "$T/$1.jsonl" -- "$T/allocs" &&
		"$BIN/prof-merge" --run-id "$1" -o "$T/$1.json" "$T/$1.jsonl"
}

N=100 SIZE=1000 run prof-time --name allocs --repeat 2 --memory -- "$T/allocs"
is "$rc" 0 "prof-time --memory -- CMD: exit 0"
jq_ok -s '[.[] | select(.phase == "timing")] | length == 2 and
	all(.[]; (.memory | keys) == ["rss_peak_bytes"])' "$out" \
	"the timed runs as before: the RSS peak only, no interposer"
jq_ok -s '[.[] | select(.phase == "memory")] | length == 2 and
	map(.index) == [0, 1] and all(.[]; .call == 0 and
	.outcome == "success" and .metrics.heap_tracked == true and
	.memory.processes == 1 and .memory.host_allocs > 0 and
	.memory.host_peak_bytes > 0 and .memory.host_allocated_bytes > 0 and
	.memory.rss_peak_bytes == .metrics.max_rss_bytes)' "$out" \
	"then two memory runs, call 0 each: heap peak, allocations, bytes, RSS peak"
# The numbers the program's blocks make: 100 of 1000 bytes and the array
# of their 100 pointers (800 bytes), all live at once: 101 allocations,
# and as many bytes, each block rounded up by the allocator by less than
# 16 bytes (glibc: 100808). Not only numbers the pages agree on: twice
# every memory value fails here.
known() { # SIZE: the jq test of a memory sample of N=100 blocks of SIZE
	echo ".memory | .host_allocs == 101 and
		(.host_peak_bytes | . >= 100 * $1 + 800 and
			. < 100 * $1 + 800 + 101 * 16) and
		.host_allocated_bytes == .host_peak_bytes"
}
jq_ok -s "[.[] | select(.phase == \"memory\")] | all(.[]; $(known 1000))" \
	"$out" "the heap numbers of the program's blocks: 101 allocations, 100,800 bytes and the allocator's rounding"
jq_ok -s '[.[] | select(.phase == "memory") | .memory |
	[.host_peak_bytes, .host_allocs, .host_allocated_bytes]] |
	.[0] == .[1]' "$out" "the same numbers on both runs"
heap=$(jq -s -c '[.[] | select(.phase == "memory")][0].memory |
	[.host_peak_bytes, .host_allocs, .host_allocated_bytes]' "$out")

timed a 1000
timed b 1000
"$BIN/prof-diff" --baseline "$T/a.json" -o "$T/aa.json" "$T/b.json" 2>"$err"
jq_ok '[.[] | select(.phase == "memory") | .metric] == ["host_peak_bytes",
	"host_allocs", "host_allocated_bytes", "rss_peak_bytes"]' "$T/aa.json" \
	"prof-diff: the three heap rows beside the RSS peak's"
jq_ok '[.[] | select(.phase == "memory" and .rule == "exact")] |
	length == 3 and all(.[]; .status == "stable" and
	.deterministic == {"current": true, "baseline": true})' "$T/aa.json" \
	"an A/A: exact, deterministic, stable"
timed c 2000
"$BIN/prof-diff" --baseline "$T/a.json" -o "$T/ac.json" "$T/c.json" 2>"$err"
jq_ok '[.[] | select(.phase == "memory") | {(.metric): .status}] | add |
	.host_peak_bytes == "warning" and .host_allocated_bytes == "warning"
	and .host_allocs == "stable"' "$T/ac.json" \
	"twice the block size: heap peak and bytes warnings, allocations stable"
jq_ok "[.[] | select(.phase == \"memory\" and .rule == \"exact\")] |
	map({(.metric): [.baseline.median, .current.median]}) | add |
	{memory: {host_allocs: .host_allocs[0],
		  host_peak_bytes: .host_peak_bytes[0],
		  host_allocated_bytes: .host_allocated_bytes[0]}} as \$b |
	{memory: {host_allocs: .host_allocs[1],
		  host_peak_bytes: .host_peak_bytes[1],
		  host_allocated_bytes: .host_allocated_bytes[1]}} as \$c |
	(\$b | $(known 1000)) and (\$c | $(known 2000))" "$T/ac.json" \
	"its medians: the blocks' bytes, 1000 and 2000 bytes a block"
jq_ok '.[] | select(.metric == "host_peak_bytes") | .reason |
	startswith("heap peak ")' "$T/ac.json" "in the words of a workload's row"

# prof-count: the memory runs outside valgrind, in its fixed environment,
# with the RSS peak (the counted runs have none); the count is the same
# with --memory as without (the interposer is never counted).
run prof-count --name allocs --memory --env N=100 --env SIZE=1000 -- \
	"$T/allocs"
is "$rc" 0 "prof-count --memory -- CMD: exit 0"
jq_ok -s '[.[] | select(.phase == "memory")] | length == 2 and
	all(.[]; .call == 0 and .memory.rss_peak_bytes > 0 and
	.metrics.heap_tracked == true)' "$out" \
	"two memory samples after the counts, with the RSS peak"
is "$(jq -s -c '[.[] | select(.phase == "memory")][0].memory |
	[.host_peak_bytes, .host_allocs, .host_allocated_bytes]' "$out")" \
	"$heap" "the same heap numbers as prof-time's"
with=$(jq -s '[.[] | select(.phase == "instructions") | .instructions] |
	unique | .[0]' "$out")
"$BIN/prof-count" --name allocs -q --env N=100 --env SIZE=1000 -- "$T/allocs" \
	>"$T/nc" 2>/dev/null
is "$(jq -s '[.[] | select(.phase == "instructions") | .instructions] |
	unique | .[0]' "$T/nc")" "$with" \
	"the instruction count is the one without --memory"

# prof-mem -- CMD: the same runs, two by default, call 0 each.
N=100 SIZE=1000 run prof-mem --name allocs -- "$T/allocs"
jq_ok -s 'length == 2 and all(.[]; .call == 0 and
	.memory.host_allocated_bytes >= 100000 and .memory.rss_peak_bytes > 0)' \
	"$out" "prof-mem -- CMD: two runs, bytes allocated too"

# A static program: the loader preloads nothing into it.
if cc -O1 -static -o "$T/static" "$T/allocs.c" 2>/dev/null; then
	N=10 SIZE=10 run prof-time --name st --repeat 1 --memory -- "$T/static"
	is "$rc" 0 "a static command: exit 0, never an error"
	jq_ok -s '[.[] | select(.phase == "memory")] | length == 2 and
		all(.[]; .outcome == "success" and .metrics.heap_tracked == false
		and (.memory | keys) == ["rss_peak_bytes"])' "$out" \
		"its memory samples say heap_tracked false, no heap numbers"
	jq_ok -s '.[] | .memory.rss_peak_bytes > 0' \
		"$out" "the RSS peak still (the timed runs' and the memory runs')"
	is "$(errline)" "prof-time: st: no heap numbers: the allocation interposer did not count '$T/static': a static program (metrics.heap_tracked false)" \
		"and it is said, once"
	run prof-count --name st --memory -q --env N=10 --env SIZE=10 -- \
		"$T/static"
	jq_ok -s '[.[] | select(.phase == "memory")] | length == 2 and
		all(.[]; .memory | keys == ["rss_peak_bytes"])' "$out" \
		"prof-count: the RSS peak only"
else
	for i in 1 2 3 4 5; do ok 0 "# SKIP no static libc"; done
fi

# A setuid program (another user's, run by root): secure execution, the
# preload ignored. Only where this user can make one.
cp "$T/allocs" "$T/suid"
if [ "$(id -u)" = 0 ] && chown 65534 "$T/suid" 2>/dev/null &&
	chmod 4755 "$T/suid" && chmod 755 "$T"; then
	N=10 SIZE=10 run prof-time --name su --repeat 1 --memory -q -- "$T/suid"
	jq_ok -s 'map(select(.phase == "memory") | .metrics.heap_tracked) ==
		[false, false]' "$out" "a setuid command: heap_tracked false, exit $rc"
else
	ok 0 "# SKIP cannot make a setuid program here"
fi

# Across builds: prof-count's two sides each get their memory runs;
# prof-time's interleaved A/B does not take them.
run prof-count --name allocs --memory -q --env N=10 --env SIZE=10 \
	--against-command "$T/allocs" --against-output "$T/ref.jsonl" \
	-o "$T/cur.jsonl" -- "$T/allocs"
cat "$T/cur.jsonl" "$T/ref.jsonl" >"$T/both.jsonl"
jq_ok -s '[.[] | select(.phase == "memory")] | length == 4 and
	(map(.memory.host_allocs) | unique | length == 1)' "$T/both.jsonl" \
	"prof-count --against-command --memory: two memory runs a side"
run prof-time --name allocs --memory --against-command "$T/allocs" \
	--against-output "$T/ref2.jsonl" -- "$T/allocs"
is "$rc:$(errline)" "2:prof-time: --memory: not with --against-command (run prof-mem --name ID -- CMD on each command)" \
	"prof-time's interleaved A/B refuses --memory"
run prof-time quick --memory --workloads "$TW"
is "$rc:$(errline)" "2:prof-time: --memory: only for a command (--name ID -- CMD); workloads have the memory phase (prof-mem, MEMORY=1)" \
	"--memory is for commands"
run prof-mem --name x --memory -- true
is "$rc:$(errline)" "2:prof-mem: --memory: only for prof-time and prof-count (prof-mem is the memory phase)" \
	"prof-mem has no --memory"
finish
