# fail-tool.sh: a tool that fails on purpose, for the tests of a failed
# run (t3402, t3403); source it after lib.sh.
#
# fail_tool TOOL [N]: $T/bin holds the tools (links to $BIN's), TOOL's Nth
# call (default the first) replaced by one that has begun to write: half
# a JSON line at its --output when that is a stream (*.jsonl; a results
# file or a report is written whole or not at all), a file in its
# --functions folder, the path of its output in $T/where, then "TOOL:
# failed on purpose" and exit 2. Its other calls are the real tool's. TOOL none: the tools only.
fail_tool() {
	local t
	rm -rf "$T/bin" "$T/calls" "$T/where"
	mkdir "$T/bin"
	for t in "$BIN"/*; do
		ln -s "$t" "$T/bin/${t##*/}"
	done
	[ "$1" != none ] || return 0
	rm "$T/bin/$1"
	cat >"$T/bin/$1" <<EOF
#!/bin/sh
n=\$(cat "$T/calls" 2>/dev/null || echo 0)
n=\$((n + 1))
echo \$n >"$T/calls"
[ \$n -eq ${2:-1} ] || exec "$BIN/$1" "\$@"
while [ \$# -gt 0 ]; do
	case \$1 in
	--output | -o)
		case \$2 in
		*.jsonl) printf '{"half' >"\$2" ;;
		esac
		printf '%s\n' "\$2" >"$T/where"
		;;
	--functions) mkdir -p "\$2" && : >"\$2/callgrind.out.1" ;;
	esac
	shift
done
echo "$1: failed on purpose" >&2
exit 2
EOF
	chmod +x "$T/bin/$1"
}

# failed_folder: the run folder of the failed tool's output ($T/where).
failed_folder() {
	local f
	f=$(cat "$T/where" 2>/dev/null) || return 1
	printf '%s\n' "${f%/*}"
}
