#!/bin/bash
# prof-why on two DHAT outputs (test/data/dhat, hand-made): the allocation
# sites per function that changed, as a table and as JSON, ranked by
# bytes, allocations or the most bytes live; bad DHAT files refused with
# their place; --comparisons --memory DIR gives a changed memory row its
# sites, and a DHAT file that cannot be read is one line on the row
# (memory_sites_note) and in summary.md, never a failed run.
. "$(dirname "$0")/lib.sh"
plan 20

D=test/data/dhat

run prof-why $D/before.json $D/after.json
is "$rc" 0 "two DHAT outputs compared: exit 0"
is "$(head -n 1 "$out")" \
	"bytes allocated 1,053,104 -> 2,101,748 (+1,048,644, +99.58%), inside run()" \
	"the whole change of bytes first, and what was counted"
is "$(sed -n 3p "$out" | tr -s ' ')" \
	" +1,048,576 100.0% +1 +1,048,576 copy_run (/q/test/workloads/ab.c)" \
	"then the site of the largest change: the function that allocates"
like "$(sed -n 4p "$out")" "new       table_grow (/q/bin/w)" "a new site"
like "$(sed -n 5p "$out")" "vanished  old_cache (/p/src/cache.c)" \
	"a vanished site"
is "$(tail -n 1 "$out")" "1 new, 1 vanished, 2 unchanged site(s)" \
	"the counts last"

run prof-why --json --by allocations --top 2 $D/before.json $D/after.json
is "$rc" 0 "--json --by allocations --top 2: exit 0"
jq_ok '.by == "allocations" and .allocs_before == 6 and
	.allocs_after == 8 and .scope_before == "run" and .new == 1 and
	.vanished == 1 and .unchanged == 2 and
	[.sites[].name] == ["table_grow", "copy_run"] and
	.sites[1].max_live_after == 2097152' "$out" \
	"the top 2 by allocations, with every number of each site"

run prof-why --by self $D/before.json $D/after.json
is "$rc:$(errline)" \
	"2:prof-why: --by self is for callgrind files; DHAT's sites are ranked by bytes, allocations or max-live" \
	"--by self on DHAT files is refused"
run prof-why test/data/why/before.out $D/after.json
is "$rc:$(errline)" \
	"2:prof-why: '$D/after.json' is DHAT's output and 'test/data/why/before.out' is not: give two callgrind files or two DHAT files" \
	"a callgrind file and a DHAT file are refused"
jq '.pps[1].fs[1] = 99' $D/after.json >"$T/bad.json"
run prof-why $D/before.json "$T/bad.json"
is "$rc:$(errline)" \
	"2:prof-why: $T/bad.json: .pps[1].fs[1]: expected a frame of .ftbl (0 to 15)" \
	"a frame beyond the table: the file and the JSON path"
head -c 300 $D/after.json >"$T/cut.json"
run prof-why $D/before.json "$T/cut.json"
like "$rc:$(errline)" "2:prof-why: $T/cut.json:" "a cut file: exit 2, its name"

# --comparisons --memory DIR: a changed memory row gets its sites.
mkdir -p "$T/r/memory/current" "$T/r/memory/reference"
cp $D/before.json "$T/r/memory/reference/test.ab_copy.cpu.dhat.json"
cp $D/after.json "$T/r/memory/current/test.ab_copy.cpu.dhat.json"
row() { # METRIC STATUS
	printf '{"workload": "test.ab_copy", "backend": "cpu", "phase": "memory", "metric": "%s", "status": "%s", "reason": "r"}' "$1" "$2"
}
printf '[%s, %s, %s]\n' "$(row host_peak_bytes warning)" \
	"$(row host_allocs stable)" "$(row host_allocated_bytes warning)" \
	>"$T/r/comparisons.json"
cp "$T/r/comparisons.json" "$T/r/c0.json"
run prof-why --comparisons "$T/r/comparisons.json" --memory "$T/r/memory"
is "$rc" 0 "--comparisons --memory: exit 0"
jq_ok '.[0].memory_sites[0].name == "copy_run" and
	.[0].memory_sites_artifacts.by == "max-live" and
	.[0].memory_sites_artifacts.before ==
		"memory/reference/test.ab_copy.cpu.dhat.json" and
	.[2].memory_sites_artifacts.by == "bytes" and
	.[2].memory_sites[0].bytes_after == 2097152' "$T/r/comparisons.json" \
	"each changed memory row: its sites, ranked by what its metric counts"
jq_ok '.[1] | has("memory_sites") | not' "$T/r/comparisons.json" \
	"a stable row is left as it is"

cp "$T/r/c0.json" "$T/r/comparisons.json"
cp "$T/bad.json" "$T/r/memory/current/test.ab_copy.cpu.dhat.json"
run prof-why --comparisons "$T/r/comparisons.json" --memory "$T/r/memory"
is "$rc" 0 "a bad DHAT file does not fail the comparisons"
is "$(errline)" \
	"prof-why: no allocation sites for test.ab_copy (cpu): $T/r/memory/current/test.ab_copy.cpu.dhat.json: .pps[1].fs[1]: expected a frame of .ftbl (0 to 15)" \
	"it is said in one line"
jq_ok '.[0].memory_sites_note | test("pps\\[1\\]")' "$T/r/comparisons.json" \
	"and kept on the row"

rm "$T/r/memory/current/test.ab_copy.cpu.dhat.json"
cp "$T/r/c0.json" "$T/r/comparisons.json"
run prof-why --comparisons "$T/r/comparisons.json" --memory "$T/r/memory"
jq_ok 'all(.[]; has("memory_sites") | not)' "$T/r/comparisons.json" \
	"a side without its DHAT file: the rows stay as they are"

run prof-why --memory "$T/r/memory" $D/before.json $D/after.json
is "$rc:$(errline)" \
	"2:prof-why: --results, --baseline, --time and --memory go with --comparisons" \
	"--memory without --comparisons is refused"
finish
