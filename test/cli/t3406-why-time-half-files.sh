#!/bin/bash
# Data first, the explanations of make compare WHY=1 and diagnose: a CPU
# profile of a changed time row that fails half way (google-pprof writing
# its listing or callgrind file, then failing) leaves no half file under
# the run's time/ (why_time in fragment/why-lib.sh): the summary says the
# rows are explained by counts only, and time/ goes. It kept the half
# .callgrind and .pprof.txt files beside the run's results.
. "$(dirname "$0")/lib.sh"
plan 4

run=$T/run
mkdir -p "$run" "$T/bin" "$T/path"
echo '[{"workload": "w.x", "backend": "cpu", "phase": "timing",
	"status": "warning"}]' >"$run/comparisons.json"
# prof-trace: a profile sample and a .prof, as it writes them.
cat >"$T/bin/prof-trace" <<'SH'
#!/bin/sh
while [ $# -gt 0 ]; do
	case $1 in
	--artifacts) d=$2 ;;
	--output) o=$2 ;;
	esac
	shift
done
echo '{"phase": "profile", "metrics": {"binary": "/bin/true", "calls": 3}}' >"$o"
echo prof >"$d/w.x.prof"
SH
# google-pprof: writes half its output; fails where $T/fail says.
cat >"$T/path/google-pprof" <<SH
#!/bin/sh
echo "half a listing"
case "\$*" in
*\$(cat "$T/fail")*) exit 1 ;;
esac
exit 0
SH
chmod +x "$T/bin/prof-trace" "$T/path/google-pprof"

# why SIDE-WHERE: why_time as compare.sh calls it; its status in $rc.
why() {
	echo "$1" >"$T/fail"
	(
		PATH=$T/path:$PATH
		BINDIR=$T/bin
		label="make compare"
		. "$ROOT/fragment/run-lib.sh"
		. "$ROOT/fragment/why-lib.sh"
		why_time bin/w ref/w
	) >"$out" 2>"$err"
	rc=$?
}

why "no such word"
is "$rc:$(cd "$run/time" && find . -type f | sort | tr '\n' ' ')" \
	"0:./current/w.x.cpu.callgrind ./current/w.x.cpu.calls ./current/w.x.jsonl ./current/w.x.prof ./reference/w.x.cpu.callgrind ./reference/w.x.cpu.calls ./reference/w.x.jsonl ./reference/w.x.prof ./w.x.cpu.pprof.txt " \
	"(both profiles and the listing, when google-pprof works)"
rm -rf "$run/time"
why "--text --base="
is "$rc:$(ls -A "$run")" "1:comparisons.json" \
	"the listing fails half way: status 1, and time/ is gone"
why "--callgrind /bin/true $run/time/reference"
is "$rc:$(ls -A "$run")" "1:comparisons.json" \
	"the reference side's callgrind file fails half way: time/ is gone"
is "$(cat "$err")" "" "and nothing is said here (the caller says it)"
finish
