#!/bin/bash
# The pages' writers open nothing: in src/report, only the loaders read
# (a results file, comparisons, the history, call graphs, pprof's
# listings) and only the committers open a page's file; every other file
# writes from what it is given into the stream it is given (the report
# layer's README). Checked on the objects (nm), as t0102 checks libprof.
. "$(dirname "$0")/lib.sh"

OBJ=$ROOT/${PROF_BUILD:-build}/src/report
command -v nm >/dev/null || skip_all "nm is not installed"
ls "$OBJ"/*.o >/dev/null 2>&1 || skip_all "$OBJ is not built"
plan 3

# What opens or reads a file, a database or a program's output.
openers="fopen fopen64 open open64 openat openat64 tmpfile tmpfile64 popen \
prof_afile_open prof_input_open prof_json_load prof_history_open \
prof_history_trend prof_history_changes prof_history_walk prof_history_runs \
prof_callgrind_load prof_dhat_load prof_runview_load prof_runview_load_only \
prof_cmpview_load prof_spawn_run prof_stream_results"

# openers_of: "file:symbol ..." of each object of src/report that uses
# one, a line each, sorted.
openers_of() {
	local o f u s hit
	for o in "$OBJ"/*.o; do
		f=${o##*/}
		u=" $(nm -u "$o" | awk '{ print $NF }' | tr '\n' ' ') "
		hit=
		for s in $openers; do
			case $u in *" $s "*) hit="$hit $s" ;; esac
		done
		[ -n "$hit" ] && echo "${f%.o}:$hit"
	done
}
openers_of | LC_ALL=C sort >"$T/got"

is "$(ls "$OBJ"/*.o | wc -l | tr -d ' ')" \
	"$(ls "$ROOT"/src/report/*.c | wc -l | tr -d ' ')" \
	"every file of src/report is built"
# The loaders and committers, each with what it may open:
#   load          the one loader of a run: the summary's temporary
#                 file, the comparisons' view, and report.html's rows
#                 drawn, baseline, history and call graphs
#   pprof         pprof's listings, read before the summary is written
#   runpage, summary, dash-walk   the page's own file, committed whole
#   history-*     prof-history's verbs: its database and the runs it adds
is "$(cut -d: -f1 "$T/got" | tr '\n' ' ')" \
	"dash-walk history-add history-import history-read history-txn load pprof runpage summary " \
	"only the loaders and the committers open anything"
is "$(grep -E '^(runpage|summary|dash-walk):' "$T/got" | tr '\n' '|')" \
	"dash-walk: prof_afile_open|runpage: prof_afile_open|summary: prof_afile_open|" \
	"and a committer only the file it writes"
finish
