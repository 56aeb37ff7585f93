#!/bin/sh
# plotkit flatten: hand-made SVGs against their analytic values (circle,
# ellipse, arcs, rounded rects, cubics, quadratics, transforms, units,
# viewBox, inheritance): paths and pens exactly, lengths within 0.5 %,
# bounds within 0.02 mm. test/data/svg/NAME.svg has its answer, and how it
# was worked out, in NAME.json.
. "$(dirname "$0")/lib.sh"

# want FILTER NAME: jq -e FILTER on the last output, $w being the answer.
want() {
	jq -e --slurpfile w "$answer" "$1" "$out" >/dev/null 2>"$T/jq.err"
	ok $? "$2"
}

set -- test/data/svg/[!b]*.svg
plan $(($# * 4 + 6))

for svg in "$@"; do
	name=$(basename "$svg" .svg)
	answer=${svg%.svg}.json
	run plotkit flatten "$svg"
	is "$rc:$(cat "$err")" "0:" "$name: exit 0, nothing on stderr"
	want '.paths == $w[0].paths and
		(if $w[0].pens then .pens == $w[0].pens else true end)' \
		"$name: $(jq .paths "$answer") path(s), the right pens"
	want '(.length_mm - $w[0].length_mm | fabs) <=
		0.005 * $w[0].length_mm' \
		"$name: length within 0.5% of $(jq .length_mm "$answer") mm"
	want '[range(4) as $i | .bounds_mm[$i] - $w[0].bounds_mm[$i] | fabs] |
		max <= 0.02' \
		"$name: bounds within 0.02 mm of $(jq -c .bounds_mm "$answer")"
done

run plotkit flatten - <test/data/svg/circle.svg
jq_ok '.paths == 1 and .circles == 1 and .page_mm == [100, 100] and
	.pens == {"#000000": 1} and .step_mm == 0.5 and .tolerance_mm == 0.01' \
	"$out" "stdin: the circle, its page, its pen and the defaults"

fine=$("$BIN/plotkit" flatten test/data/svg/circle.svg | jq .points)
run plotkit flatten --step 2 --tolerance 0.5 test/data/svg/circle.svg
coarse=$(jq .points "$out")
ok "$([ "$coarse" -lt "$fine" ]; echo $?)" \
	"--step 2 --tolerance 0.5: $coarse points, fewer than $fine"
jq_ok '.length_mm < 125.663706 and .length_mm > 125.663706 * 0.99' "$out" \
	"and the chords still stay within 1% of the circle"

# Chords strayed e from a circle of radius R fall short by e / 3R of its
# length: 2 pi tol / 3 = 2.1 um at most here.
run plotkit flatten --tolerance 0.001 test/data/svg/circle.svg
jq_ok '.tolerance_mm == 0.001 and (.length_mm - 125.663706 | fabs) < 0.0021' \
	"$out" "--tolerance 0.001: the length within 2.1 um"

run plotkit flatten test/data/svg/circle.svg --step 1
jq_ok '.step_mm == 1' "$out" "options after the file are read too"

run plotkit flatten --help
is "$(head -n 1 "$out")" \
	"usage: plotkit flatten [--step MM] [--tolerance MM] FILE|-" \
	"--help prints the usage on stdout"
finish
