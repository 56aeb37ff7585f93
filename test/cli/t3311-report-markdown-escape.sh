#!/bin/bash
# Text from outside never becomes Markdown or HTML in summary.md (issue 28,
# item 4): CI appends the file to GitHub's job summary, which renders HTML.
# An error reason, an environment field, the commit, the command and a
# --note go through one escape (src/report/md.c, prof_md_write()): a tag, an
# entity, a link, emphasis and a table's '|' are written as text, and a
# backtick in a code span cannot end it.
. "$(dirname "$0")/lib.sh"
plan 9

D=test/data/results
bad='<img src=x onerror=alert(1)> *b* _i_ [x](javascript:alert(1)) a|b'
jq --arg bad "$bad" '
	(.samples[] | select(.outcome == "error") | .reason) =
		$bad + "\n# not a heading" |
	.commit = "a``b <img src=x>" |
	.command = "make | x `y`" |
	(.samples[] | .env.kernel) = "6.1 <script>alert(1)</script> ~~s~~"
	' $D/current.json >"$T/bad.json"
run prof-report --note '- [n](javascript:x) *n* <b>n</b>' -o "$T/s.md" \
	"$T/bad.json"
is "$rc" 0 "prof-report takes the run"
# (The commit's <img> is in a code span, where it is text.)
is "$(grep -v '^| commit' "$T/s.md" | grep -c '[^\\]<[a-z/]')" 0 \
	"no tag comes out raw"
is "$(grep 'w.crash' "$T/s.md" | tail -n 1)" \
	'- `w.crash` (cpu, phase timing, warm #0): \<img src=x onerror=alert(1)> \*b\* \_i\_ \[x\](javascript:alert(1)) a\|b # not a heading' \
	"an error reason: markup and the newline escaped"
like "$(cat "$T/s.md")" \
	'| commit | ```a``b <img src=x>``` |' \
	"a commit with backticks: a fence longer than its longest run"
like "$(cat "$T/s.md")" '| command | `` make \| x `y` `` |' \
	"a command with '|' and backticks stays in its cell"
like "$(cat "$T/s.md")" \
	'linux 6.1 \<script>alert(1)\</script> \~\~s\~\~; compiler gcc' \
	"an environment field"
is "$(sed -n 1p "$T/s.md")" '\- \[n\](javascript:x) \*n\* \<b>n\</b>' \
	"a --note: not a list item, a link, emphasis or a tag"

# A commit that starts with a backtick: padded inside the fence.
jq '.commit = "`x"' $D/current.json >"$T/tick.json"
run prof-report -o "$T/t.md" "$T/tick.json"
is "$rc:$(grep '^| commit' "$T/t.md")" '0:| commit | `` `x `` |' \
	"a commit that starts with a backtick"
# Clean fields are written as they were.
run prof-report -o "$T/c.md" $D/current.json
like "$(cat "$T/c.md")" \
	'| commit | `0123456789abcdef0123456789abcdef01234567` |' \
	"a clean commit as before"
finish
