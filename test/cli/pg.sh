# pg.sh: a throwaway PostgreSQL cluster for the history tests; source after
# lib.sh.
#
#   pg_start   start a cluster of its own (initdb and pg_ctl in a temporary
#              folder, listening on a Unix socket there only, as the user
#              nobody when run as root: initdb refuses root), stopped and
#              removed at exit; sets $PGURL, a libpq URI of its database
#              "postgres". Skips the whole test (skip_all) when PostgreSQL
#              is not installed. Nothing here uses a server already running.
#   pg_db NAME a database of its own in that cluster; prints its URI

pg_bin() {
	local d
	if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
		dirname "$(readlink -f "$(command -v initdb)")"
		return 0
	fi
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && {
			echo "$d"
			return 0
		}
	done
	return 1
}

pg_start() {
	local bin as=
	bin=$(pg_bin) || skip_all "PostgreSQL is not installed (initdb, pg_ctl: the postgresql package; sh mk/deps.sh install test)"
	if [ "$(id -u)" = 0 ]; then
		id nobody >/dev/null 2>&1 ||
			skip_all "running as root, and no user 'nobody' to run PostgreSQL as"
		as="runuser -u nobody --"
	fi
	# Its own folder (not $T: nobody must reach it), short, for the
	# socket's path.
	PGDIR=$(mktemp -d /tmp/prof-pg.XXXXXX) || exit 1
	chmod 755 "$PGDIR"
	[ -z "$as" ] || chown nobody "$PGDIR"
	trap 'pg_stop; rm -rf "$T"' EXIT
	PGAS=$as
	PGBIN=$bin
	if ! $as "$bin/initdb" -D "$PGDIR/data" -A trust -U prof \
		--no-sync -E UTF8 --locale=C.UTF-8 >"$PGDIR/initdb.log" 2>&1; then
		sed 's/^/# /' "$PGDIR/initdb.log" >&2
		echo "Bail out! initdb failed"
		exit 1
	fi
	if ! $as "$bin/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w \
		-o "-k $PGDIR -c listen_addresses= -c fsync=off -p 5432" \
		start >/dev/null 2>&1; then
		sed 's/^/# /' "$PGDIR/server.log" >&2
		echo "Bail out! the PostgreSQL server did not start"
		exit 1
	fi
	PGURL="postgresql://prof@/postgres?host=$PGDIR&port=5432"
	unset PGHOST PGPORT PGUSER PGDATABASE PGPASSWORD PGSERVICE
	export PGPASSFILE=$PGDIR/no-passwords
}

pg_stop() {
	[ -n "${PGDIR:-}" ] || return 0
	$PGAS "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop >/dev/null 2>&1
	rm -rf "$PGDIR"
}

pg_db() {
	"$PGBIN/psql" -X -q -d "$PGURL" -c "CREATE DATABASE \"$1\"" >/dev/null &&
		echo "postgresql://prof@/$1?host=$PGDIR&port=5432"
}
