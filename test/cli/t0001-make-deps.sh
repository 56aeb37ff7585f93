#!/bin/bash
# make checks its Debian packages first: as root it runs `make deps`, and
# otherwise it stops with the exact install line, never a compiler error.
. "$(dirname "$0")/lib.sh"
plan 10

# A PATH with every command of this machine but jq, and a fake apt-get
# that logs its arguments and "installs" jq by linking the real one.
mkdir -p "$T/path"
for f in /usr/bin/* /bin/*; do
	b=${f##*/}
	case "$b" in jq | apt-get) continue ;; esac
	[ -e "$T/path/$b" ] || ln -s "$f" "$T/path/$b"
done
cat >"$T/path/apt-get" <<FAKE
#!/bin/sh
echo "apt-get \$*" >>"$T/apt.log"
case "\$*" in *install*jq*) ln -sf "$(command -v jq)" "$T/path/jq" ;; esac
exit 0
FAKE
chmod +x "$T/path/apt-get"
chmod 755 "$T"
mkdir -m 777 "$T/b"
# A copy of the build files another user can read, wherever the checkout is.
mkdir -p "$T/src"
mkdir -p "$T/src/test"
cp -R Makefile mk fragment "$T/src/"
cp test/bins.mk "$T/src/test/"
chmod -R a+rX "$T/src"
# Under `make test` the outer make's variables would reach these makes.
unset MAKEFLAGS MFLAGS MAKELEVEL

is "$(PATH=$T/path sh mk/deps.sh missing build)" "jq" \
	"deps.sh names the missing package"
like "$(sh mk/deps.sh packages all)" "libjson-c-dev" "and lists them all"

if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
	(cd "$T/src" && runuser -u nobody -- env PATH="$T/path" make \
		--no-print-directory BUILD="$T/b/build" deps-check) >"$out" 2>"$err"
	rc=$?
	is "$rc" 2 "as a user, a missing package stops make"
	is "$(head -n 2 "$out")" "prof: these packages are missing; install them with:
sudo apt-get install -y jq" "with the exact install line"
	ok "$(grep -q 'error:' "$out" "$err"; [ $? = 1 ]; echo $?)" \
		"and no compiler error"
else
	skip "needs root to run make as another user"
	skip "needs root to run make as another user"
	skip "needs root to run make as another user"
fi

if [ "$(id -u)" = 0 ]; then
	(cd "$T/src" && PATH=$T/path make --no-print-directory \
		BUILD="$T/b/build" deps-check) >"$out" 2>"$err"
	rc=$?
	is "$rc" 0 "as root, make installs what is missing and goes on"
	like "$(cat "$T/apt.log")" "install -y -qq jq" "through apt-get"
	like "$(cat "$out")" "running 'make deps'" "and says so"
	like "$(cat "$out")" "prof: every package it needs is here" \
		"then finds everything"
else
	skip "needs root"
	skip "needs root"
	skip "needs root"
	skip "needs root"
fi

run make -s help
like "$(cat "$out")" "profile-quick" "make help lists the targets"
finish
