-- A version-1 prof history on PostgreSQL, the schema before the rows kept
-- each memory metric and its verdict (PG_MIGRATIONS[0] of
-- src/lib/history/pg.c), with one run of test.ab_copy's memory phase (its
-- heap and RSS peaks only) of project "prof", for
-- test/cli/t7022-history-pg-memory.sh.
CREATE TABLE prof_meta (key text COLLATE "C" PRIMARY KEY, value text NOT NULL);
CREATE TABLE prof_runs (id bigserial PRIMARY KEY, project text COLLATE "C" NOT NULL DEFAULT '', run_id text COLLATE "C" NOT NULL, commit_id text COLLATE "C" NOT NULL, timestamp_utc text COLLATE "C" NOT NULL, command text NOT NULL, results_schema integer NOT NULL, digest text NOT NULL, added_utc text NOT NULL, UNIQUE (project, run_id));
CREATE INDEX prof_runs_order ON prof_runs (project, timestamp_utc, commit_id, run_id);
CREATE TABLE prof_segments (segment_id text COLLATE "C" PRIMARY KEY, key text NOT NULL);
CREATE TABLE prof_rows (run bigint NOT NULL REFERENCES prof_runs (id) ON DELETE CASCADE, workload text COLLATE "C" NOT NULL, backend text COLLATE "C" NOT NULL, segment_id text COLLATE "C" NOT NULL REFERENCES prof_segments (segment_id), category text NOT NULL, workload_version bigint NOT NULL, n bigint NOT NULL, errors bigint NOT NULL, min double precision, median double precision, p90 double precision, max double precision, instructions bigint, host_peak_bytes double precision, rss_peak_bytes double precision, device_peak_bytes double precision, status text, reason text, PRIMARY KEY (run, workload, backend, segment_id));
CREATE INDEX prof_rows_series ON prof_rows (workload, backend, segment_id);
CREATE TABLE prof_files (project text COLLATE "C" NOT NULL DEFAULT '', sha256 text NOT NULL, run_id text NOT NULL, PRIMARY KEY (project, sha256));
INSERT INTO prof_meta VALUES ('schema', '1');
INSERT INTO prof_runs (project, run_id, commit_id, timestamp_utc, command, results_schema, digest, added_utc) VALUES ('prof', 'run-v5', 'c0ffee', '2025-12-30T00:00:00Z', 'hand-made', 2, 'v2:a7adeade8efc406d7f21e10566a1dcb153cb748efd4e8bd2a75eac33c7921df7', '2025-12-30T00:00:01Z');
INSERT INTO prof_segments VALUES ('3500256b7e54638f', '{"backend":"cpu"}');
INSERT INTO prof_rows VALUES (1, 'test.ab_copy', 'cpu', '3500256b7e54638f', 'copy', 1, 0, 0, NULL, NULL, NULL, NULL, NULL, 1052656, 6885376, NULL, NULL, NULL);
