#!/bin/bash
# A callgrind reader's memory follows the file's size, not its largest name
# id (issue 28, item 2): a 119-byte file with fl=(50000000) made prof-why
# allocate and zero about 1 GB (two arrays indexed by id); ids are hashed
# now. Run under a 256 MiB address-space limit, which the old reader
# could not live within.
. "$(dirname "$0")/lib.sh"
if ldd "$BIN/prof-why" 2>/dev/null | grep -q libasan; then
	skip_all "an ASan build reserves more address space than the limit"
fi
plan 5

printf '# callgrind format\nversion: 1\npositions: line\nevents: Ir\nfl=(50000000) a.c\nfn=(50000000) f\n1 5\nfn=(1) g\n1 5\ntotals: 10\n' \
	>"$T/big.out"
printf '# callgrind format\nversion: 1\npositions: line\nevents: Ir\nfl=(1) a.c\nfn=(1) f\n1 5\nfn=(2) g\n1 4\ntotals: 9\n' \
	>"$T/small.out"
limited() { # prof-why ARGS... under 256 MiB of address space
	(
		ulimit -v 262144
		exec "$BIN/prof-why" "$@"
	) >"$out" 2>"$err"
	rc=$?
}
limited --json "$T/small.out" "$T/big.out"
is "$rc:$(errline)" "0:" "ids of fifty million fit in 256 MiB"
jq_ok '.total_before == 9 and .total_after == 10 and
	([.functions[] | {name, self_after}] == [{name: "g", self_after: 5}])' \
	"$out" "and name the right functions (g grew by 1, f is the same)"
printf '# callgrind format\nversion: 1\nevents: Ir\nfl=(99999999999999999999) a.c\n' \
	>"$T/huge.out"
limited "$T/small.out" "$T/huge.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/huge.out:4: a name id 99999999999999999999 is out of range (expected a whole number from 0 to 9223372036854775807)" \
	"an id beyond 64 bits is refused with its line"
printf '# callgrind format\nversion: 1\nevents: Ir\nfn=(7)\n' >"$T/undef.out"
limited "$T/small.out" "$T/undef.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/undef.out:4: name id (7) is used before it is defined" \
	"an id never defined"
# An id defined again as another name freed the name the current file
# pointed at (found by the callgrind fuzz target).
cp test/fuzz/corpus/callgrind/crash-name-id-redefined "$T/again.out"
limited "$T/small.out" "$T/again.out"
is "$rc:$(errline)" \
	"2:prof-why: $T/again.out:6: name id (1) is defined again as another name" \
	"an id defined again as another name is refused"
finish
