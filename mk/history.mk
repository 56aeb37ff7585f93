# The run history (prof-history: SQLite, or PostgreSQL through libpq) and
# what reads it: prof-report's HTML page. Both libraries come from Debian
# (libsqlite3-dev, libpq-dev; mk/deps.sh). SQLITE_LIBS names both: every
# reader of the history links the two backends.

SQLITE_LIBS := $(shell pkg-config --libs sqlite3 libpq 2>/dev/null)
TOOL_LIBS_history = $(SQLITE_LIBS)

# prof-report's --html page (src/lib/runpage.c) reads the history.
TOOL_LIBS_report += $(SQLITE_LIBS)

# prof-dashboard: the history as a folder of static pages.
TOOL_LIBS_dashboard = $(SQLITE_LIBS)

# make dashboard [HISTORY=FILE|URL] [PROF_PROJECT=] [OUTPUT=DIR] [REPO_URL=URL]: the history as
# static pages (index.html and a page per series). The repository's URL,
# for links to commits, comes from the git remote 'origin' when it is an
# http(s) one (any user name or token in it left out).
DASHBOARD_OUTPUT = $(or $(OUTPUT),artifacts/dashboard)
REPO_URL ?= $(shell git config --get remote.origin.url 2>/dev/null | \
	sed -e 's|^git@\([^:/]*\):|https://\1/|' -e 's|\.git$$||' \
	-e 's|^\(https\{0,1\}://\)[^@/]*@|\1|' | grep -E '^https?://')

.PHONY: dashboard
dashboard: $(BINDIR)/prof-dashboard ## the run history as static pages: [HISTORY=FILE or postgresql://...] [PROF_PROJECT=] [OUTPUT=dir, default artifacts/dashboard: new, empty or a dashboard's own; never a run's] [REPO_URL=]
	$(Q)$(if $(HISTORY),,echo "make dashboard: give HISTORY=the history" \
		"file" >&2; exit 2;) \
	PROF_PROJECT=$(call prof_sq,$(PROF_PROJECT)) \
	$(BINDIR)/prof-dashboard --db $(call prof_sq,$(HISTORY)) \
		--repo-url $(call prof_sq,$(REPO_URL)) \
		-o $(call prof_sq,$(DASHBOARD_OUTPUT))

# The history's unit test reads SQLite too.
$(BUILD)/test/unit/lib-history.t: LIB_LIBS += $(SQLITE_LIBS)
