-- A version-5 prof history, the schema before the rows kept each memory
-- metric and its verdict (migrations 1 to 5 of src/lib/history/sqlite.c), with
-- one run of test.ab_copy's memory phase (its heap and RSS peaks only),
-- for test/cli/t7021-history-memory.sh.
CREATE TABLE runs ( id INTEGER PRIMARY KEY, run_id TEXT NOT NULL UNIQUE, commit_id TEXT NOT NULL, timestamp_utc TEXT NOT NULL, command TEXT NOT NULL, results_schema INTEGER NOT NULL, digest TEXT NOT NULL, added_utc TEXT NOT NULL);
INSERT INTO runs VALUES(1,'run-v5','c0ffee','2025-12-30T00:00:00Z','hand-made',2,'v2:a7adeade8efc406d7f21e10566a1dcb153cb748efd4e8bd2a75eac33c7921df7','2025-12-30T00:00:01Z');
CREATE TABLE segments ( segment_id TEXT PRIMARY KEY, key TEXT NOT NULL);
INSERT INTO segments VALUES('3500256b7e54638f','{"backend":"cpu"}');
CREATE TABLE rows ( run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE, workload TEXT NOT NULL, backend TEXT NOT NULL, segment_id TEXT NOT NULL REFERENCES segments (segment_id), category TEXT NOT NULL, workload_version INTEGER NOT NULL, n INTEGER NOT NULL, errors INTEGER NOT NULL, min REAL, median REAL, p90 REAL, max REAL, instructions INTEGER, host_peak_bytes REAL, rss_peak_bytes REAL, device_peak_bytes REAL, status TEXT, reason TEXT, PRIMARY KEY (run, workload, backend, segment_id));
INSERT INTO "rows" VALUES(1,'test.ab_copy','cpu','3500256b7e54638f','copy',1,0,0,NULL,NULL,NULL,NULL,NULL,1052656.0,6885376.0,NULL,NULL,NULL);
CREATE TABLE files ( sha256 TEXT PRIMARY KEY, run_id TEXT NOT NULL);
CREATE INDEX rows_series ON rows (workload, backend, segment_id);
CREATE INDEX runs_order ON runs (timestamp_utc, commit_id, run_id);
PRAGMA application_id = 1886547814;
PRAGMA user_version = 5;
