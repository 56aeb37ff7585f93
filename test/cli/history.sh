# history.sh: hand-made results files for the t60NN tests; source after
# lib.sh.
#
#   mkrun FILE RUN_ID COMMIT TIMESTAMP MS...   a schema-1 results file with
#       one warm timing sample of test.step (cpu) per MS
#   mkrun2 FILE RUN_ID COMMIT TIMESTAMP MS...  the same in schema 2

mkrun() {
	local file=$1 run=$2 commit=$3 ts=$4
	shift 4
	printf '%s\n' "$@" | jq -s --arg run "$run" --arg commit "$commit" \
		--arg ts "$ts" "$JQ_SEGMENT"'
	{os: "linux", distro: "debian", distro_version: "12",
	 machine: "x86_64", cpu_model: "Test CPU", cpu_count: 2,
	 compiler: "gcc", compiler_major: "12", backend: "cpu",
	 dtype: "float64", problem_size: "1000", tile: "none"} as $env |
	($env | segment_key) as $seg |
	{schema: "prof.results", schema_version: 1, run_id: $run,
	 timestamp_utc: $ts, command: "hand-made", commit: $commit,
	 samples: [to_entries[] | {schema_version: 1, workload: "test.step",
	   workload_version: 1, category: "test", fixture: "none",
	   fixture_checksum: null, warning_floor_ms: 1, backend: "cpu",
	   env: $env, segment: $seg, phase: "timing", kind: "warm",
	   index: .key, duration_ms: .value, metrics: {}, checksum: null,
	   outcome: "success", reason: null, artifacts: []}]}' >"$file"
}

# Schema 2: env and segment once, referred to by id (SHA-256, 16 hex).
mkrun2() {
	local file=$1
	mkrun "$@"
	local seg env sid eid
	seg=$(jq -r '.samples[0].segment' "$file")
	env=$(jq -c '.samples[0].env' "$file")
	sid=$(printf '%s' "$seg" | sha256sum | cut -c1-16)
	eid=$(printf '%s' "$env" | sha256sum | cut -c1-16)
	jq --arg sid "$sid" --arg eid "$eid" '
	.schema_version = 2 |
	.envs = {($eid): .samples[0].env} |
	.segments = {($sid): .samples[0].segment} |
	.samples |= map(del(.env, .segment, .schema_version) |
		.env_id = $eid | .segment_id = $sid)' "$file" >"$file.2" &&
		mv "$file.2" "$file"
}
