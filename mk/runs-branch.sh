#!/bin/sh
# runs-branch.sh: the run record kept in a git branch of its own (CI's
# prof-runs): one results file a run, runs/<timestamp>-<run id>.json, so
# that two jobs never write the same file and the history can always be
# rebuilt from the branch (prof-history import).
#
#   sh mk/runs-branch.sh import BRANCH DB [REMOTE]
#       fetch the branch's tip alone (a shallow fetch) and import its run
#       files into the history DB; a remote without the branch is not an
#       error (the record starts empty). PROF_BINDIR: the tools (bin).
#   sh mk/runs-branch.sh record BRANCH RESULTS [REMOTE]
#       add RESULTS to the branch as one new commit and push it; a push
#       refused because another job pushed first (not a fast-forward) is
#       tried again on the new tip, up to 5 times. Run inside a clone
#       whose REMOTE (default origin) may be pushed to.
#
# Exit status: 0 done, 2 a bad argument, a results file without a valid
# run id or timestamp or one that prof-history import would refuse (it is
# never recorded), or git or prof-history failing.
set -u

die() {
	echo "runs-branch: $*" >&2
	exit 2
}

[ $# -ge 3 ] || die "usage: runs-branch.sh import|record BRANCH FILE [REMOTE]"
verb=$1 branch=$2 file=$3 remote=${4:-origin}
case $branch in
'' | -* | *[!A-Za-z0-9._/-]*) die "'$branch' is not a branch name" ;;
esac
bindir=${PROF_BINDIR:-bin}
ref=refs/prof-runs-branch/$branch

# The tip of the branch into $ref: 0, 1 when the remote has no such
# branch, 2 when git fails.
fetch_tip() {
	git ls-remote --exit-code --heads "$remote" "refs/heads/$branch" \
		>/dev/null 2>&1
	case $? in
	0) ;;
	2) return 1 ;;
	*) echo "runs-branch: cannot reach '$remote'" >&2; return 2 ;;
	esac
	git fetch -q --depth=1 --no-tags "$remote" "+refs/heads/$branch:$ref" ||
		return 2
	return 0
}

case $verb in
import)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/prof-runs.XXXXXX") || exit 2
	trap 'rm -rf "$tmp"' EXIT
	fetch_tip
	case $? in
	1)
		echo "runs-branch: no branch '$branch' on '$remote' yet;" \
			"nothing to import"
		exit 0
		;;
	2) exit 2 ;;
	esac
	mkdir "$tmp/runs"
	if git cat-file -e "$ref:runs" 2>/dev/null; then
		git archive "$ref" runs | tar -x -C "$tmp" || exit 2
	fi
	"$bindir/prof-history" import --db "$file" "$tmp/runs" || exit 2
	;;
record)
	[ -f "$file" ] || die "'$file' is not a file"
	run_id=$(jq -er '.run_id | strings' "$file") ||
		die "'$file': no run id"
	stamp=$(jq -er '.timestamp_utc | strings' "$file") ||
		die "'$file': no timestamp"
	# Both go into a file name: letters, digits, '.', '_', '-' only.
	stamp=$(printf '%s' "$stamp" | tr -d ':')
	case $run_id$stamp in
	*[!A-Za-z0-9._-]*) die "'$file': run id or timestamp unfit for a file name" ;;
	esac
	# A file import would refuse (a timestamp that is not RFC 3339 UTC,
	# a bad sample) never enters the branch: it would stop every later
	# import. The history's own reader checks it, in a database of its
	# own; its first line names the place.
	check=$(mktemp -d "${TMPDIR:-/tmp}/prof-runs.XXXXXX") || exit 2
	if ! why=$("$bindir/prof-history" add --db "$check/check.sqlite" \
		"$file" 2>&1 >/dev/null); then
		rm -rf "$check"
		die "'$file' is not recorded (import would refuse it):" \
			"$(printf '%s\n' "$why" | head -n 1 |
				sed 's/^prof-history: //')"
	fi
	rm -rf "$check"
	name=runs/$stamp-$run_id.json
	if [ -z "$(git config user.name)" ]; then
		export GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-prof runs}"
		export GIT_COMMITTER_NAME="${GIT_COMMITTER_NAME:-prof runs}"
	fi
	if [ -z "$(git config user.email)" ]; then
		export GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-prof-runs@localhost}"
		export GIT_COMMITTER_EMAIL="${GIT_COMMITTER_EMAIL:-prof-runs@localhost}"
	fi
	try=1
	while :; do
		fetch_tip
		case $? in
		0) parent=$ref ;;
		1) parent= ;;
		*) exit 2 ;;
		esac
		# The commit is made from a tree of its own: the worktree and
		# the index of the clone are left alone.
		GIT_INDEX_FILE=$(git rev-parse --absolute-git-dir)/prof-runs-index ||
			exit 2
		export GIT_INDEX_FILE
		rm -f "$GIT_INDEX_FILE"
		if [ -n "$parent" ]; then
			git read-tree "$parent" || exit 2
		fi
		if [ -n "$parent" ] && git cat-file -e "$parent:$name" 2>/dev/null
		then
			echo "runs-branch: '$name' is already in '$branch'"
			rm -f "$GIT_INDEX_FILE"
			exit 0
		fi
		blob=$(git hash-object -w "$file") || exit 2
		git update-index --add --cacheinfo "100644,$blob,$name" ||
			exit 2
		tree=$(git write-tree) || exit 2
		rm -f "$GIT_INDEX_FILE"
		unset GIT_INDEX_FILE
		commit=$(git commit-tree "$tree" ${parent:+-p "$parent"} \
			-m "Run $run_id") || exit 2
		if git push -q "$remote" "$commit:refs/heads/$branch"; then
			echo "runs-branch: added '$name' to '$branch'"
			exit 0
		fi
		[ "$try" -lt 5 ] || die "could not push to '$branch' after $try tries"
		echo "runs-branch: '$branch' moved (not a fast-forward);" \
			"trying again"
		sleep "$try"
		try=$((try + 1))
	done
	;;
*) die "unknown verb '$verb' (import, record)" ;;
esac
