# profile-check.sh: the make variables of a run, checked before any phase
# runs (sourced by fragment/profile.sh, which defines say and finish). Nothing
# from a variable may reach a command as an option or split into words it
# did not mean: a bad value is exit 2 with the variable's name and why.

# is_id VALUE: the rule of prof_id_valid() (src/lib/base/id.h): 1 to 200
# letters, digits, '.', '_' and '-', the first a letter or a digit.
is_id() {
	case $1 in
	'' | [._-]* | *[!A-Za-z0-9._-]*) return 1 ;;
	esac
	[ ${#1} -le 200 ]
}

# bad VAR VALUE WHY: say it, with the value made printable, and stop.
bad() {
	v=$(printf '%s' "$2" | od -An -c | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
	case $2 in
	*[![:print:]]*) say "$1: '$v' (bytes as od -c shows them): $3" ;;
	*) say "$1: '$2': $3" ;;
	esac
	finish 2
}

# A path: never an option, never a control character.
check_path() {
	case $2 in
	-*) bad "$1" "$2" "starts with '-' (write ./$2 for a file of that name)" ;;
	*[![:print:]]*) bad "$1" "$2" "holds a control character" ;;
	esac
}

check_vars() {
	case ${PROF_BACKEND:-} in
	'' | cpu | gpu | all | auto) ;;
	*) bad BACKEND "$PROF_BACKEND" "expected cpu, gpu, all or auto" ;;
	esac
	case ${PROF_ENGINE:-} in
	'' | local | slurm) ;;
	*) bad ENGINE "$PROF_ENGINE" "expected local or slurm" ;;
	esac
	for v in REPEAT SEED; do
		eval "x=\${PROF_$v:-}"
		case $x in
		'') ;;
		*[!0-9]* | ?????????????????????*)
			bad "$v" "$x" "expected a whole number"
			;;
		esac
	done
	case ${PROF_TIMEOUT:-} in
	'') ;;
	*[!0-9.]* | *.*.* | . | .* | *.)
		bad TIMEOUT "$PROF_TIMEOUT" "expected a number of seconds"
		;;
	esac
	case ${PROF_SHARD:-} in
	'') ;;
	*/*/* | /* | */ | *[!0-9/]*)
		bad SHARD "$PROF_SHARD" "expected I/N, as 2/4"
		;;
	*/*) ;;
	*) bad SHARD "$PROF_SHARD" "expected I/N, as 2/4" ;;
	esac
	for v in STORIES COUNTS MEMORY; do
		eval "x=\${PROF_$v:-}"
		case $x in
		'' | 0 | 1) ;;
		*) bad "$v" "$x" "expected 0 or 1" ;;
		esac
	done
	for v in CATEGORY EXCLUDE_CATEGORY; do
		eval "x=\${PROF_$v:-}"
		case $x in
		*[![:print:]]*) bad "$v" "$x" "holds a control character" ;;
		esac
		for c in $x; do
			is_id "$c" || bad "$v" "$c" "not a category name (letters, digits, '.', '_' and '-', the first a letter or a digit)"
		done
	done
	case ${PROF_WORKLOADS:-} in
	*[![:print:]]*) bad WORKLOADS "$PROF_WORKLOADS" "holds a control character" ;;
	esac
	for w in ${PROF_WORKLOADS:-}; do
		check_path WORKLOADS "$w"
	done
	check_path OUTPUT "${PROF_OUTPUT:-}"
	check_path BASELINE "${BASELINE:-}"
	check_path PLAYWRIGHT "${PROF_PLAYWRIGHT:-}"
	check_path CHROMIUM "${PROF_CHROMIUM:-}"
	check_path BINDIR "${BINDIR:-}"
	check_path HISTORY "${PROF_HISTORY:-}"
	check_project
	check_w
	if [ "$mode" = diagnose ] && ! is_id "$id"; then
		bad W "$id" "not a workload id (letters, digits, '.', '_' and '-', the first a letter or a digit)"
	fi
	return 0
}
