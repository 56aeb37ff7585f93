# history.sh: hand-made results files for the t60NN tests; source after
# lib.sh.
#
#   mkrun FILE RUN_ID COMMIT TIMESTAMP MS...   a schema-1 results file with
#       one warm timing sample of test.step (cpu) per MS
#   mkrun2 FILE RUN_ID COMMIT TIMESTAMP MS...  the same in schema 2
#   mkhistory DB    a history of six series over 8 runs, with statuses

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

# mkhistory DB: a history of 8 runs (two of one commit) of six series: five
# workloads, one of them on two CPU models, one with a long name, one
# that steps up by 40% at run 5 (a change point), one that is a warning
# in the last run; each run added with its comparisons against the one
# before (so every series has a status). The run files stay in DB.runs/.
mkhistory() {
	local db=$1 d=$1.runs i prev= ms commit
	mkdir -p "$d"
	for i in 1 2 3 4 5 6 7 8; do
		case $i in
		7 | 8) commit=7777777777777777777777777777777777777777 ;;
		*) commit=$(printf '%040d' "$i") ;;
		esac
		ms=10
		[ "$i" -ge 5 ] && ms=14
		mkrun "$d/r$i.json" "run-$i" "$commit" \
			"2026-03-0${i}T10:00:00Z" "$ms" "$ms.2" "$ms.1"
		jq --argjson last "$([ "$i" = 8 ] && echo 1 || echo 0)" '
		.samples as $s | .samples += (
			[$s[] | .workload = "test.flat" |
			 .duration_ms = 5 + .index / 10] +
			[$s[] | .workload = "pipeline.a_workload_with_a_rather_long_descriptive_name" |
			 .duration_ms = 0.012 + .index / 10000] +
			[$s[] | .workload = "test.late" |
			 .duration_ms = (if $last == 1 then 30 else 20 end) +
				.index / 10] +
			[$s[] | .workload = "test.flat" |
			 .env.cpu_model = "Other CPU" |
			 .segment = (.segment | fromjson |
				.cpu_model = "Other CPU" | tojson) |
			 .duration_ms = 6 + .index / 10] +
			[$s[] | .workload = "test.gb" |
			 .duration_ms = 0.000015 + .index / 1e6])' \
			"$d/r$i.json" >"$d/x.json" && mv "$d/x.json" "$d/r$i.json"
		if [ -n "$prev" ]; then
			"$BIN/prof-diff" --baseline "$prev" -o "$d/c$i.json" \
				"$d/r$i.json" 2>/dev/null
		else
			"$BIN/prof-diff" --baseline "$d/none.json" \
				-o "$d/c$i.json" "$d/r$i.json" 2>/dev/null
		fi
		"$BIN/prof-history" add --db "$db" --comparisons "$d/c$i.json" \
			"$d/r$i.json" 2>/dev/null
		prev=$d/r$i.json
	done
}
