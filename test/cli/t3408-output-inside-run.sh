#!/bin/bash
# OUTPUT inside an older run (OUTPUT=<run>/sub), and merge-shards' OUTPUT
# inside its DIR: refused in one line (exit 2) before anything runs,
# nothing made. The first made a folder inside the older run; the second
# made the merged run one more "shard" of the next merge of DIR (the scan
# of DIR/*/results.json read it). run_folder in fragment/run-lib.sh, for
# every target that writes a run folder.
. "$(dirname "$0")/lib.sh"
plan 10

mk() {
	make -s --no-print-directory -o all -o "$BIN/prof-baseline" \
		BINDIR="$BIN" "$@" >"$out" 2>"$err"
	rc=$?
}
lines() {
	grep -v '^make: \*\*\*' "$err"
}
sums() { (cd "$1" && find . | LC_ALL=C sort; find . -type f |
	LC_ALL=C sort | xargs md5sum); }
FAIL="run finished with exit code 2 (infrastructure or argument failure)"
NEVER="a run is never written into another; give a folder outside it"
D=test/data/results
# The run folder is named as found, its links resolved.
R=$(cd "$T" && pwd -P)

# An older run (results.json), one stopped before its results
# (samples.jsonl), and a bisect (bisect.json).
mkdir -p "$T/old" "$T/part" "$T/bis"
cp $D/current.json "$T/old/results.json"
echo '{}' >"$T/part/samples.jsonl"
echo '{}' >"$T/bis/bisect.json"
kept=$(sums "$T/old")

mk profile-quick WORKLOADS="$TW" CATEGORY=test OUTPUT="$T/old/sub"
is "$rc:$(lines)" "2:make profile-quick: OUTPUT '$T/old/sub' is inside the run folder '$R/old' (it holds 'results.json'): $NEVER
make profile-quick: $FAIL" "OUTPUT=<run>/sub: exit 2, one line naming the run"
is "$(sums "$T/old")" "$kept" "nothing made inside the older run"
mk compare AGAINST="$TW" WORKLOADS="$TW" CATEGORY=test \
	OUTPUT="$T/part/a/b"
is "$rc:$(head -n 1 "$err")" "2:make compare: OUTPUT '$T/part/a/b' is inside the run folder '$R/part' (it holds 'samples.jsonl'): $NEVER" \
	"make compare, deeper, into a run of samples only"
is "$(ls -A "$T/part")" "samples.jsonl" "nothing made there"
mkdir "$T/bis/empty"
mkdir -p "$T/shards0"
cp $D/current.json "$T/shards0/a.json"
mk merge-shards DIR="$T/shards0" OUTPUT="$T/bis/empty"
is "$rc:$(head -n 1 "$err"):$(ls -A "$T/bis/empty")" "2:make merge-shards: OUTPUT '$T/bis/empty' is inside the run folder '$R/bis' (it holds 'bisect.json'): $NEVER:" \
	"an empty folder inside a bisect's run: refused, left empty"

# merge-shards: OUTPUT inside DIR.
mkdir -p "$T/shards/s1"
cp $D/current.json "$T/shards/s1/results.json"
kept=$(sums "$T/shards")
mk merge-shards DIR="$T/shards" OUTPUT="$T/shards/merged"
is "$rc:$(head -n 1 "$err")" "2:make merge-shards: OUTPUT '$T/shards/merged' is inside DIR '$T/shards' that this run reads: the next run would read this one's output as its input; give an OUTPUT outside it" \
	"merge-shards OUTPUT inside DIR: exit 2, one line naming both"
is "$(sums "$T/shards")" "$kept" "nothing made in DIR"
mk merge-shards DIR="$T/shards/" OUTPUT="$T/shards/s1/../new/m"
like "$rc:$(head -n 1 "$err")" "2:make merge-shards: OUTPUT '$T/shards/s1/../new/m' is inside DIR '$T/shards/' " \
	"however the paths are written"
is "$(sums "$T/shards")" "$kept" "nothing made in DIR"
# DIR inside OUTPUT: OUTPUT is not empty then.
mk merge-shards DIR="$T/shards/s1" OUTPUT="$T/shards"
like "$rc:$(head -n 1 "$err")" "2:make merge-shards: OUTPUT '$T/shards' is not empty" \
	"OUTPUT holding DIR: refused as not empty"
finish
