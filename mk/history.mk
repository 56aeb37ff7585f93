# The run history (prof-history: SQLite, or PostgreSQL through libpq) and
# what reads it: prof-report's HTML page. Both libraries come from Debian
# (libsqlite3-dev, libpq-dev; mk/deps.sh). SQLITE_LIBS names both: every
# reader of the history links the two backends.

SQLITE_LIBS := $(shell pkg-config --libs sqlite3 libpq 2>/dev/null)
TOOL_LIBS_history = $(SQLITE_LIBS)

# prof-report's --html page (src/report/runpage.c) reads the history.
TOOL_LIBS_report += $(SQLITE_LIBS)

# prof-dashboard: the history as a folder of static pages.
TOOL_LIBS_dashboard = $(SQLITE_LIBS)

# make dashboard is fragment/prof.mk's, as a project's is.

# The history's unit tests read SQLite (and PostgreSQL) too.
$(BUILD)/test/unit/lib-history.t: LIB_LIBS += $(SQLITE_LIBS)
$(BUILD)/test/unit/lib-history-columns.t: LIB_LIBS += $(SQLITE_LIBS)
