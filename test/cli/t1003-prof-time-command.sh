#!/bin/bash
# prof-time --name ID -- CMD: any command timed as a workload, no shell.
. "$(dirname "$0")/lib.sh"
plan 18

run prof-time --name sleep.10ms --repeat 5 -- sleep 0.01
is "$rc" 0 "a command that exits 0 is a success"
jq_ok -s 'length == 5 and (map(.index) == [0, 1, 2, 3, 4])' "$out" \
	"--repeat 5 writes 5 samples"
# sleep never returns early, so the median cannot be under 10 ms.
jq_ok -s 'map(.duration_ms) | sort | .[2] >= 10' "$out" \
	"the median of sleep 0.01 is at least 10 ms"
jq_ok -s 'all(.[]; .workload == "sleep.10ms" and .category == "command" and
	.phase == "timing" and .outcome == "success" and
	(.metrics.user_ms | type == "number") and
	(.metrics.system_ms | type == "number") and .metrics.max_rss_bytes > 0 and
	.metrics.exit_status == 0)' "$out" \
	"each sample has wall time, user and system CPU and max RSS"
jq_ok -s 'map(.fixture_checksum) | unique | length == 1' "$out" \
	"the command line is the fixture's checksum"
like "$(cat "$err")" "prof-time: sleep.10ms: median " "a summary on stderr"

run prof-time --name f --repeat 2 -- false
is "$rc" 1 "a non-zero exit is an error sample, exit 1"
jq_ok -s 'length == 2 and all(.[]; .outcome == "error" and
	.reason == "exited with status 1, expected 0")' "$out" "with the reason"

run prof-time --name f --repeat 2 --expect-exit 1 -- false
is "$rc" 0 "--expect-exit 1 makes exit 1 the success"

run prof-time --name sh.fail --repeat 1 -- sh -c 'echo broken pipe >&2; exit 4'
jq_ok '.reason == "exited with status 4, expected 0: broken pipe"' "$out" \
	"the reason keeps the last stderr line"

run prof-time --name w --warmup 2 --repeat 3 -- true
jq_ok -s 'length == 3 and map(.index) == [0, 1, 2]' "$out" \
	"warmup runs produce no samples"

run prof-time --name sz --repeat 1 --problem-size 1MB --warning-floor 2.5 -- true
jq_ok '.env.problem_size == "1MB" and (.segment | fromjson | .problem_size == "1MB")
	and .warning_floor_ms == 2.5' "$out" "--problem-size enters the segment key"

run prof-time --name echo --repeat 2 -- echo hello
jq_ok -s 'length == 2' "$out" "the command's stdout is not mixed into the samples"

run prof-time --name hang --repeat 1 --timeout 0.5 -- sleep 30
jq_ok '.outcome == "error" and .reason == "timed out after 0.5 s"' "$out" \
	"a command past its timeout is killed and an error sample"

run prof-time --name x --repeat 1 -- /no/such/program
is "$rc" 2 "a command that cannot run is exit 2"
is "$(errline)" "prof-time: cannot run '/no/such/program': No such file or directory" \
	"and says why"

run prof-time --name x
is "$rc:$(errline)" "2:prof-time: --name needs a command after '--'" \
	"--name without a command is exit 2"

run prof-time --name ok --repeat 3 -o "$T/c.jsonl" -- true
jq_ok -s 'length == 3' "$T/c.jsonl" "-o writes the samples to a file"
finish
