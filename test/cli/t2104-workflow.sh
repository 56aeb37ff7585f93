#!/bin/bash
# .github/workflows/profile.yml: valid for GitHub Actions (checked offline by
# @action-validator/cli, pinned in package-lock.json), with a matrix of
# shards and a job that merges them.
. "$(dirname "$0")/lib.sh"

V=node_modules/.bin/action-validator
W=.github/workflows/profile.yml
command -v node >/dev/null 2>&1 || skip_all "node is not installed"
plan 6

run "$V" "$W"
is "$rc" 0 "the workflow is valid (action-validator)"
printf '      - run: echo\n        bogus: 1\n' | cat "$W" - >"$T/bad.yml"
run "$V" "$T/bad.yml"
is "$rc" 1 "and the validator does reject a bad one"

shards=$(sed -n 's/^  SHARDS: \([0-9]*\)$/\1/p' "$W")
is "$(sed -n 's/^        shard: \[\(.*\)\]$/\1/p' "$W")" \
	"$(seq -s ', ' 1 "$shards")" "the matrix lists shards 1 to SHARDS"
like "$(cat "$W")" 'SHARD=${{ matrix.shard }}/$SHARDS' \
	"each matrix job profiles its shard"
like "$(cat "$W")" "make merge-shards DIR=artifacts/shards SHARDS=\$SHARDS" \
	"the merge job merges the downloaded shards"
like "$(cat "$W")" "needs: shard" "after the shards"
finish
