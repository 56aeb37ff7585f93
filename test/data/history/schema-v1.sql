-- A version-1 prof history as prof 1.0 made it, with one run, for the
-- migration test (test/cli/t6001-prof-history.sh).
CREATE TABLE runs (
 id INTEGER PRIMARY KEY,
 run_id TEXT NOT NULL UNIQUE,
 commit_id TEXT NOT NULL,
 timestamp_utc TEXT NOT NULL,
 command TEXT NOT NULL,
 results_schema INTEGER NOT NULL,
 digest TEXT NOT NULL,
 added_utc TEXT NOT NULL);
CREATE INDEX runs_order ON runs (timestamp_utc, id);
CREATE TABLE segments (
 segment_id TEXT PRIMARY KEY,
 key TEXT NOT NULL);
CREATE TABLE rows (
 run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
 workload TEXT NOT NULL,
 backend TEXT NOT NULL,
 segment_id TEXT NOT NULL REFERENCES segments (segment_id),
 category TEXT NOT NULL,
 workload_version INTEGER NOT NULL,
 n INTEGER NOT NULL,
 errors INTEGER NOT NULL,
 min REAL, median REAL, p90 REAL, max REAL,
 PRIMARY KEY (run, workload, backend, segment_id));
CREATE INDEX rows_series ON rows (workload, backend, segment_id);
INSERT INTO runs VALUES (1, 'old-run', 'c0', '2025-12-31T00:00:00Z',
 'make profile-quick', 1, 'x', '2025-12-31T00:00:01Z');
INSERT INTO segments VALUES ('0123456789abcdef', '{}');
INSERT INTO rows VALUES (1, 'test.step', 'cpu', '0123456789abcdef', 'test',
 1, 3, 0, 9, 10, 11, 11);
PRAGMA application_id = 1886547814;
PRAGMA user_version = 1;
