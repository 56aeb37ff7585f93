# The run history (prof-history, SQLite) and what reads it: prof-report's
# HTML page. SQLite comes from Debian (libsqlite3-dev; mk/deps.sh).

SQLITE_LIBS := $(shell pkg-config --libs sqlite3 2>/dev/null)
TOOL_LIBS_history = $(SQLITE_LIBS)
