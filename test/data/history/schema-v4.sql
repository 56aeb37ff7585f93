-- A version-4 prof history, the schema before the rows kept their status
-- (migrations 1 to 4 of src/lib/history/sqlite.c), with one run of history.sh's
-- mkrun (test.step, cpu: 9, 10, 11 ms) and the file import read for it,
-- for test/cli/t6105-history-status.sh.
CREATE TABLE runs ( id INTEGER PRIMARY KEY, run_id TEXT NOT NULL UNIQUE, commit_id TEXT NOT NULL, timestamp_utc TEXT NOT NULL, command TEXT NOT NULL, results_schema INTEGER NOT NULL, digest TEXT NOT NULL, added_utc TEXT NOT NULL);
INSERT INTO runs VALUES(1,'run-v4','c0ffee','2025-12-30T00:00:00Z','hand-made',1,'v2:0000000000000000000000000000000000000000000000000000000000000000','2025-12-30T00:00:01Z');
CREATE TABLE segments ( segment_id TEXT PRIMARY KEY, key TEXT NOT NULL);
INSERT INTO segments VALUES('e1bd2e3a76f5aeff','{"backend":"cpu","browser":null,"compiler":"gcc","compiler_major":"12","cpu_model":"Test CPU","cuda_driver":null,"cuda_runtime":null,"device":null,"device_cc":null,"device_memory_bytes":null,"device_sms":null,"distro":"debian","distro_version":"12","dtype":"float64","machine":"x86_64","os":"linux","problem_size":"1000","tile":"none"}');
CREATE TABLE rows ( run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE, workload TEXT NOT NULL, backend TEXT NOT NULL, segment_id TEXT NOT NULL REFERENCES segments (segment_id), category TEXT NOT NULL, workload_version INTEGER NOT NULL, n INTEGER NOT NULL, errors INTEGER NOT NULL, min REAL, median REAL, p90 REAL, max REAL, instructions INTEGER, host_peak_bytes REAL, rss_peak_bytes REAL, device_peak_bytes REAL, PRIMARY KEY (run, workload, backend, segment_id));
INSERT INTO "rows" VALUES(1,'test.step','cpu','e1bd2e3a76f5aeff','test',1,3,0,9.0,10.0,11.0,11.0,NULL,NULL,NULL,NULL);
CREATE TABLE files ( sha256 TEXT PRIMARY KEY, run_id TEXT NOT NULL);
INSERT INTO files VALUES('1111111111111111111111111111111111111111111111111111111111111111','run-v4');
CREATE INDEX rows_series ON rows (workload, backend, segment_id);
CREATE INDEX runs_order ON runs (timestamp_utc, commit_id, run_id);
PRAGMA application_id = 1886547814;
PRAGMA user_version = 4;
