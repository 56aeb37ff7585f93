#!/bin/bash
# Option parsing is what it was before the option tables (f221311, each
# tool's own getopt_long table): every case below gives the exit code and
# the first line of stderr the tools gave then. Abbreviations (--hel is
# --help; an ambiguous one lists its possibilities in the order they
# always had), a missing argument, --opt=value and -xVALUE, an option
# after the operands (GNU getopt permutes) and after '--' (an operand),
# and each letter a tool took (prof-baseline -o, which its help never
# showed).
. "$(dirname "$0")/lib.sh"
tools=$(cd src && ls prof-*.c | sed 's/\.c$//')
cases=$(cat <<'CASES'
prof-baseline -o|2|@BIN@/prof-baseline: option requires an argument -- 'o'
prof-baseline -o d|2|prof-baseline: give the results file: --from RESULTS
prof-baseline -od|2|prof-baseline: give the results file: --from RESULTS
prof-baseline x -o d|2|prof-baseline: unexpected argument 'x'
prof-baseline --output|2|@BIN@/prof-baseline: option '--output' requires an argument
prof-baseline --output=d x|2|prof-baseline: unexpected argument 'x'
prof-baseline --add=1|2|@BIN@/prof-baseline: option '--add' doesn't allow an argument
prof-baseline --fr=r.json --na|2|@BIN@/prof-baseline: option '--name' requires an argument
prof-diff --baseline|2|@BIN@/prof-diff: option '--baseline' requires an argument
prof-diff r.json --baseline|2|@BIN@/prof-diff: option '--baseline' requires an argument
prof-diff -- --baseline b|2|prof-diff: give the baseline: --baseline FILE
prof-diff --ba=b -o|2|@BIN@/prof-diff: option requires an argument -- 'o'
prof-diff -ox --nope|2|@BIN@/prof-diff: unrecognized option '--nope'
prof-export -f|2|@BIN@/prof-export: option requires an argument -- 'f'
prof-export -fzz r.json|2|prof-export: --format: 'zz' is not csv, bmf or gbench
prof-export --format=zz r.json|2|prof-export: --format: 'zz' is not csv, bmf or gbench
prof-export r.json --format|2|@BIN@/prof-export: option '--format' requires an argument
prof-export --comparisons|2|@BIN@/prof-export: option '--comparisons' requires an argument
prof-merge -C|2|@BIN@/prof-merge: option requires an argument -- 'C'
prof-merge --shards=x|2|prof-merge: --shards: 'x' is not a whole number from 0 to 10000
prof-merge --run-id|2|@BIN@/prof-merge: option '--run-id' requires an argument
prof-merge --timestamp=x|2|prof-merge: --timestamp: 'x': not an RFC 3339 UTC time (expected YYYY-MM-DDTHH:MM:SSZ, e.g. 2026-12-01T08:30:54Z)
prof-report -qo|2|@BIN@/prof-report: option requires an argument -- 'o'
prof-report -q -o|2|@BIN@/prof-report: option requires an argument -- 'o'
prof-report --html|2|@BIN@/prof-report: option '--html' requires an argument
prof-report --note=1 --note|2|@BIN@/prof-report: option '--note' requires an argument
prof-history --db|2|@BIN@/prof-history: option '--db' requires an argument
prof-history list --db|2|@BIN@/prof-history: option '--db' requires an argument
prof-history --backend|2|@BIN@/prof-history: option '--backend' requires an argument
prof-history --since|2|@BIN@/prof-history: option '--since' requires an argument
prof-history trend --workload|2|@BIN@/prof-history: option '--workload' requires an argument
prof-dashboard -o|2|@BIN@/prof-dashboard: option requires an argument -- 'o'
prof-dashboard --db|2|@BIN@/prof-dashboard: option '--db' requires an argument
prof-dashboard --title=x|2|prof-dashboard: give the folder to write: -o DIR
prof-why --top|2|@BIN@/prof-why: option '--top' requires an argument
prof-why --top=x a b|2|prof-why: --top: 'x' is not a whole number from 0 to 1000000
prof-why --json=1|2|@BIN@/prof-why: option '--json' doesn't allow an argument
prof-why -o|2|@BIN@/prof-why: option requires an argument -- 'o'
prof-time --ag=1|2|@BIN@/prof-time: option '--ag=1' is ambiguous; possibilities: '--against' '--against-output' '--against-command'
prof-time --against-=1|2|@BIN@/prof-time: option '--against-=1' is ambiguous; possibilities: '--against-output' '--against-command'
prof-time --again|2|@BIN@/prof-time: option '--again' is ambiguous; possibilities: '--against' '--against-output' '--against-command'
prof-time -qo|2|@BIN@/prof-time: option requires an argument -- 'o'
prof-time --repeat=0|2|prof-time: --repeat: '0' is not a whole number from 1 to 1000000
prof-time --repeat|2|@BIN@/prof-time: option '--repeat' requires an argument
prof-time quick --repeat|2|@BIN@/prof-time: option '--repeat' requires an argument
prof-time quick --repeat=x|2|prof-time: --repeat: 'x' is not a whole number from 1 to 1000000
prof-time -- quick --repeat=x|2|prof-time: unexpected argument '--repeat=x'
prof-time --threshold=1|2|prof-time: --threshold: only for prof-count
prof-time --rep=2 --warm=x|2|prof-time: --warmup: 'x' is not a whole number from 0 to 1000000
prof-time --name|2|@BIN@/prof-time: option '--name' requires an argument
prof-time --name=x|2|prof-time: --name needs a command after '--'
prof-count --ag=1|2|@BIN@/prof-count: option '--ag=1' is ambiguous; possibilities: '--against' '--against-output' '--against-command'
prof-count --backend=gpu|2|prof-count: --backend: prof-count counts the CPU path only
prof-count --functions|2|@BIN@/prof-count: option '--functions' requires an argument
prof-count --env=x|2|prof-count: --env: 'x' is not NAME=VALUE
prof-count -q --artifacts d|2|prof-count: --artifacts: only prof-trace writes artifacts
prof-mem --min-seconds=1|2|prof-mem: --min-seconds: only for prof-trace
prof-mem --against-output=|2|prof-mem: --against-output: empty file name
prof-mem --check-output|2|prof-mem: --check-output: only for prof-time and prof-count
prof-trace --threshold 1|2|prof-trace: --threshold: only for prof-count
prof-trace -o|2|@BIN@/prof-trace: option requires an argument -- 'o'
prof-trace --shard=0/1|2|prof-trace: --shard: '0/1' is not I/N with 1 <= I <= N <= 1000
CASES
)
plan $(($(echo "$cases" | wc -l) + $(echo $tools | wc -w) * 4 + 1))

# In a folder of its own: nothing a case might write lands in the tree.
mkdir "$T/cwd"
while IFS='|' read -r cmd want_rc want_err; do
	read -r t args <<<"$cmd"
	# shellcheck disable=SC2086 # the case's words, split as written
	(cd "$T/cwd" && "$BIN/$t" $args </dev/null >/dev/null 2>"$err")
	rc=$?
	is "$rc:$(errline)" "$want_rc:${want_err//@BIN@/$BIN}" "$cmd"
done <<<"$cases"

for t in $tools; do
	"$BIN/$t" --help >"$T/help"
	for abbrev in --he --hel; do
		run "$t" $abbrev
		is "$rc:$(cat "$err")" "0:" "$t $abbrev: --help, exit 0"
		ok "$(cmp -s "$out" "$T/help"; echo $?)" "$t $abbrev: its text"
	done
done

mkdir "$T/b"
run prof-baseline --from test/data/results/baseline.json --name n -o "$T/b"
is "$rc:$(cd "$T/b" && ls)" "0:n.json" \
	"prof-baseline -o DIR: the baselines folder, as --output DIR"
finish
