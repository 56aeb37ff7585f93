#!/bin/bash
# The run history is a facade over a table of backend operations
# (src/lib/history/, backend.h): the facade (history.c) reaches each
# backend only through its operations table, prof_history_sqlite_ops or
# prof_history_pg_ops, chosen once, in prof_history_open(); each
# backend's readers are a file beside it; no public
# function of the facade asks which backend it is on; neither backend
# calls the other or the facade; and none spawns git (the project is
# the caller's to name). Checked on the objects (nm) and on the facade's
# source. t0105 checks the history's layer as a whole.
. "$(dirname "$0")/lib.sh"

OBJ=$ROOT/${PROF_BUILD:-build}/src/lib/history
SRC=$ROOT/src/lib/history
command -v nm >/dev/null || skip_all "nm is not installed"
plan 11

# uses FILE OTHER: the symbols of OTHER.o that FILE.o uses, one a line.
uses() {
	comm -12 <(nm -u "$OBJ/$1.o" | awk '{ print $2 }' | sort -u) \
		<(nm -g --defined-only "$OBJ/$2.o" | awk 'NF == 3 { print $3 }' |
			sort -u)
}

is "$(uses history sqlite)" "prof_history_sqlite_ops" \
	"the facade reaches the SQLite backend by its operations only"
is "$(uses history pg)" "prof_history_pg_ops" \
	"and the PostgreSQL backend by its own"
is "$(nm -g --defined-only "$OBJ/sqlite.o" "$OBJ/pg.o" |
	awk 'NF == 3 { print $3 }' | sort | tr '\n' ' ')" \
	"prof_history_pg_ops prof_history_sqlite_ops " \
	"each backend exports its operations table, nothing else"
# A backend's readers are a file of their own (sqlite_read.c, pg_read.c),
# which its operations table names and which calls nothing of it back.
is "$(nm -g --defined-only "$OBJ/sqlite_read.o" | awk 'NF == 3 { print $3 }' |
	grep -v '^sq_')$(nm -g --defined-only "$OBJ/pg_read.o" |
	awk 'NF == 3 { print $3 }' | grep -v '^pg_')" "" \
	"the readers' files export their backend's readers only"
is "$(uses sqlite_read sqlite; uses pg_read pg)" "" \
	"and call nothing of the rest of it"
is "$(for a in sqlite sqlite_read; do for b in pg pg_read; do
	uses $a $b; uses $b $a; done; done)" "" "neither backend calls the other"
is "$(for f in sqlite sqlite_read pg pg_read; do uses $f history; done)" "" \
	"nor back into the facade"
# The facade's public functions (history.h's), each from its return
# type's line to its closing brace, name no backend: no "pg", "sqlite"
# or backend test among them, but the choice in prof_history_open().
is "$(awk '/^prof_history_[a-z_]*\(/ { f = $0; sub(/\(.*/, "", f) }
	f && /pg|sqlite|is_pg/ && f != "prof_history_open" { print f ": " $0 }
	/^}/ { f = "" }' "$SRC/history.c")" "" \
	"no public function of the facade asks which backend it is on"
is "$(awk '/^prof_history_[a-z_]*\(/ { f = $0; sub(/\(.*/, "", f) }
	f && /h->ops->/ { print f } /^}/ { f = "" }' "$SRC/history.c" |
	sort -u | wc -l)" 20 \
	"(the walk sees the 20 public functions that call an operation: all but prof_history_backoff)"
is "$(grep -c 'is_pg(path)' "$SRC/history.c")" 1 \
	"the backend is chosen once, by the address, on opening"
# No child process from the library's history: the project's name and
# the commits' facts are the caller's to give (prof-history asks git).
is "$(for f in "$OBJ"/*.o; do nm -u "$f"; done | awk '{ print $2 }' |
	grep -E '^(prof_spawn_|fork$|execv|execl|posix_spawn|popen$|system$)' |
	sort -u | tr '\n' ' ')" "" "no file of the history spawns a child (git)"
finish
