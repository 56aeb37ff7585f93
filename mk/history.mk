# The run history (prof-history, SQLite) and what reads it: prof-report's
# HTML page. SQLite comes from Debian (libsqlite3-dev; mk/deps.sh).

SQLITE_LIBS := $(shell pkg-config --libs sqlite3 2>/dev/null)
TOOL_LIBS_history = $(SQLITE_LIBS)

# prof-report's --html page lives in its own file and reads the history.
$(BINDIR)/prof-report: $(TOOL_OBJ)/src/report-html.o
# It comes after libprof.a on the link line, so libprof.a comes again.
TOOL_LIBS_report += $(LIBPROF_TOOL) $(SQLITE_LIBS) $(LIB_LIBS)
