#!/bin/bash
# Every status a tool can print appears in its man page (prof-diff(1) had
# no "improved"; prof-report(1) named none). The statuses are the library's
# (prof_cmp_status_name() in src/lib/verdict/table.c, which every comparison is
# written through); the tools that print a row's status are the ones that
# judge (prof-diff) or carry its verdict on (prof-report's summary and
# table, prof-history's trend and changes, prof-export's status column,
# prof-dashboard's pages). Each page names each of them as a word, and
# prof-diff's --help too; and the statuses prof-diff prints are those.
. "$(dirname "$0")/lib.sh"
tools="prof-diff prof-report prof-history prof-export prof-dashboard"
plan $(($(echo $tools | wc -w) + 7))

# The statuses: what prof_cmp_status_name() returns for a comparison
# ("unjudged" is a row compared with nothing, which only report.html
# shows: below).
statuses=$(sed -n '/^prof_cmp_status_name(/,/^}/p' src/lib/verdict/table.c |
	sed -n 's/.*return "\([a-z]*\)";.*/\1/p' | grep -v -x unjudged |
	sort | tr '\n' ' ')
is "$statuses" "improved incomparable new stable unsettled warning " \
	"the library's statuses (prof_cmp_status_name)"

# A page's text, scdoc's escapes undone.
for t in $tools; do
	missing=
	for s in $statuses; do
		sed 's/\\\(.\)/\1/g' "src/$t.1.scd" | grep -qw -- "$s" ||
			missing="$missing $s"
	done
	is "$missing" "" "$t(1) names every status"
done
missing=
for s in $statuses; do
	"$BIN/prof-diff" --help | grep -qw -- "$s" || missing="$missing $s"
done
is "$missing" "" "prof-diff --help names every status"

# What prof-diff prints is among them: the fixtures give warning, stable,
# new and incomparable rows, an inverted baseline improved ones.
D=test/data/results
"$BIN/prof-diff" --baseline $D/baseline.json $D/current.json >"$T/a.json"
"$BIN/prof-diff" --baseline $D/current.json $D/baseline.json >"$T/b.json"
got=$(jq -r -s '[.[][].status] | unique | .[]' "$T/a.json" "$T/b.json" |
	sort | tr '\n' ' ')
bad=
for s in $got; do
	case " $statuses" in
	*" $s "*) ;;
	*) bad="$bad $s" ;;
	esac
done
is "$bad" "" "every status prof-diff printed ($got) is one of them"

# report.html's status words (its status_order: error and unjudged
# besides) are in prof-report(1), whose --html writes the page.
page=$(grep -rl 'status_order\[\] = {' src | head -n 1)
words=$(sed -n '/status_order\[\] = {/,/};/p' "$page" |
	grep -o '"[a-z]*"' | tr -d '"' | tr '\n' ' ')
missing=
for s in $words; do
	sed 's/\\\(.\)/\1/g' src/prof-report.1.scd | grep -qw -- "$s" ||
		missing="$missing $s"
done
is "$missing" "" "prof-report(1) names every status word of report.html ($words)"

# Every page renders as written: no prose line holds a column of a list
# (a gap of three spaces, which scdoc runs into one paragraph: prof-diff's
# statuses, prof-mem's fields read "new           the baseline ..."), and
# each line of a literal block shows as it is (scdoc takes a backslash
# there as an escape: jq's "\(.x)" lost it, a line's continuation too).
flowed=
lost=
for f in src/*.scd fragment/*.scd; do
	n=$(awk '/^```/ { b = !b; next }
		!b && !/^\t/ && /[^ ]   +[^ ]/ { n++ } END { print n + 0 }' "$f")
	[ "$n" = 0 ] || flowed="$flowed ${f##*/}"
	page=build/man/$(basename "$f" .scd)
	shown=$(MANWIDTH=300 man -l "$page" 2>/dev/null | col -bx | tr -s ' ')
	while IFS= read -r line; do
		want=$(printf '%s' "$line" | sed 's/\\\(.\)/\1/g; s/^ *//' |
			tr -s ' ')
		[ -n "$want" ] || continue
		grep -qF -- "$want" <<<"$shown" || lost="$lost ${f##*/}:'$want'"
	done < <(awk '/^```/ { b = !b; next } b' "$f")
done
is "$flowed" "" "no page runs a list's columns into a paragraph"
is "$lost" "" "every line of every literal block renders as written"

# The README's table of statuses has a row for each.
missing=
for s in $statuses; do
	grep -q "^| \`$s\` |" README.md || missing="$missing $s"
done
is "$missing" "" "the README's status table has a row for each"
finish
