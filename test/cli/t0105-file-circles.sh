#!/bin/bash
# No circle among the files of libprof (src/lib and its folders), the cli
# layer (src/cli), the runner (src/runner), the pages (src/report) and the
# harness (src/harness):
# no file calls into another that calls back into it, directly or round a
# longer loop; and each layer calls only the layers below it. libprof's
# folders are its layers, bottom up: base/ (no knowledge of prof's
# records), model/ (samples, results, their readers and writers), the
# verdicts (verdict/: the table, the rules, the typed verdict, the view,
# the channels read together), history/, and why/ beside them; the pages'
# kit (kit/: page, glossary) on top. Over libprof and
# src/cli, beside the runner and calling neither it nor back into it, the
# report layer (src/report: prof-report's page, which draws the history,
# and summary.md's escape). Checked on the
# objects (nm): which file's global symbols each file uses; and on
# libprof's includes, which keep the same order. t0101 checks the
# runner's own files top-down.
. "$(dirname "$0")/lib.sh"

OBJ=$ROOT/${PROF_BUILD:-build}
command -v nm >/dev/null || skip_all "nm is not installed"
plan 16

# circles: edges "FROM TO" on stdin; each circle (the files that reach each
# other, a strongly connected set of two or more) as one sorted line.
circles() {
	awk '
	{ e[$1, $2] = 1; n[$1]; n[$2] }
	END {
		for (k in n) for (i in n) if ((i, k) in e)
			for (j in n) if ((k, j) in e) e[i, j] = 1
		for (i in n) {
			if (seen[i]) continue
			s = i
			for (j in n)
				if (j != i && (i, j) in e && (j, i) in e) {
					s = s " " j
					seen[j] = 1
				}
			if (s != i) print s
		}
	}' | while read -r line; do
		echo "$line" | tr ' ' '\n' | sort | tr '\n' ' '
		echo
	done | sort
}

# The finder finds what it looks for: a loop of three and one of two.
is "$(printf '%s\n' "a b" "b c" "c a" "d a" "e f" "f e" "f g" | circles |
	tr '\n' '|')" "a b c |e f |" "the finder names each circle's files"

# libprof's folders are its layers: no file of it lies outside them.
is "$(cd "$ROOT" && ls src/lib/*.[ch] 2>/dev/null | tr '\n' ' ')" "" \
	"every file of libprof is in the folder of its layer"
# The files, by their sources; the CUDA session where it was built.
names=$(cd "$ROOT" && ls src/lib/*/*.c src/cli/*.c \
	src/runner/*.c src/report/*.c src/harness/*.c src/harness/cuda/*.c \
	2>/dev/null |
	sed 's/\.c$//')
missing=
files=
for f in $names; do
	if [ -f "$OBJ/$f.o" ]; then
		files="$files $f"
	else
		case $f in
		src/harness/cuda/*) ;;
		*) missing="$missing $f.o" ;;
		esac
	fi
done
is "$missing" "" "every file's object is built"

for f in $files; do
	nm -g --defined-only "$OBJ/$f.o" | awk -v f="$f" 'NF == 3 { print $3, f }'
done | sort >"$T/defs"
for f in $files; do
	nm -u "$OBJ/$f.o" | awk -v f="$f" '{ print $2, f }'
done | sort -u >"$T/uses"
is "$(awk '$1 == s { print s; } { s = $1 }' "$T/defs" | sort -u |
	tr '\n' ' ')" "" "no symbol is defined by two files: the edges are sure"
join "$T/uses" "$T/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u \
	>"$T/edges"
ok "$([ -s "$T/edges" ] && echo 0 || echo 1)" "the objects name each other"

is "$(circles <"$T/edges" | tr '\n' '|')" "" "no circle among the files"

# The layers: what each may call besides itself, bottom up. The table is
# the verdicts' table of channels, metrics and statuses, and the check and
# the reader of their file (src/lib/verdict/table.c, check.c, read.c),
# which the model reads and which stand on base/ alone; the rest of verdict/ stands on the model.
layer() {
	case $1 in
	src/lib/base/*) echo base ;;
	src/lib/model/*) echo model ;;
	src/lib/verdict/table | src/lib/verdict/check | src/lib/verdict/read)
		echo table ;;
	src/lib/verdict/*) echo verdict ;;
	src/lib/history/*) echo history ;;
	src/lib/why/*) echo why ;;
	src/lib/kit/*) echo kit ;;
	src/cli/*) echo cli ;;
	src/runner/*) echo runner ;;
	src/report/*) echo report ;;
	src/harness/*) echo harness ;;
	esac
}
below() {
	case $1 in
	base) echo "" ;;
	table) echo "base" ;;
	model) echo "table base" ;;
	verdict) echo "model table base" ;;
	history) echo "verdict model table base" ;;
	why) echo "model table base" ;;
	kit) echo "verdict model table base" ;;
	cli) echo "kit why verdict model table base" ;;
	runner) echo "cli kit why verdict model table base" ;;
	report) echo "cli kit history why verdict model table base" ;;
	harness) echo "kit why verdict model table base" ;;
	esac
}
# The calls that still run up, each "FROM LAYER: its reason": none since
# the model takes the memory metrics and the comparisons check from the
# verdicts' table (issue 44).
known_up() {
	:
}
# upward: of the edges "FROM TO" on stdin, each that calls a layer not
# below its own, as " FROM->TO".
upward() {
	local from to lf lt wrong=
	while read -r from to; do
		lf=$(layer "$from")
		lt=$(layer "$to")
		[ "$lf" = "$lt" ] && continue
		known_up | grep -q "^$from $lt:" && continue
		case " $(below "$lf") " in
		*" $lt "*) ;;
		*) wrong="$wrong $from->$to" ;;
		esac
	done
	echo "$wrong"
}
# The rule finds what it looks for: a folder of libprof calling one above
# it (base into the model, the model into the history, why into the
# verdicts, the verdicts into the pages' kit, the model into the verdicts
# but for their table), the cli layer or the runner into the history, the
# history into the page, the page and the runner into each other.
is "$(printf '%s\n' "src/lib/base/json src/lib/model/sample" \
	"src/lib/model/stream src/lib/history/order" \
	"src/lib/why/why src/lib/verdict/group" \
	"src/lib/verdict/write src/lib/kit/page" \
	"src/report/runpage src/lib/history/history" \
	"src/report/runpage src/runner/plan" \
	"src/runner/plan src/report/md" \
	"src/lib/model/sample src/lib/base/json" \
	"src/lib/model/runview src/lib/verdict/group" \
	"src/lib/model/runview src/lib/verdict/table" \
	"src/lib/verdict/table src/lib/model/sample" \
	"src/cli/cli src/lib/history/history" \
	"src/runner/plan src/lib/history/sqlite" \
	"src/lib/history/history src/report/runpage" | upward)" \
	" src/lib/base/json->src/lib/model/sample src/lib/model/stream->src/lib/history/order src/lib/why/why->src/lib/verdict/group src/lib/verdict/write->src/lib/kit/page src/report/runpage->src/runner/plan src/runner/plan->src/report/md src/lib/model/runview->src/lib/verdict/group src/lib/verdict/table->src/lib/model/sample src/cli/cli->src/lib/history/history src/runner/plan->src/lib/history/sqlite src/lib/history/history->src/report/runpage" \
	"the layer rule names each call up a floor, into the history and out of it"
is "$(upward <"$T/edges")" "" "each layer calls only the layers below it"
# The includes keep the same order (a header's macros and inline code
# make no edge that nm sees): "FROM TO" for each header a file of libprof
# includes, by the path it names ("base/json.h", a sibling's bare name, or
# the harness's installed prof/sum.h, whose code is base/sum.c).
for f in $(cd "$ROOT" && ls src/lib/*/*.[ch] src/report/*.[ch]); do
	sed -n 's/^#include "\(.*\)\.h".*/\1/p' "$ROOT/$f" | while read -r h; do
		case $h in
		prof/sum) echo "${f%.*} src/lib/base/sum" ;;
		report/* | runner/* | cli/*) echo "${f%.*} src/$h" ;;
		*/*) echo "${f%.*} src/lib/$h" ;;
		*) if [ -f "$ROOT/${f%/*}/$h.h" ]; then
			echo "${f%.*} ${f%/*}/$h"
		else
			echo "${f%.*} src/lib/$h"
		fi ;;
		esac
	done
done | sort -u >"$T/includes"
ok "$(grep -q '^src/lib/model/sample src/lib/base/json$' "$T/includes" &&
	echo 0 || echo 1)" "the includes are read as edges"
is "$(upward <"$T/includes")" "" \
	"no file of libprof or src/report includes a header of a layer above its own"
is "$(known_up | while IFS=' :' read -r from lt _; do
	awk -v f="$from" '$1 == f { print $2 }' "$T/edges" |
		while read -r to; do [ "$(layer "$to")" = "$lt" ] && echo x; done |
		grep -q x || printf ' %s' "$from->$lt"
done)" "" "the known upward call is still made (or goes from the list)"
is "$(awk '$1 ~ /^src\/runner\// && $2 ~ /^src\/cli\// { print "yes"; exit }' \
	"$T/edges")" "yes" "the runner stands on src/cli"
is "$(awk '$1 ~ /^src\/lib\/model\// && $2 ~ /^src\/lib\/base\// { print "yes"; exit }' \
	"$T/edges")" "yes" "the model stands on base/"
is "$(awk '$1 ~ /^src\/lib\/history\// && $2 ~ /^src\/lib\/(base|model)\// { print "yes"; exit }' \
	"$T/edges")" "yes" "the history stands on the rest of libprof"
is "$(awk '$1 ~ /^src\/lib\// && $1 !~ /^src\/lib\/history\// &&
	$2 ~ /^src\/lib\/history\// { print $1 }' \
	"$T/edges" | sort -u | tr '\n' ' ')" "" \
	"no file of libprof calls into the history: the report layer does"
is "$(awk '$1 ~ /^src\/report\// && $2 ~ /^src\/lib\/history\// { print "yes"; exit }' \
	"$T/edges")" "yes" "the report layer stands on the history"
finish
