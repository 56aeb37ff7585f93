#!/bin/bash
# One glossary: report.html (and the dashboard's index) end with the
# words they show, each with prof(7)'s definition, the same text as the
# man page's GLOSSARY; each status badge links to its word's entry.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 7

# prof(7)'s GLOSSARY as "word<TAB>definition" lines, scdoc's escapes off.
man_terms() {
	sed -n '/^# GLOSSARY/,/^# SEE ALSO/p' "$ROOT/src/prof.7.scd" |
		awk '/^\*/ { t = $0; gsub(/\*/, "", t); next }
			/^\t/ { d = $0; sub(/^\t/, "", d); gsub(/\\_/, "_", d);
				print t "\t" d }'
}
# page_terms HTML: the glossary section's entries, the same way.
page_terms() {
	grep -o '<section class="glossary" id="glossary">.*</section>' "$1" |
		sed 's/<dt id="[^"]*">/\n/g; s/<\/dt><dd>/\t/g; s/<\/dd>//g;
			s/<\/dl><\/section>//' | sed 1d |
		sed "s/&lt;/</g; s/&gt;/>/g; s/&quot;/\"/g; s/&#39;/'/g; s/&amp;/\\&/g"
}

mkrun "$T/base.json" base c-base 2026-02-01T00:00:00Z 10 10.1 10.2 10.1 10
mkrun "$T/cur.json" cur c-cur 2026-02-02T00:00:00Z 20 20.1 20.2 20.1 20
run prof-diff --baseline "$T/base.json" -o "$T/c.json" "$T/cur.json"
run prof-report --comparisons "$T/c.json" -q -o "$T/s.md" --html "$T/r.html" \
	"$T/cur.json"
is "$rc:$(cat "$err")" "0:" "prof-report --html: exit 0"
n=$(man_terms | wc -l)
ok "$([ "$n" -ge 40 ] && echo 0 || echo 1)" "prof(7) defines $n words"
is "$(page_terms "$T/r.html")" "$(man_terms)" \
	"report.html's glossary is prof(7)'s, word for word"
like "$(cat "$T/r.html")" \
	'<a class="gl" href="#g-warning"><span class="badge s-warning">warning</span></a>' \
	"its warning badge links to the word's entry"
# Every link to the glossary lands on an entry the page has.
is "$(grep -o 'href="#g-[^"]*"' "$T/r.html" | sed 's/href="#//; s/"//' |
	sort -u | while read -r id; do
		grep -q "<dt id=\"$id\">" "$T/r.html" || echo "$id"
	done)" "" "every glossary link has its entry"

db=$T/h.sqlite
run prof-history --db "$db" add "$T/base.json"
run prof-history --db "$db" add "$T/cur.json"
run prof-dashboard --db "$db" -o "$T/dash"
is "$(page_terms "$T/dash/index.html")" "$(man_terms)" \
	"the dashboard's index ends with the same glossary"
is "$(grep -o 'href="#g-[^"]*"' "$T/dash/index.html" | sed 's/href="#//; s/"//' |
	sort -u | while read -r id; do
		grep -q "<dt id=\"$id\">" "$T/dash/index.html" || echo "$id"
	done)" "" "and every link of the index to it has its entry"
finish
