#!/bin/sh
# Which Debian packages prof needs, which are missing here, and installing them.
#
# usage: sh mk/deps.sh missing build|fuzz|test|all   print the missing packages
#        sh mk/deps.sh packages build|fuzz|test|all  print every package of the set
#        sh mk/deps.sh install build|fuzz|test|all   apt-get install what is missing (root)
#        sh mk/deps.sh node                          npm ci when node_modules is stale
#
# "build" is what `make` and `make profile-quick` need; "fuzz" adds clang and
# its libFuzzer (`make fuzz`); "test" adds what the tests and the browser
# stories need (the fuzz set, chromium, node, npm, and Slurm with munge for
# the one-node cluster of the ENGINE=slurm tests). Each line below is
# "package check": the package is missing when the check fails.
set -u

build_reqs() {
	cat <<'EOF'
gcc command -v cc
binutils command -v c++filt
make command -v make
libc6-dev test -e /usr/include/stdio.h
pkg-config command -v pkg-config
libjson-c-dev pkg-config --exists json-c
libssl-dev pkg-config --exists libcrypto
libxml2-dev pkg-config --exists libxml-2.0
libmicrohttpd-dev pkg-config --exists libmicrohttpd
libsqlite3-dev pkg-config --exists sqlite3
libpq-dev pkg-config --exists libpq
libgoogle-perftools-dev has_header gperftools/profiler.h
google-perftools command -v google-pprof
jq command -v jq
perl command -v prove
valgrind has_header valgrind/callgrind.h && command -v valgrind
scdoc command -v scdoc
EOF
}

fuzz_reqs() {
	build_reqs
	cat <<'EOF'
clang command -v clang
libclang-rt-dev has_libfuzzer
EOF
}

test_reqs() {
	fuzz_reqs
	cat <<'EOF'
gzip command -v gzip
sqlite3 command -v sqlite3
postgresql has_initdb
postgresql-common command -v pg_virtualenv
libbenchmark-tools test -e /usr/share/benchmark/compare.py
libbenchmark-dev has_header benchmark/benchmark.h
g++ command -v g++
python3-scipy /usr/bin/python3 -c "import scipy"
chromium test -x /usr/bin/chromium
nodejs command -v node
npm command -v npm
man-db command -v man
zlib1g-dev pkg-config --exists zlib
munge command -v munged && command -v mungekey
slurmctld command -v slurmctld
slurmd command -v slurmd
slurm-client command -v sbatch
EOF
}

has_header() {
	for d in /usr/include /usr/local/include /usr/include/x86_64-linux-gnu \
		/usr/include/aarch64-linux-gnu; do
		test -e "$d/$1" && return 0
	done
	return 1
}

# The PostgreSQL server the history's tests start a throwaway cluster of
# (Debian keeps initdb out of PATH, under /usr/lib/postgresql/N/bin).
has_initdb() {
	command -v initdb || ls /usr/lib/postgresql/*/bin/initdb
}

# clang links a fuzz target: libFuzzer and the sanitizer runtimes are here
# (Debian's libclang-rt-*-dev; clang alone only recommends it).
has_libfuzzer() {
	echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
		clang -x c -fsanitize=fuzzer,address,undefined -o /dev/null - 2>/dev/null
}

reqs() {
	case "$1" in
	build) build_reqs ;;
	fuzz) fuzz_reqs ;;
	test | all) test_reqs ;;
	*)
		echo "deps.sh: unknown set '$1' (build, fuzz, test or all)" >&2
		exit 2
		;;
	esac
}

# The packages whose check fails, one line, in the order listed.
missing() {
	out=
	while read -r pkg check; do
		[ -n "$pkg" ] || continue
		eval "$check" >/dev/null 2>&1 || out="$out $pkg"
	done <<EOF
$(reqs "$1")
EOF
	echo $out
}

packages() {
	reqs "$1" | while read -r pkg check; do echo "$pkg"; done | tr '\n' ' ' |
		sed 's/ $//'
	echo
}

# npm ci when the lock file is newer than what node_modules holds.
node_sync() {
	[ -f package-lock.json ] || return 0
	if [ -f node_modules/.package-lock.json ] &&
		[ ! package-lock.json -nt node_modules/.package-lock.json ]; then
		return 0
	fi
	command -v npm >/dev/null 2>&1 || {
		echo "deps.sh: npm is not installed; run: apt-get install -y npm" >&2
		return 2
	}
	npm ci --no-audit --no-fund --loglevel=error
}

set_name=${2:-all}
case "${1:-}" in
missing) missing "$set_name" ;;
packages) packages "$set_name" ;;
install)
	pkgs=$(missing "$set_name")
	if [ -n "$pkgs" ]; then
		if [ "$(id -u)" != 0 ]; then
			echo "prof: missing packages; install them with:" >&2
			echo "sudo apt-get install -y $pkgs" >&2
			exit 2
		fi
		echo "prof: installing: $pkgs" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >&2 || exit 2
		# shellcheck disable=SC2086
		apt-get install -y -qq $pkgs >&2 || exit 2
	fi
	if [ "$set_name" != build ]; then
		node_sync >&2 || exit 2
	fi
	;;
node) node_sync ;;
*)
	echo "usage: sh mk/deps.sh missing|packages|install build|fuzz|test|all" >&2
	echo "       sh mk/deps.sh node" >&2
	exit 2
	;;
esac
