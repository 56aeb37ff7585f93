# why-lib.sh: why a changed row changed, for the run scripts (compare.sh,
# profile.sh): the count phase's callgrind files of both sides, prof-why
# on the comparisons, CPU profiles of both sides of a changed time row,
# and the line that says how to get them. Sourced after run-lib.sh; uses
# $BINDIR, $run and say.

# changed_rows FILE: how many rows of the comparisons are warning or
# improved, memory rows too (0 when the file cannot be read).
changed_rows() {
	jq '[.[] | select(.status == "warning" or .status == "improved")] |
		length' "$1" 2>/dev/null || echo 0
}

# why_explain COMPARISONS [--baseline FILE] [--time DIR] [--memory DIR]:
# prof-why fills "functions" into every changed row whose two sides kept
# their callgrind files (and "memory_sites" into a changed memory row
# whose two sides have their DHAT outputs under --memory DIR; without
# --memory, changed memory rows make $why_mem_note, unless it is set: the
# line that says how to get their sites). A run without a changed row spends nothing on it. An explanation
# that cannot be made never fails the run (nor changes its code): it is
# $why_fail_note, one line for the summary that says why (prof-why's own
# message; or the changed count rows whose baseline kept no callgrind file,
# as a promoted baseline never does) and ends with $why_howto, set by the
# caller: how to get one. Always returns 0.
why_explain() {
	local cmp="$1" base='' a prev='' msg rc n
	shift
	why_fail_note=
	[ "$(changed_rows "$cmp")" -gt 0 ] || return 0
	if [ ! -x "$BINDIR/prof-why" ]; then
		say "no explanation of the changed rows: '$BINDIR/prof-why'" \
			"is not built"
		return 0
	fi
	for a in "$@"; do
		[ "${prev:-}" = --baseline ] && base=$a
		prev=$a
	done
	[ -n "$base" ] || base=$(dirname -- "$cmp")/baseline.json
	msg=$("$BINDIR/prof-why" --comparisons "$cmp" "$@" 2>&1)
	rc=$?
	[ -n "$msg" ] && printf '%s\n' "$msg" >&2
	if [ $rc != 0 ]; then
		msg=$(printf '%s\n' "$msg" | tail -n 1)
		why_fail_note="No functions for the changed rows: ${msg#prof-why: }; $why_howto"
		return 0
	fi
	n=$(jq '[.[] | select(.phase == "instructions" and
		(.status == "warning" or .status == "improved") and
		(has("functions") | not))] | length' "$cmp" 2>/dev/null) || n=0
	if [ "${n:-0}" -gt 0 ]; then
		why_fail_note="No functions for the $n changed instruction row(s): the baseline '$base' keeps no callgrind files of them (make baseline-update keeps none); $why_howto"
	fi
	# Changed memory rows without DHAT outputs (a run against a baseline
	# file, which keeps no build): $why_mem_note says how to get their
	# allocation sites, unless the caller said why already.
	case " $* " in
	*" --memory "*) ;;
	*)
		n=$(jq '[.[] | select(.phase == "memory" and
			(.status == "warning" or .status == "improved"))] |
			length' "$cmp" 2>/dev/null) || n=0
		if [ "${n:-0}" -gt 0 ] && [ -z "${why_mem_note:-}" ]; then
			why_mem_note="No allocation sites for the $n changed memory row(s): they come from one call of each build under valgrind's DHAT, and '$base' keeps no build; ${why_howto_mem:-$why_howto}"
		fi
		;;
	esac
	return 0
}

# why_howto_baseline BASELINE: $why_howto (and $why_howto_mem, for the
# allocation sites) for a run compared with a baseline file: the make
# compare against the commit that its results record, a command that runs
# as printed; in words when it records none.
why_howto_baseline() {
	local commit short
	commit=$(jq -r '.commit // empty' "$1" 2>/dev/null)
	case $commit in
	*[!0-9a-f]* | '')
		why_howto="to see which functions changed, run make compare$(selection_vars) WHY=1 with REF= the commit the baseline was measured at (it records none)"
		why_howto_mem="to see which functions changed, run make compare$(selection_vars) MEMORY=1 WHY=1 with REF= the commit the baseline was measured at (it records none)"
		return 0
		;;
	esac
	short=$(git rev-parse --short "$commit" 2>/dev/null) ||
		short=$(printf %.12s "$commit")
	why_howto="to see which functions changed, run: make compare REF=$short$(selection_vars) WHY=1"
	why_howto_mem="to see which functions changed, run: make compare REF=$short$(selection_vars) MEMORY=1 WHY=1"
}

# next_command CMD VAR...: CMD (a make command line as results.json
# records it: VAR=value words, a value with spaces in double quotes) with
# each VAR=... word left out, for a hint that runs as printed after the
# run that printed it: a new run gets a new folder (OUTPUT), and a
# variable the hint sets is not given twice.
next_command() {
	local c="$1" v
	shift
	for v in "$@"; do
		c=$(printf '%s\n' "$c" |
			sed -E "s/ $v=(\"[^\"]*\"|[^ ]*)//g")
	done
	printf '%s\n' "$c"
}

# why_memory CUR_BINS REF_BINS: for each changed memory row of the run's
# comparisons (cpu), one call of its workload on each side under
# valgrind's DHAT (the worker's memory phase: prepare(), then one call,
# in its own process, never inside a measurement), written to
# $run/memory/current/W.BACKEND.dhat.json and $run/memory/reference/...,
# its log beside it, for prof-why --memory. The interposer is preloaded
# as prof-mem preloads it (the memory phase asks for it), and DHAT's
# allocator takes its place. A side that cannot be profiled (no
# valgrind, the workload in no prof workload binary, DHAT failed) is
# $why_mem_note: one line for the summary that says why; the run goes
# on. Always returns 0.
why_memory() {
	why_mem_note=
	rows=$(jq -r '.[] | select(.phase == "memory" and
		(.status == "warning" or .status == "improved")) |
		"\(.workload) \(.backend)"' "$run/comparisons.json" |
		sort -u)
	[ -n "$rows" ] || return 0
	what="No allocation sites for the changed memory rows"
	if ! command -v valgrind >/dev/null 2>&1; then
		why_mem_note="$what: valgrind is not installed (make deps)"
		return 0
	fi
	alloc=$BINDIR/libprof-alloc.so
	[ -r "$alloc" ] || alloc=$BINDIR/../lib/prof/libprof-alloc.so
	if [ ! -r "$alloc" ]; then
		why_mem_note="$what: '$BINDIR/libprof-alloc.so' is missing; run make first"
		return 0
	fi
	why_mem_note=$(echo "$rows" | while read -r w b; do
		if [ "$b" != cpu ]; then
			echo "$w ($b): DHAT is run on the cpu backend only"
			continue
		fi
		for side in current reference; do
			if [ $side = current ]; then bins=$1; else bins=$2; fi
			d=$run/memory/$side
			mkdir -p "$d" || {
				echo "$w ($b): cannot create $d"
				break
			}
			bin=
			for x in $bins; do
				if "$x" --list 2>/dev/null |
					jq -r '.id // empty' 2>/dev/null |
					grep -qxF -- "$w"; then
					bin=$x
					break
				fi
			done
			if [ -z "$bin" ]; then
				echo "$w ($b): no prof workload binary of the $side side lists it (a Google Benchmark binary has no worker to run under DHAT)"
				break
			fi
			f=$d/$w.$b.dhat.json
			rm -f "$f"
			if ! LD_PRELOAD=$alloc timeout "${PROF_TIMEOUT:-600}" \
				valgrind -q --tool=dhat --num-callers=100 \
				--fullpath-after= --dhat-out-file="$f" \
				"$bin" --worker "$w" --backend "$b" \
				--requested "$b" --phase memory --warmup 0 \
				--repeat 1 >"$d/$w.$b.jsonl" 2>"$d/$w.$b.log" ||
				[ ! -s "$f" ]; then
				rm -f "$f"
				echo "$w ($b): valgrind's DHAT failed on the $side side (memory/$side/$w.$b.log)"
				break
			fi
		done
	done | sed -n '1p')
	[ -n "$why_mem_note" ] && why_mem_note="$what: $why_mem_note"
	return 0
}

# why_time CUR_BINS REF_BINS: for each changed time row of the run's
# comparisons, a CPU profile of each side (prof-trace diagnose: gperftools,
# in its own process, never inside a timing sample), pprof's --base listing
# of the current side against the reference under $run/time/, and both
# profiles as callgrind files (pprof --callgrind) for prof-why --time.
# Returns 1 when a profile could not be taken (the rows stay as they are):
# then time/ goes, so that no half listing or profile is left in the run.
why_time() {
	why_time_rows "$@" && return 0
	rm -rf -- "$run/time"
	return 1
}
why_time_rows() {
	rows=$(jq -r '.[] | select(.phase != "instructions" and
		.phase != "memory" and
		(.status == "warning" or .status == "improved")) |
		"\(.workload) \(.backend)"' "$run/comparisons.json" |
		sort -u)
	[ -n "$rows" ] || return 0
	if [ ! -x "$BINDIR/prof-trace" ] ||
		! command -v google-pprof >/dev/null 2>&1; then
		say "no CPU profiles of the changed time rows: prof-trace or" \
			"google-pprof is missing (make deps)"
		return 0
	fi
	echo "$rows" | while read -r w b; do
		for side in current reference; do
			if [ $side = current ]; then bins=$1; else bins=$2; fi
			d=$run/time/$side
			mkdir -p "$d" || return 1
			wopts=
			for x in $bins; do
				wopts="$wopts --workloads $x"
			done
			# shellcheck disable=SC2086 # a list of checked words
			"$BINDIR/prof-trace" diagnose "$w" $wopts --backend "$b" \
				-q --artifacts "$d" --output "$d/$w.jsonl" ||
				return 1
			# the binary that ran it: the sample says
			bin=$(jq -r 'select(.phase == "profile") |
				.metrics.binary // empty' "$d/$w.jsonl" |
				head -n 1)
			[ -n "$bin" ] || bin=$(echo "$bins" | cut -d' ' -f1)
			eval "bin_$side=\$bin"
			google-pprof --callgrind "$bin" "$d/$w.prof" \
				>"$d/$w.$b.callgrind" 2>/dev/null || return 1
			# the calls it covers, and the profiler's frequency
			calls=$(jq -r 'select(.phase == "profile") |
				.metrics.calls // empty' "$d/$w.jsonl" |
				head -n 1)
			echo "${calls:-0} ${CPUPROFILE_FREQUENCY:-1000}" \
				>"$d/$w.$b.calls"
			eval "calls_$side=\${calls:-0}"
		done
		# shellcheck disable=SC2154 # set by the evals above
		{
			echo "# google-pprof --text --base=reference/$w.prof" \
				"$bin_current current/$w.prof"
			echo "# samples at ${CPUPROFILE_FREQUENCY:-1000} Hz of" \
				"$calls_current calls (current) less those of" \
				"$calls_reference calls (reference): raw counts," \
				"not per call"
			google-pprof --text --base="$run/time/reference/$w.prof" \
				"$bin_current" "$run/time/current/$w.prof" \
				2>/dev/null
		} >"$run/time/$w.$b.pprof.txt" || return 1
	done
}

# why_baseline_time CUR_BINS BASELINE: the changed time rows of a run
# compared with a baseline results file (make diagnose BASELINE=...) get
# CPU profiles of both sides, as make compare WHY=1 gives them, when the
# baseline's build is at hand: the commit that its results record, built
# by make compare REF= or make bisect in $CACHE/<commit> (the workload
# binaries at the same paths there). A baseline keeps no binary, so
# without that build nothing is profiled and $why_note says so, with the
# command that would explain the rows. Sets $time_dir (the profiles'
# folder, or empty) and $why_note (a line for the summary, or empty).
why_baseline_time() {
	time_dir=
	why_note=
	n=$(jq '[.[] | select(.phase != "instructions" and
		.phase != "memory" and
		(.status == "warning" or .status == "improved"))] | length' \
		"$run/comparisons.json" 2>/dev/null) || n=0
	[ "${n:-0}" -gt 0 ] || return 0
	what="No CPU profiles of the $n changed time row(s)"
	commit=$(jq -r '.commit // empty' "$2" 2>/dev/null)
	case $commit in
	*[!0-9a-f]* | '')
		why_note="$what: the baseline '$2' keeps no binary and records no commit to build; to profile both sides, run make compare$(selection_vars) WHY=1 with REF= the commit the baseline was measured at"
		return 0
		;;
	esac
	short=$(git rev-parse --short "$commit" 2>/dev/null) ||
		short=$(printf %.12s "$commit")
	sub=$(git rev-parse --show-prefix 2>/dev/null)
	wt=$CACHE/$commit
	ref_bins=
	have=1
	[ -f "$wt/.prof-compare-built" ] || have=0
	for b in $1; do
		case $b in
		/*)
			why_note="$what: WORKLOADS '$b' is an absolute path, so the baseline's commit $short has no twin of it; to profile both sides, run make compare$(selection_vars) WHY=1 with AGAINST= the baseline's binaries"
			return 0
			;;
		esac
		[ -x "$wt/$sub$b" ] || have=0
		ref_bins="$ref_bins $wt/$sub$b"
	done
	if [ $have = 0 ]; then
		why_note="$what: the baseline '$2' keeps no binary, and its commit $short is not built in $wt; to profile both sides, run: make compare REF=$short$(selection_vars) WHY=1 (it builds $short there; make diagnose then uses that build too)"
		return 0
	fi
	if ! why_time "$1" "$ref_bins"; then
		why_note="$what: a CPU profile could not be taken (prof-trace or google-pprof failed)"
		return 0
	fi
	if [ ! -d "$run/time" ]; then
		why_note="$what: prof-trace or google-pprof is missing (make deps)"
		return 0
	fi
	time_dir=$run/time
	why_note="CPU profiles of the $n changed time row(s) (time/): the current build, and the baseline's commit $short as built in $wt."
}
