#!/bin/sh
# repeat.sh: one test file through `make test`, N times in a row, stopping
# at the first failure (its output kept in $TMPDIR/repeat.log).
#
#   sh test/repeat.sh N test/cli/t5001-server-http.sh
#
# Prints a line per run ("repeat: run K: ok"), then "repeat: FILE: N of N
# passed" or "repeat: FILE: failed at run K (K-1 passed before)".
# Exit status: 0 all passed, 1 one failed, 2 bad use.
set -u
n=${1:-}
file=${2:-}
case $n in
'' | *[!0-9]*)
	echo "usage: sh test/repeat.sh N FILE" >&2
	exit 2
	;;
esac
[ -f "$file" ] || {
	echo "repeat: no test file '$file'" >&2
	exit 2
}
log=${TMPDIR:-/tmp}/repeat.log
i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	if ! make --no-print-directory test T="$file" >"$log" 2>&1; then
		echo "repeat: $file: failed at run $i ($((i - 1)) passed before)"
		exit 1
	fi
	echo "repeat: run $i: ok"
done
echo "repeat: $file: $n of $n passed"
