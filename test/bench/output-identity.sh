#!/bin/bash
# output-identity.sh: prove that a change to the readers of results and
# comparison rows changed no output byte: a corpus of real runs made once,
# then every reader tool of two builds over it, and diff -r of the two.
#
# usage: test/bench/output-identity.sh make CORPUS_DIR
#        test/bench/output-identity.sh outputs BINDIR CORPUS_DIR OUTDIR
#        test/bench/output-identity.sh compare OLD_BINDIR NEW_BINDIR CORPUS_DIR
#        test/bench/output-identity.sh big OLD_BINDIR NEW_BINDIR SAMPLES
#        test/bench/output-identity.sh charts OLD_BINDIR NEW_BINDIR CORPUS_DIR
#
# make (from a checkout built with `make all test-build`; about two
# minutes of real runs of this checkout's tools and make targets, HISTORY=
# so that no history is touched) writes into CORPUS_DIR (new or empty):
#   bin/           copies of bin/prof-workloads and the A/B test pair
#                  (build/test/prof-ab-a, -b) that every run below runs
#                  (a CPU profile's sample names its binary for pprof)
#   runs/q1        make profile-quick MEMORY=1 COUNTS=1, the server
#                  workloads left out and the A side of the A/B test pair
#                  (prof-ab-a) added, against no baseline: every
#                  row incomparable; promoted as baselines/a.json
#   runs/q2        the same with the server workloads and the B side
#                  (test.ab: 30% more work, the same output) against
#                  baselines/a.json: stable, warning (test.ab's time and
#                  count), new (the server rows), a drift note when the
#                  machine moved; promoted as baselines/b.json
#   runs/q3        the A side again against baselines/b.json: improved
#   runs/ab        make compare WORKLOADS=prof-ab-b AGAINST=prof-ab-a
#                  MODE=full MEMORY=1 COUNTS=1 WHY=1: interleaved rows,
#                  warning, improved, incomparable (test.ab_wrong's other
#                  output), stable or unsettled, the functions, CPU profiles
#                  and allocation sites of the changed rows (prof-why)
#   runs/aa        make compare AGAINST= a copy of bin/prof-workloads, two
#                  quick workloads, MEMORY=1 COUNTS=1: A/A interleaved rows,
#                  unsettled where quick mode's 12 a side do not settle
#   shards/1, /2   make profile-quick SHARD=I/2 against baselines/a.json,
#   runs/merged    and their make merge-shards
#   runs/diagnose  make diagnose W=pipeline.split_by_pen (every phase: CPU
#                  profile, trace, memory, counts), against no baseline
#   bench/big      bench-tools' generator (make bench-tools), 100,000
#                  samples over 2,000 rows, judged against itself with a
#                  third of its rows 30% faster and a third 30% slower
#                  (jq): stable, warning, improved on 2,000 rows
#   bench/dash     bench-tools --dashboard 40x60: 40 run files of 60 series
#                  with steps, for prof-history import and the dashboard
#   fixtures       test/data/results/*.json, current.json judged against
#                  baseline.json (every rule once), and the malformed files
# and MANIFEST, a line per run folder: its folder and the baseline it is
# judged against (baselines/none.json: none), relative to CORPUS_DIR.
#
# outputs runs only reader tools of BINDIR (as they are: they link the
# system's libraries only, see ldd), with CORPUS_DIR as input (read, never
# written), into OUTDIR (new or empty), from OUTDIR as the current folder,
# each tool's stdout, stderr and exit status kept: per run folder
# prof-diff (again, and with --time-threshold), prof-report (summary.md,
# the compact table, the summary on stdout, without comparisons, with
# GITHUB_ACTIONS=true and a --note, and report.html with the baseline),
# prof-export (csv, bmf, gbench, each with and without the
# comparisons), prof-why --comparisons (with the run's CPU profiles and
# DHAT files), prof-why on each pair of callgrind and DHAT files of the A/B
# run (table, --json, --by, --svg), and the malformed fixtures through
# prof-diff, prof-report and prof-export (exit 2 and the place of the
# error); then prof-history add --comparisons of every run into a new
# SQLite file, import of the corpus into another and of the bench runs into
# a third, and of each its list, trend, changes (JSON, and the table a
# terminal gets, through script(1)), export-runs, sqlite3's .dump and
# prof-dashboard; and prof-report --html with the first history. Under two
# minutes on two busy cores.
#
# compare runs outputs for OLD_BINDIR then NEW_BINDIR, each into the same
# temporary folder in turn (so that a path a tool writes is the same for
# both), and diff -r's the two: "identical: N files" and exit 0, or the
# differing files, the first one's diff (its first 40 lines) and exit 1.
# The two trees are kept under $TMPDIR when they differ.
#
# charts is compare for a change that means to redraw the pages' trend
# charts and their rules, and nothing else: in every .html of both trees
# it masks the stylesheet (and its hash in the content policy), report.html's
# trend figures, the charts' svgs (trend and spark) and the dashboard's
# line of keys, then diff -r's the two: "identical outside the charts and
# stylesheets: N files (K pages redrawn)" and exit 0, or as compare.
#
# Masked: only what holds the time of day the outputs were made: added_utc
# of prof-history list and of the histories' dump (prof-history add and
# import stamp each run with the time it was stored). Nothing else is.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd) || exit 2

die() {
	echo "output-identity.sh: $*" >&2
	exit 2
}

usage() {
	sed -n '/^# usage:/,/^#$/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# new_dir DIR: DIR made, or there and empty; its absolute path in NEW_DIR.
# Never called in a $(...): its die must end the script, since what
# follows writes under the path (and removes the corpus's .scratch/).
new_dir() {
	NEW_DIR=
	mkdir -p "$1" || die "cannot make '$1'"
	[ -z "$(ls -A "$1")" ] || die "'$1' is not empty"
	NEW_DIR=$(cd "$1" && pwd) || die "cannot enter '$1'"
	case $NEW_DIR in
	/?*) ;;
	*) die "'$1' is no folder to write into" ;;
	esac
}

# --- make: the corpus -------------------------------------------------------

# mk TARGET VAR=...: one target of this checkout, quiet (its words in
# $LOG), without a history.
mk() {
	echo "output-identity.sh: make $*" >&2
	make -s --no-print-directory -C "$ROOT" HISTORY= "$@" >>"$LOG" 2>&1 ||
		{ tail -n 20 "$LOG" >&2; die "make $1 failed"; }
}

make_corpus() {
	local c w a b
	new_dir "$1"
	c=$NEW_DIR
	[ -x "$ROOT/bin/prof-workloads" ] &&
		[ -x "$ROOT/build/test/prof-ab-a" ] &&
		[ -x "$ROOT/build/test/prof-ab-b" ] ||
		die "build the checkout first: make all test-build"
	make -s --no-print-directory -C "$ROOT" build/bench/bench-tools ||
		die "cannot build build/bench/bench-tools"
	mkdir -p "$c/runs" "$c/shards" "$c/baselines" "$c/bench" \
		"$c/fixtures" "$c/bin/ref" "$c/.scratch" ||
		die "cannot write under '$c'"
	LOG=$c/.scratch/make.log
	# The workload binaries are run from copies in the corpus: a CPU
	# profile's sample names its binary, which prof-report hands to
	# pprof, and it must stay as it was. bin/ref/ is the A/A reference.
	cp "$ROOT/bin/prof-workloads" "$ROOT/build/test/prof-ab-a" \
		"$ROOT/build/test/prof-ab-b" "$c/bin/" &&
		cp "$ROOT/bin/prof-workloads" "$c/bin/ref/" ||
		die "cannot copy the workload binaries"
	w=$c/bin/prof-workloads
	a=$c/bin/prof-ab-a
	b=$c/bin/prof-ab-b

	mk profile-quick MEMORY=1 COUNTS=1 EXCLUDE_CATEGORY=server \
		WORKLOADS="$w $a" BASELINE="$c/baselines/none.json" \
		OUTPUT="$c/runs/q1"
	mk baseline-update FROM="$c/runs/q1/results.json" NAME=a \
		DIR="$c/baselines" FORCE=1
	mk profile-quick MEMORY=1 COUNTS=1 WORKLOADS="$w $b" \
		BASELINE="$c/baselines/a.json" OUTPUT="$c/runs/q2"
	mk baseline-update FROM="$c/runs/q2/results.json" NAME=b \
		DIR="$c/baselines" FORCE=1
	mk profile-quick MEMORY=1 COUNTS=1 WORKLOADS="$w $a" \
		BASELINE="$c/baselines/b.json" OUTPUT="$c/runs/q3"

	# REPEAT=4: full mode's adaptive budget is then 16 a side, enough
	# for test.ab's 30% and test.ilp to settle.
	mk compare WORKLOADS="$b" AGAINST="$a" MODE=full REPEAT=4 \
		MEMORY=1 COUNTS=1 WHY=1 OUTPUT="$c/runs/ab"
	mk compare WORKLOADS="$w" AGAINST="$c/bin/ref/prof-workloads" \
		MEMORY=1 COUNTS=1 \
		W="pipeline.split_by_pen server.flatten_roundtrip" \
		OUTPUT="$c/runs/aa"

	mk profile-quick SHARD=1/2 WORKLOADS="$w" \
		BASELINE="$c/baselines/a.json" OUTPUT="$c/shards/1"
	mk profile-quick SHARD=2/2 WORKLOADS="$w" \
		BASELINE="$c/baselines/a.json" OUTPUT="$c/shards/2"
	mk merge-shards DIR="$c/shards" BASELINE="$c/baselines/a.json" \
		OUTPUT="$c/runs/merged"

	mk diagnose W=pipeline.split_by_pen WORKLOADS="$w" \
		BASELINE="$c/baselines/none.json" OUTPUT="$c/runs/diagnose"

	make_bench "$c"

	cp "$ROOT"/test/data/results/*.json "$c/fixtures/" &&
		"$ROOT/bin/prof-diff" --baseline "$c/fixtures/baseline.json" \
			-o "$c/fixtures/comparisons.json" \
			"$c/fixtures/current.json" ||
		die "cannot judge the fixtures"
	rm -rf "$c/.scratch"

	{
		echo "runs/q1 baselines/none.json"
		echo "runs/q2 baselines/a.json"
		echo "runs/q3 baselines/b.json"
		echo "runs/ab runs/ab/baseline.json"
		echo "runs/aa runs/aa/baseline.json"
		echo "shards/1 baselines/a.json"
		echo "shards/2 baselines/a.json"
		echo "runs/merged baselines/a.json"
		echo "runs/diagnose baselines/none.json"
		echo "bench/big bench/big/baseline.json"
	} >"$c/MANIFEST"
	echo "output-identity.sh: corpus in $c" >&2
}

# make_bench C: bench-tools' synthetic results, kept as inputs only (what
# it wrote from them is the outputs' job).
make_bench() {
	local c=$1 t=$1/.scratch/bench
	mkdir -p "$t" "$c/bench/big" "$c/bench/dash" || die "cannot write '$t'"
	"$ROOT/build/bench/bench-tools" --bindir "$ROOT/bin" --dir "$t" \
		--rows 2000 --dashboard 40x60 100000 >/dev/null ||
		die "bench-tools failed"
	mv "$t/100000/results.json" "$c/bench/big/" &&
		mv "$t/dashboard-40x60/runs" "$c/bench/dash/" ||
		die "bench-tools wrote no results"
	bench_judge "$c/bench/big"
}

# bench_judge D: D/results.json (bench-tools') judged against the same
# rows with a third 30% faster and a third 30% slower as the baseline
# (bench.workload_N's rows by N mod 3): D/baseline.json and
# D/comparisons.json.
bench_judge() {
	jq -c '.groups as $g | .samples |= map(($g[.group_id].workload |
		ltrimstr("bench.workload_") | tonumber % 3) as $k |
		if .duration_ms == null or $k == 2 then .
		elif $k == 0 then .duration_ms *= 1.3
		else .duration_ms /= 1.3 end)' \
		"$1/results.json" >"$1/baseline.json" ||
		die "cannot write the bench baseline"
	"$ROOT/bin/prof-diff" --baseline "$1/baseline.json" \
		-o "$1/comparisons.json" "$1/results.json" ||
		die "cannot judge the bench run"
}

# --- outputs: every reader over the corpus ----------------------------------

# run NAME CMD...: CMD's stdout into NAME, its stderr into NAME.err and its
# exit status into NAME.rc (an empty .err is removed).
run() {
	local name=$1
	shift
	mkdir -p "$(dirname "$name")"
	"$@" >"$name" 2>"$name.err"
	echo $? >"$name.rc"
	[ -s "$name.err" ] || rm -f "$name.err"
}

# One run folder R (relative to the corpus C) judged against BASE.
outputs_run() {
	local r=$1 base=$2 o=$1 cmp res bfile
	res=$C/$r/results.json
	cmp=$C/$r/comparisons.json
	bfile=$C/$base
	mkdir -p "$o"

	run "$o/diff.json" "$B/prof-diff" --baseline "$bfile" "$res"
	run "$o/diff-t10.json" "$B/prof-diff" --baseline "$bfile" \
		--time-threshold 10 "$res"

	run "$o/table.txt" "$B/prof-report" --comparisons "$cmp" \
		-o "$o/summary.md" "$res"
	run "$o/summary-stdout.md" "$B/prof-report" --comparisons "$cmp" \
		-o - "$res"
	run "$o/table-nocmp.txt" "$B/prof-report" -o "$o/summary-nocmp.md" \
		"$res"
	run "$o/table-gha.txt" env GITHUB_ACTIONS=true "$B/prof-report" \
		--comparisons "$cmp" --note "output identity" \
		-o "$o/summary-gha.md" "$res"
	run "$o/report.out" "$B/prof-report" --comparisons "$cmp" \
		--baseline "$bfile" -q -o "$o/summary-html.md" \
		--html "$o/report.html" "$res"
	for f in csv bmf gbench; do
		run "$o/export.$f" "$B/prof-export" --format "$f" "$res"
		run "$o/export-cmp.$f" "$B/prof-export" --format "$f" \
			--comparisons "$cmp" "$res"
	done

	local why=()
	[ -d "$C/$r/time" ] && why+=(--time "$C/$r/time")
	[ -d "$C/$r/memory" ] && why+=(--memory "$C/$r/memory")
	run "$o/why.out" "$B/prof-why" --comparisons "$cmp" --results "$res" \
		--baseline "$bfile" "${why[@]}" --top 0 -o "$o/why.json"
}

# prof-why on each pair of the A/B run's kept files: the count phase's
# callgrind files (functions/reference/ and functions/), the CPU profiles
# as pprof --callgrind wrote them (time/reference/, time/current/) and the
# DHAT files (memory/reference/, memory/current/).
outputs_why_pairs() {
	local r=$C/runs/ab f g n by
	for f in "$r"/functions/reference/*.callgrind \
		"$r"/time/reference/*.callgrind; do
		g=${f/\/reference\//\/current\/}
		g=${g/functions\/current\//functions\/}
		[ -f "$f" ] && [ -f "$g" ] || continue
		n=${f#"$r/"}
		n=${n%%/*}-$(basename "$f" .callgrind)
		run "why-pairs/$n.txt" "$B/prof-why" "$f" "$g"
		run "why-pairs/$n.inclusive.json" "$B/prof-why" --json \
			--by inclusive --top 0 "$f" "$g"
		run "why-pairs/$n.out" "$B/prof-why" --top 3 \
			--svg "why-pairs/$n.svg" "$f" "$g"
	done
	for f in "$r"/memory/reference/*.dhat.json; do
		g=${f/\/reference\//\/current\/}
		[ -f "$f" ] && [ -f "$g" ] || continue
		n=$(basename "$f" .dhat.json)
		for by in bytes allocations max-live; do
			run "why-pairs/$n.dhat-$by.txt" "$B/prof-why" --by "$by" \
				"$f" "$g"
		done
		run "why-pairs/$n.dhat.json" "$B/prof-why" --json --top 0 "$f" "$g"
	done
}

# hist NAME DB ARGS...: a prof-history verb.
hist() {
	local name=$1 db=$2
	shift 2
	run "$name" "$B/prof-history" "$1" --db "$db" "${@:2}"
}

# The read verbs of one history, as JSON and as a terminal's table.
outputs_history_reads() {
	local d=$1 db=$1/history.sqlite w=pipeline.split_by_pen v
	# added_utc is the time the run was stored.
	hist "$d/list.json" "$db" list
	sed -i 's/\("added_utc": *\)"[^"]*"/\1"MASKED"/' "$d/list.json"
	hist "$d/trend.json" "$db" trend
	hist "$d/trend-w.json" "$db" trend --workload "$w" --backend cpu
	hist "$d/changes.json" "$db" changes
	hist "$d/changes-w.json" "$db" changes --workload "$w"
	# A terminal gets tables: script(1) gives one, 200 columns wide.
	for v in trend changes; do
		run "$d/$v.tty" script -qec "stty cols 200 rows 50; \
			'$B/prof-history' $v --db '$db'" /dev/null
	done
	hist "$d/export-runs.out" "$db" export-runs "$d/export-runs"
	run "$d/dashboard.out" "$B/prof-dashboard" --db "$db" \
		--repo-url https://example.invalid/o/r -o "$d/dashboard"
}

# history_dump D: the history D/history.sqlite as SQL text, its runs'
# added_utc masked (in a copy), and the database file itself removed: it
# holds that time too.
history_dump() {
	local db=$1/history.sqlite
	cp "$db" "$db.masked" &&
		sqlite3 "$db.masked" "UPDATE runs SET added_utc = 'MASKED'" &&
		run "$1/dump.sql" sqlite3 "$db.masked" .dump
	rm -f "$db" "$db.masked"
}

outputs() {
	local bin out start r base d
	[ -x "$1/prof-report" ] || die "'$1' holds no prof-report"
	bin=$(cd "$1" && pwd) || exit 2
	[ -f "$2/MANIFEST" ] || die "'$2' is no corpus (no MANIFEST)"
	C=$(cd "$2" && pwd) || exit 2
	new_dir "$3"
	out=$NEW_DIR
	B=$bin
	start=$SECONDS
	cd "$out" || exit 2
	export LC_ALL=C TZ=UTC PROF_PROJECT=prof
	unset GITHUB_ACTIONS PROF_HISTORY PROF_PPROF COLUMNS

	while read -r r base; do
		outputs_run "$r" "$base"
	done <"$C/MANIFEST"
	outputs_why_pairs
	outputs_fixtures

	mkdir -p history/add history/import history/bench
	while read -r r base; do
		hist "history/add/add-${r//\//-}.out" history/add/history.sqlite \
			add --comparisons "$C/$r/comparisons.json" \
			"$C/$r/results.json"
	done <"$C/MANIFEST"
	hist history/add/add-fixtures.out history/add/history.sqlite add \
		--comparisons "$C/fixtures/comparisons.json" \
		"$C/fixtures/current.json"
	outputs_history_reads history/add
	hist history/import/import.out history/import/history.sqlite import \
		"$C/runs" "$C/shards"
	outputs_history_reads history/import
	hist history/bench/import.out history/bench/history.sqlite import \
		"$C/bench/dash/runs"
	outputs_history_reads history/bench
	run history/report.out "$B/prof-report" \
		--comparisons "$C/runs/q2/comparisons.json" \
		--history history/add/history.sqlite -q \
		-o history/summary.md --html history/report.html \
		"$C/runs/q2/results.json"
	for d in add import bench; do
		history_dump "history/$d"
	done

	echo "output-identity.sh: $(find . -type f | wc -l) files in $out" \
		"($((SECONDS - start)) s)" >&2
}

# The hand-made fixtures: every rule once, and the malformed files every
# reader refuses.
outputs_fixtures() {
	local f n
	outputs_run_fixture
	for f in "$C"/fixtures/*.json; do
		n=$(basename "$f" .json)
		case $n in
		current | baseline | comparisons) continue ;;
		esac
		run "fixtures/bad/$n.diff" "$B/prof-diff" --baseline \
			"$C/fixtures/baseline.json" "$f"
		run "fixtures/bad/$n.report" "$B/prof-report" -o - "$f"
		run "fixtures/bad/$n.csv" "$B/prof-export" --format csv "$f"
	done
}

outputs_run_fixture() {
	local o=fixtures res=$C/fixtures/current.json
	local cmp=$C/fixtures/comparisons.json bfile=$C/fixtures/baseline.json
	mkdir -p "$o"
	run "$o/diff.json" "$B/prof-diff" --baseline "$bfile" "$res"
	run "$o/table.txt" "$B/prof-report" --comparisons "$cmp" \
		-o "$o/summary.md" "$res"
	run "$o/table-gha.txt" env GITHUB_ACTIONS=true "$B/prof-report" \
		--comparisons "$cmp" -o "$o/summary-gha.md" "$res"
	run "$o/report.out" "$B/prof-report" --comparisons "$cmp" \
		--baseline "$bfile" -q -o "$o/summary-html.md" \
		--html "$o/report.html" "$res"
	for f in csv bmf gbench; do
		run "$o/export-cmp.$f" "$B/prof-export" --format "$f" \
			--comparisons "$cmp" "$res"
	done
	run "$o/why.out" "$B/prof-why" --comparisons "$cmp" --results "$res" \
		--baseline "$bfile" -o "$o/why.json"
}

# --- compare ----------------------------------------------------------------

# trees OLD NEW CORPUS: outputs of OLD then NEW, each made in the same
# temporary folder in turn, as old/ and new/ of TREES. Never called in a
# $(...): its die must end the script.
trees() {
	TREES=$(mktemp -d "${TMPDIR:-/tmp}/output-identity.XXXXXX") || exit 2
	(outputs "$1" "$3" "$TREES/out") || die "outputs of '$1' failed"
	mv "$TREES/out" "$TREES/old"
	(outputs "$2" "$3" "$TREES/out") || die "outputs of '$2' failed"
	mv "$TREES/out" "$TREES/new"
}

compare() {
	local t n first
	trees "$1" "$2" "$3"
	t=$TREES
	if diff -r -q "$t/old" "$t/new" >"$t/diff.txt"; then
		n=$(find "$t/old" -type f | wc -l)
		echo "identical: $n files"
		rm -rf "$t"
		exit 0
	fi
	sed "s|$t/||g" "$t/diff.txt"
	first=$(sed -n 's/^Files \([^ ]*\) and .*/\1/p' "$t/diff.txt" |
		head -n 1)
	if [ -n "$first" ]; then
		echo "--- the first: ${first#"$t/old/"}"
		diff "$first" "$t/new/${first#"$t/old/"}" | head -n 40
	fi
	echo "the outputs are kept in $t (old/, new/)"
	exit 1
}

# mask_charts DIR: the charts and stylesheets of every page under DIR
# masked (see charts above), in place.
mask_charts() {
	find "$1" -name '*.html' -type f -exec perl -0pi -e '
		s{<style>.*?</style>}{<style/>}gs;
		s{style-src '"'"'sha256-[^'"'"']*'"'"'}{style-src sha256}g;
		s{<figure class="trend".*?</figure>}{<figure-trend/>}gs;
		s{<svg class="(?:chart )?(?:trend|spark)[^"]*".*?</svg>}{<svg-chart/>}gs;
		s{<p class="(?:legend|keys)">.*?</p>}{<keys/>}gs;' {} +
}

charts() {
	local t n k
	trees "$1" "$2" "$3"
	t=$TREES
	k=$(diff -r -q "$t/old" "$t/new" | grep -c '\.html differ$')
	mask_charts "$t/old"
	mask_charts "$t/new"
	if diff -r -q "$t/old" "$t/new" >"$t/diff.txt"; then
		n=$(find "$t/old" -type f | wc -l)
		echo "identical outside the charts and stylesheets: $n files" \
			"($k pages redrawn)"
		rm -rf "$t"
		exit 0
	fi
	sed "s|$t/||g" "$t/diff.txt"
	echo "the masked outputs are kept in $t (old/, new/)"
	exit 1
}

# big OLD NEW SAMPLES: the bench run of make_bench at SAMPLES samples
# over 2,000 rows (bench-tools' generator, judged against the same rows
# made a third faster and a third slower), through every reader of
# outputs_run in both builds, and diff -r: the big bench-tools inputs,
# kept in a temporary folder only while they are compared.
big() {
	local t n old new
	old=$(cd "$1" && pwd) && new=$(cd "$2" && pwd) || exit 2
	t=$(mktemp -d "${TMPDIR:-/tmp}/output-identity.XXXXXX") || exit 2
	C=$t/corpus
	mkdir -p "$C/bench/big" "$t/scratch" "$t/old" "$t/new" || exit 2
	"$ROOT/build/bench/bench-tools" --bindir "$ROOT/bin" --dir "$t/scratch" \
		--rows 2000 "$3" >/dev/null || die "bench-tools failed"
	mv "$t/scratch/$3/results.json" "$C/bench/big/" ||
		die "bench-tools wrote no results"
	rm -rf "$t/scratch"
	bench_judge "$C/bench/big"
	export LC_ALL=C TZ=UTC PROF_PROJECT=prof
	unset GITHUB_ACTIONS PROF_HISTORY PROF_PPROF COLUMNS
	(B=$old && cd "$t/old" &&
		outputs_run bench/big bench/big/baseline.json) || exit 2
	(B=$new && cd "$t/new" &&
		outputs_run bench/big bench/big/baseline.json) || exit 2
	if diff -r -q "$t/old" "$t/new"; then
		n=$(find "$t/old" -type f | wc -l)
		echo "identical: $n files of a run of $3 samples"
		rm -rf "$t"
		exit 0
	fi
	echo "the outputs are kept in $t (old/, new/)"
	exit 1
}

case ${1:-} in
big)
	[ $# -eq 4 ] || usage
	big "$2" "$3" "$4"
	;;
make)
	[ $# -eq 2 ] || usage
	make_corpus "$2"
	;;
outputs)
	[ $# -eq 4 ] || usage
	outputs "$2" "$3" "$4"
	;;
compare)
	[ $# -eq 4 ] || usage
	compare "$2" "$3" "$4"
	;;
charts)
	[ $# -eq 4 ] || usage
	charts "$2" "$3" "$4"
	;;
*)
	usage
	;;
esac
