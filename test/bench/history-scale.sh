#!/bin/bash
# history-scale.sh: the history at scale, SQLite against PostgreSQL (a
# throwaway cluster of its own, test/cli/pg.sh): import rate (runs a
# second) and the latency of trend on one series with 1,000 and with
# 100,000 runs in the database, and prof-dashboard's time over 1,000 runs
# of 200 series from each.
#
#   make all && bash test/bench/history-scale.sh [SEED_ROWS]
#
# The 1,000 runs of 200 series are run files (test/bench/history-runs.sh)
# imported by prof-history import. The 99,000 runs beyond them are seeded
# by SQL straight into each backend's tables (importing them would take
# an hour here), SEED_ROWS rows each (default 10: 990,000 rows more) of
# series of their own, so the series timed keeps its 1,000 points while
# the table grows around it: what an index on the series has to keep
# fast. Then 100 more run files are imported into the grown history for
# the import rate at 100,000 runs. Each latency is the median of 5 runs
# of the command, wall time. Prints uptime before and after, since the
# machine may be shared. Needs bin/ built and PostgreSQL installed.
set -u
cd "$(dirname "$0")/../.." || exit 2
seed_rows=${1:-10}
# Smaller, for a try of the script itself: HS_RUNS=50 HS_SEED=950.
runs=${HS_RUNS:-1000}
seeded=${HS_SEED:-99000}
total=$((runs + seeded))
BIN=$PWD/bin
for t in prof-history prof-dashboard; do
	[ -x "$BIN/$t" ] || {
		echo "history-scale: bin/$t is not built (make all)" >&2
		exit 2
	}
done
T=$(mktemp -d "${TMPDIR:-/tmp}/history-scale.XXXXXX") || exit 2
skip_all() {
	echo "history-scale: $*" >&2
	exit 2
}
. test/cli/pg.sh
pg_start
export PROF_PROJECT=bench
now() { date +%s.%N; }
# secs CMD...: the wall time of one run of CMD, its output dropped.
secs() {
	local a b
	a=$(now)
	"$@" >/dev/null 2>"$T/last.err" || {
		echo "history-scale: failed: $*" >&2
		sed 's/^/  /' "$T/last.err" >&2
		exit 1
	}
	b=$(now)
	echo "$a $b" | awk '{printf "%.3f", $2 - $1}'
}
# median5 CMD...: the median of 5 wall times.
median5() {
	local i
	for i in 1 2 3 4 5; do
		secs "$@"
		echo
	done | sort -n | sed -n 3p
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN {printf "%.1f", n / s}'; }
H() { "$BIN/prof-history" "$@"; }

echo "# history-scale: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores"
echo "# uptime before: $(uptime)"
g0=$(now)
sh test/bench/history-runs.sh "$T/runs" "$runs" 200
sh test/bench/history-runs.sh "$T/more" 100 200 "$runs"
echo "# $((runs + 100)) run files of 200 series made in $(echo "$g0 $(now)" |
	awk '{printf "%.1f", $2 - $1}') s ($(du -sh "$T/runs" | cut -f1) for $runs)"

sq=$T/h.sqlite
pg=$(pg_db scale)
declare -A imp1 trend1 dash imp2 trend2 db
db[sqlite]=$sq
db[postgresql]=$pg
series=(--workload bench.series_0007 --backend cpu)

for b in sqlite postgresql; do
	s=$(secs H import --db "${db[$b]}" "$T/runs")
	imp1[$b]=$(rate "$runs" "$s")
	n=$(H trend --db "${db[$b]}" "${series[@]}" | jq length)
	[ "$n" = "$runs" ] || {
		echo "history-scale: $b: trend gave $n points, not $runs" >&2
		exit 1
	}
	trend1[$b]=$(median5 H trend --db "${db[$b]}" "${series[@]}")
	dash[$b]=$(secs "$BIN/prof-dashboard" --db "${db[$b]}" \
		--repo-url https://example.invalid/o/r -o "$T/site-$b")
	echo "# $b at 1,000 runs: import ${imp1[$b]} runs/s, trend ${trend1[$b]} s, dashboard ${dash[$b]} s"
done

# 99,000 runs more, by SQL: runs seed-NNNNNNN in 2025 (before the timed
# ones), each with seed_rows rows of series seed.series_K.
seg=$(sqlite3 "$sq" "SELECT segment_id FROM segments LIMIT 1")
s0=$(now)
sqlite3 "$sq" "
BEGIN;
WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < $seeded)
INSERT INTO runs (run_id, commit_id, timestamp_utc, command, results_schema,
	digest, added_utc)
SELECT printf('seed-%07d', n), printf('%040d', n),
	printf('2025-%02d-%02dT%02d:%02d:00Z', 1 + n / 40320 % 12,
		1 + n / 1440 % 28, n / 60 % 24, n % 60),
	'seed', 2, 'v2:seed', '2026-01-01T00:00:00Z' FROM i;
WITH RECURSIVE k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE n < $seed_rows - 1)
INSERT INTO rows (run, workload, backend, segment_id, category,
	workload_version, n, errors, min, median, p90, max)
SELECT r.id, printf('seed.series_%04d', k.n), 'cpu', '$seg', 'bench', 1, 3,
	0, 1, 1, 1, 1 FROM runs r, k WHERE r.run_id LIKE 'seed-%';
COMMIT;" || exit 1
sqlite_seed=$(echo "$s0 $(now)" | awk '{printf "%.1f", $2 - $1}')
s0=$(now)
"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$pg" -c "
BEGIN;
INSERT INTO prof_runs (project, run_id, commit_id, timestamp_utc, command,
	results_schema, digest, added_utc)
SELECT 'bench', 'seed-' || lpad(n::text, 7, '0'), lpad(n::text, 40, '0'),
	format('2025-%s-%sT%s:%s:00Z', lpad((1 + n / 40320 % 12)::text, 2, '0'),
		lpad((1 + n / 1440 % 28)::text, 2, '0'),
		lpad((n / 60 % 24)::text, 2, '0'), lpad((n % 60)::text, 2, '0')),
	'seed', 2, 'v2:seed', '2026-01-01T00:00:00Z'
FROM generate_series(1, $seeded) n;
INSERT INTO prof_rows (run, workload, backend, segment_id, category,
	workload_version, n, errors, min, median, p90, max)
SELECT r.id, 'seed.series_' || lpad(k::text, 4, '0'), 'cpu', '$seg', 'bench',
	1, 3, 0, 1, 1, 1, 1
FROM prof_runs r, generate_series(0, $seed_rows - 1) k
WHERE r.run_id LIKE 'seed-%';
COMMIT;
ANALYZE;" || exit 1
pg_seed=$(echo "$s0 $(now)" | awk '{printf "%.1f", $2 - $1}')
for b in sqlite postgresql; do
	n=$(H list --db "${db[$b]}" | jq length)
	[ "$n" = "$total" ] || {
		echo "history-scale: $b: $n runs after seeding, not $total" >&2
		exit 1
	}
done
echo "# seeded 99,000 runs of $seed_rows rows by SQL: SQLite ${sqlite_seed} s, PostgreSQL ${pg_seed} s"

for b in sqlite postgresql; do
	trend2[$b]=$(median5 H trend --db "${db[$b]}" "${series[@]}")
	s=$(secs H import --db "${db[$b]}" "$T/more")
	imp2[$b]=$(rate 100 "$s")
	echo "# $b at 100,000 runs: trend ${trend2[$b]} s, import ${imp2[$b]} runs/s"
done
echo "# sizes: SQLite $(du -h "$sq" | cut -f1), PostgreSQL $("$PGBIN/psql" -X -At -d "$pg" -c "SELECT pg_size_pretty(pg_database_size(current_database()))")"
echo "# uptime after: $(uptime)"
echo
echo "| | SQLite | PostgreSQL |"
echo "|---|---|---|"
echo "| import, 1,000 runs of 200 series into an empty history (runs/s) | ${imp1[sqlite]} | ${imp1[postgresql]} |"
echo "| import, 100 runs of 200 series into 100,000 runs (runs/s) | ${imp2[sqlite]} | ${imp2[postgresql]} |"
echo "| trend of one series (1,000 points), 1,000 runs in the history (s) | ${trend1[sqlite]} | ${trend1[postgresql]} |"
echo "| trend of one series (1,000 points), 100,000 runs in the history (s) | ${trend2[sqlite]} | ${trend2[postgresql]} |"
echo "| prof-dashboard, 1,000 runs of 200 series (s) | ${dash[sqlite]} | ${dash[postgresql]} |"
