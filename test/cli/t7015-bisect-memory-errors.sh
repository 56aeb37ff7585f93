#!/bin/bash
# make bisect CHANNEL=memory over commits that do not build or whose
# workload fails: a commit that does not build is skipped (the change is
# in it or in the first changed commit), and a GOOD whose memory run
# errors stops the bisect, exit 2, with the sample's reason and where the
# samples are (it said only "cannot measure").
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-project.sh"
plan 7

project_install
[ "$rc" = 0 ] || { cat "$err" >&2; exit 1; }
project_init || exit 1
good=$(git rev-parse HEAD)
echo "this is not C" >>tiny.c
commit "breaks the build"
broken=$(git rev-parse HEAD)
# the build mended, and run() sums a copy of its 400,000-byte buffer
sed -i '/^this is not C$/d' tiny.c
project_copy_run
commit "mends the build, sums a copy"
first=$(git rev-parse HEAD)
python3 - <<'PY'
s = open("tiny.c").read()
s = s.replace("""	free(copy);
	s->sum = sum;""", """	free(copy);
	s->sum = sum;
	return prof_fail(ctx, "the copy is lost");""")
open("tiny.c", "w").write(s)
PY
commit "run fails"
failing=$(git rev-parse HEAD)
echo "/* a comment */" >>tiny.c
commit "a comment"

mk bisect GOOD="$good" BAD="$first" W=tiny.sum CHANNEL=memory \
	OUTPUT="$T/b"
is "$rc" 0 "a commit between that does not build: exit 0"
is "$(sed -n 1p "$out")" "first changed commit: $first mends the build, sums a copy" \
	"the first changed commit is the one after it"
like "$(cat "$out")" "skipped (do not build): ${broken:0:7}" \
	"the skipped commit is named"
jq_ok '.skipped == ["'"$broken"'"] and .first_changed.status == "warning"
	and .first_changed.metric == "host_peak_bytes"' "$T/b/bisect.json" \
	"bisect.json: skipped, and the heap peak a warning"

mk bisect GOOD="$failing" BAD=HEAD W=tiny.sum CHANNEL=memory \
	OUTPUT="$T/e"
is "$rc" 2 "GOOD's memory run errors: exit 2"
like "$(cat "$err")" \
	"make bisect: cannot measure tiny.sum at good (${failing:0:7}): the copy is lost ($T/e/steps/$failing/memory.jsonl)" \
	"the sample's reason, and where the samples are"
jq_ok -s 'all(.[]; .outcome == "error" and .reason == "the copy is lost")' \
	"$T/e/steps/$failing/memory.jsonl" "which hold it"
finish
