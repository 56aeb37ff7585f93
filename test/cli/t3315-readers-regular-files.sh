#!/bin/bash
# Every reader opens the files it is named through one helper
# (afile.c's prof_input_open()): what is not a regular file is refused
# before a byte is read, in one line naming it. prof-why --comparisons
# --memory DIR once waited for ever on a FIFO named like a DHAT output,
# and read a link to /dev/zero without end (2 GB in 10 s); so did every
# reader of JSON, JSON lines, callgrind files and the files beside them.
# A document read whole larger than json-c takes (2 GiB) is refused as it
# is opened. "-" is still stdin where a tool reads it. timeout: the old
# readers never ended; ulimit -v: nor did their memory.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"
plan 25

mkfifo "$T/fifo"
ln -s /dev/zero "$T/zero"
mkdir "$T/folder"
ONLY="not a regular file (the tools read regular files only)"
# tool ARGS...: run a tool of bin/, bounded in time and memory.
tool() {
	(ulimit -v 4000000; timeout 60 "$BIN/$@") >"$out" 2>"$err"
	rc=$?
}

# prof-why --comparisons --memory DIR: a DHAT file that cannot be read
# is one line on the row, never a failed run (prof-why(1)).
M=$T/r/memory
mkdir -p "$M/current" "$M/reference"
cp test/data/dhat/before.json "$M/reference/test.ab_copy.cpu.dhat.json"
printf '[{"workload": "test.ab_copy", "backend": "cpu", "phase": "memory", "metric": "host_peak_bytes", "status": "warning", "reason": "r"}]\n' \
	>"$T/r/c0.json"
for f in fifo zero; do
	rm -f "$M/current/test.ab_copy.cpu.dhat.json"
	ln -s "$T/$f" "$M/current/test.ab_copy.cpu.dhat.json"
	[ $f = fifo ] && kind="a FIFO" || kind="a character device"
	cp "$T/r/c0.json" "$T/r/comparisons.json"
	tool prof-why --comparisons "$T/r/comparisons.json" --memory "$M"
	is "$rc:$(cat "$err")" \
		"0:prof-why: no allocation sites for test.ab_copy (cpu): $M/current/test.ab_copy.cpu.dhat.json: $kind, $ONLY" \
		"--memory DIR, the current DHAT file $kind: one line, exit 0"
	jq_ok '.[0].memory_sites_note == "'"$M/current/test.ab_copy.cpu.dhat.json: $kind, $ONLY"'"' \
		"$T/r/comparisons.json" "and the note on the row ($f)"
done

# Two DHAT files, two callgrind files: exit 2.
tool prof-why test/data/dhat/before.json "$T/fifo"
is "$rc:$(cat "$err")" "2:prof-why: $T/fifo: a FIFO, $ONLY" \
	"prof-why BEFORE FIFO: exit 2, one line naming it"
tool prof-why "$T/zero" test/data/dhat/after.json
is "$rc:$(cat "$err")" "2:prof-why: $T/zero: a character device, $ONLY" \
	"prof-why /dev/zero AFTER: the same"
tool prof-why test/data/why/before.out "$T/folder"
is "$rc:$(cat "$err")" "2:prof-why: $T/folder: a folder, $ONLY" \
	"a folder as a callgrind file"

# --time DIR: the CPU profiles as callgrind files and the CALLS HZ files.
P=$T/p
mkdir -p "$P/time/reference" "$P/time/current"
cp test/data/why/before.out "$P/time/reference/test.step.cpu.callgrind"
cp test/data/why/half-after.out "$P/time/current/test.step.cpu.callgrind"
printf '2 1000\n' >"$P/time/reference/test.step.cpu.calls"
ln -s "$T/fifo" "$P/time/current/test.step.cpu.calls"
mkrun "$P/baseline.json" run-b c1 2026-02-01T00:00:00Z 10 10 10 10 10
mkrun "$P/results.json" run-c c2 2026-02-02T00:00:00Z 20 20 20 20 20
"$BIN/prof-diff" --baseline "$P/baseline.json" -o "$P/cmp.json" \
	"$P/results.json"
tool prof-why --comparisons "$P/cmp.json" --time "$P/time" -o "$P/out.json"
is "$rc:$(cat "$err")" \
	"2:prof-why: $P/time/current/test.step.cpu.calls: a FIFO, $ONLY" \
	"--time DIR: a CALLS HZ file that is a FIFO"
rm "$P/time/current/test.step.cpu.calls" \
	"$P/time/current/test.step.cpu.callgrind"
printf '2 1000\n' >"$P/time/current/test.step.cpu.calls"
ln -s "$T/zero" "$P/time/current/test.step.cpu.callgrind"
tool prof-why --comparisons "$P/cmp.json" --time "$P/time" -o "$P/out.json"
is "$rc:$(cat "$err")" \
	"2:prof-why: $P/time/current/test.step.cpu.callgrind: a character device, $ONLY" \
	"a CPU profile that is /dev/zero"
ok "$([ ! -e "$P/out.json" ]; echo $?)" "and nothing is written"

# The readers of JSON (whole) and of JSON lines (streamed), by tool.
tool prof-why --comparisons "$T/fifo"
is "$rc:$(cat "$err")" "2:prof-why: $T/fifo: a FIFO, $ONLY" \
	"prof-why --comparisons FIFO"
tool prof-diff --baseline "$T/zero" "$P/results.json"
is "$rc:$(cat "$err")" "2:prof-diff: $T/zero: a character device, $ONLY" \
	"prof-diff --baseline /dev/zero"
tool prof-diff --baseline "$P/baseline.json" "$T/fifo"
is "$rc:$(cat "$err")" "2:prof-diff: $T/fifo: a FIFO, $ONLY" \
	"prof-diff FIFO"
tool prof-merge -o "$T/m.json" "$T/fifo"
is "$rc:$(cat "$err")" "2:prof-merge: $T/fifo: a FIFO, $ONLY" \
	"prof-merge FIFO"
tool prof-report --comparisons "$T/zero" -o "$T/s.md" "$P/results.json"
is "$rc:$(head -n 1 "$err")" "2:prof-report: $T/zero: a character device, $ONLY" \
	"prof-report --comparisons /dev/zero"
tool prof-baseline --from "$T/fifo" --name x --output "$T/bl"
is "$rc:$(cat "$err")" "2:prof-baseline: $T/fifo: a FIFO, $ONLY" \
	"prof-baseline --from FIFO"
tool prof-export --format csv -o "$T/x.csv" "$T/folder"
is "$rc:$(cat "$err")" "2:prof-export: $T/folder: a folder, $ONLY" \
	"prof-export of a folder"
tool prof-history add --db "$T/h.sqlite" "$T/zero"
is "$rc:$(head -n 1 "$err")" \
	"2:prof-history: $T/zero: a character device, $ONLY" \
	"prof-history add /dev/zero"

# "-" is stdin, as before.
(ulimit -v 4000000; timeout 60 "$BIN/prof-diff" --baseline - \
	"$P/results.json" <"$P/baseline.json") >"$out" 2>"$err"
is "$?" 0 "prof-diff --baseline - reads stdin"
# A pipe its writer holds open (a shell's <(command)) is read as stdin is,
# and /dev/null as an empty file; a mkfifo FIFO is refused above.
(ulimit -v 4000000; timeout 60 "$BIN/prof-diff" \
	--baseline <(cat "$P/baseline.json") "$P/results.json") >"$T/pipe.json" 2>"$err"
is "$?:$(cat "$err")" 0: "prof-diff --baseline <(cat FILE) reads the pipe"
(ulimit -v 4000000; timeout 60 "$BIN/prof-diff" \
	--baseline "$P/baseline.json" "$P/results.json") >"$T/file.json" 2>/dev/null
ok "$(cmp -s "$T/pipe.json" "$T/file.json"; echo $?)" \
	"and its comparisons are the file's"
tool prof-merge --commit abc -o "$T/null.json" /dev/null
is "$rc:$(jq -r '.samples | length' "$T/null.json")" 0:0 \
	"prof-merge /dev/null: a run of no samples, as an empty file"
cp "$T/r/c0.json" "$T/r/comparisons.json"
cp test/data/dhat/after.json "$M/current/x.json"
tool prof-why --json test/data/dhat/before.json "$M/current/x.json"
is "$rc" 0 "and regular files are read as before"

# A document read whole of more than 2 GiB is refused as it is opened,
# before anything is read (a sparse file: no disk is used).
truncate -s 3G "$T/big.json"
tool prof-why --comparisons "$T/big.json"
is "$rc:$(cat "$err")" \
	"2:prof-why: $T/big.json: 3221225472 bytes, more than the 2147483646 a reader of such a file takes" \
	"a comparisons.json of 3 GiB: refused, one line"

# A Google Benchmark binary's side file (BIN.workloads) that is a FIFO.
if command -v g++ >/dev/null && [ -e /usr/include/benchmark/benchmark.h ] &&
	g++ -O2 -o "$T/bm" test/data/gbench-tiny.cc -lbenchmark -lpthread -lz
then
	mkfifo "$T/bm.workloads"
	tool prof-time --list --workloads "$T/bm"
	is "$rc:$(cat "$err")" "2:prof-time: $T/bm.workloads: a FIFO, $ONLY" \
		"prof-time: a side file that is a FIFO"
else
	skip "g++ or Google Benchmark is not installed"
fi
finish
