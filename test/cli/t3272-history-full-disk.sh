#!/bin/bash
# prof-history add on a full disk: a failed write leaves what was there
# before (issue 28, item 1: a new history on a full disk was left as a
# 0-byte database file). A new history is made whole in a temporary
# sibling and linked into place, or not at all; an existing one keeps its
# runs. The full disk is a small tmpfs, which needs mount(8) and the right
# to mount (root); without them the test says so and skips.
. "$(dirname "$0")/lib.sh"
D=test/data/results
M=$T/mnt
mkdir -p "$M"
if ! mount -t tmpfs -o size=16k tmpfs "$M" 2>/dev/null; then
	skip_all "cannot mount a small tmpfs (mount(8) as root)"
fi
trap 'umount "$M" 2>/dev/null; rm -rf "$T"' EXIT
plan 6

# A disk with room for less than a history's schema.
run prof-history add --db "$M/h.sqlite" $D/current.json
is "$rc:$(errline)" "2:prof-history: $M/h.sqlite: database or disk is full" \
	"a new history on a full disk: exit 2, naming it"
is "$(ls -A "$M")" "" "and no file is left: no history, no temporary file"

# An existing history, and a disk filled up after it.
umount "$M"
mount -t tmpfs -o size=1m tmpfs "$M" || exit 1
run prof-history add --db "$M/h.sqlite" $D/current.json
is "$rc" 0 "with room, the history is made"
dd if=/dev/zero of="$M/fill" bs=4k 2>/dev/null
run prof-history add --db "$M/h.sqlite" $D/baseline.json
is "$rc" 2 "a second run on the full disk: exit 2"
rm -f "$M/fill"
run prof-history list --db "$M/h.sqlite"
jq_ok 'map(.run_id) == ["20261129T181500Z-c0de"]' "$out" \
	"the history holds its first run, and only that"
is "$(find "$M" -name '.*.tmp.*' | wc -l)" 0 "no temporary file is left"
finish
