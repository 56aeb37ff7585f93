#!/bin/bash
# prof-why: two hand-made callgrind outputs ranked (test/data/why), as a
# table and as JSON, the flame graph file, and the exit codes; C++ names
# written mangled (callgrind --demangle=no) demangled by c++filt, and
# matched with the same functions written demangled.
. "$(dirname "$0")/lib.sh"
plan 25

D=test/data/why

run prof-why $D/before.out $D/after.out
is "$rc" 0 "two outputs compared: exit 0"
is "$(head -n 1 "$out")" "instructions 1,600 -> 1,870 (+270, +16.88%)" \
	"the whole change first"
is "$(sed -n 3p "$out" | tr -s ' ')" " +500 185.2% +500 work (work.c)" \
	"then the largest change of self, with its share"
like "$(sed -n 4p "$out")" "vanished  old_fn (main.c)" "a vanished function"
like "$(sed -n 5p "$out")" "new       new_fn (main.c)" "a new function"
like "$(sed -n 6p "$out")" "helper (helpers.c), was in util.c" \
	"a function whose file changed"
is "$(tail -n 1 "$out")" "1 new, 1 vanished, 1 unchanged function(s)" \
	"the counts last"

run prof-why --json --by inclusive --top 3 $D/before.out $D/after.out
is "$rc" 0 "--json --by inclusive --top 3: exit 0"
jq_ok '.by == "inclusive" and .total_before == 1600 and
	.total_after == 1870 and .new == 1 and .vanished == 1 and
	(.functions | length) == 3 and
	([.functions[].name] == ["work", "old_fn", "main"])' "$out" \
	"the top 3 by inclusive change"
jq_ok '.functions[0] | .self_before == 900 and .self_after == 1400 and
	.inclusive_before == 1000 and .inclusive_after == 1500 and
	.state == "changed" and .file == "work.c" and .file_before == null' \
	"$out" "with self and inclusive before and after"
jq_ok '.functions[1].state == "vanished" and
	.functions[2].inclusive_share == 1' "$out" "states and shares"

run prof-why --svg "$T/f.svg" -o "$T/t.txt" $D/before.out $D/after.out
is "$rc" 0 "--svg: exit 0"
is "$(grep -c 'class="frame more"' "$T/f.svg")" 1 \
	"the flame graph has one frame with more work"

run prof-why $D/before.out
is "$rc" 2 "one file: exit 2"
is "$(errline)" "prof-why: give two callgrind outputs: BEFORE AFTER" \
	"saying what to give"
run prof-why --by time $D/before.out $D/after.out
is "$(errline)" "prof-why: --by: 'time' is not self, inclusive, bytes, allocations or max-live" \
	"a bad --by is named"
run prof-why $D/before.out $D/badcost.out
is "$rc" 2 "a malformed output: exit 2"
is "$(errline)" \
	"prof-why: $D/badcost.out:8: a cost line that is not numbers" \
	"naming the file and line"
run prof-why $D/before.out $T/missing.out
is "$(errline)" \
	"prof-why: $T/missing.out: cannot read the callgrind dump: No such file or directory" \
	"a missing file is named"
run prof-why -o $D/after.out $D/before.out $D/after.out
is "$(errline)" \
	"prof-why: -o: '$D/after.out' is an input; refusing to overwrite it" \
	"an input is never overwritten"
# One side mangled (callgrind --demangle=no), the other demangled.
run prof-why --json $D/mangled.out $D/demangled-after.out
is "$rc:$(cat "$err")" "0:" "mangled names: exit 0, nothing on stderr"
jq_ok '.functions[0] | .name == "foo::bar()" and .state == "changed" and
	.self_before == 600 and .self_after == 900' "$out" \
	"_ZN3foo3barEv is foo::bar(), matched with the demangled side"
jq_ok '.new == 0 and .vanished == 0 and
	all(.functions[]; .name | startswith("_Z") | not)' "$out" \
	"no name is left mangled; a constructor's C1 and C2 are foo::foo()"
PATH=/nonexistent run "$BIN/prof-why" --json $D/mangled.out \
	$D/demangled-after.out
is "$rc:$(cat "$err")" \
	"0:prof-why: c++filt (binutils) cannot be run: C++ names are left mangled (apt-get install binutils)" \
	"without c++filt: said once, exit 0"
jq_ok 'any(.functions[]; .name == "_ZN3foo3barEv" and
	.state == "vanished")' "$out" "and the names stay mangled"
finish
