# The tools: src/prof-<verb>.c builds $(BINDIR)/prof-<verb>, one pattern rule.

TOOL_SRC := $(wildcard src/prof-*.c)
TOOLS := $(patsubst src/%.c,$(BINDIR)/%,$(TOOL_SRC))
# Under the tools, three layers: src/runner/ (the engine of prof-time, -mem,
# -trace and -count) and src/report/ (the pages), and below them src/cli/
# (messages, checked numbers, the exit path), all over libprof (t0101,
# t0105).
CLI_SRC := $(wildcard src/cli/*.c)
RUNNER_SRC := $(wildcard src/runner/*.c)
TOOL_COMMON := $(patsubst %.c,$(TOOL_OBJ)/%.o,$(CLI_SRC) $(RUNNER_SRC))
EXTRA_CFLAGS_src/runner = -Isrc
# Beside the runner, src/report/ (the pages: prof-report's summary.md,
# compact table and report.html, prof-dashboard's pages), over libprof and
# src/cli; an archive, so that a tool links only what it uses (the page
# reads the history, which only the page's tools link).
REPORT_SRC := $(wildcard src/report/*.c)
LIBREPORT_TOOL := $(TOOL_OBJ)/libreport.a
EXTRA_CFLAGS_src/report = -Isrc

$(BUILD)/libreport.a: $(patsubst %.c,$(BUILD)/%.o,$(REPORT_SRC))
	$(QUIET_AR)rm -f $@ && ar rcs $@ $^

$(BUILD)/san/libreport.a: $(patsubst %.c,$(BUILD)/san/%.o,$(REPORT_SRC))
	$(QUIET_AR)rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(TOOLS)
INSTALL_BINS += $(TOOLS)

# A static pattern rule: its objects are real targets, never intermediate
# files that make would delete or skip.
$(TOOLS): $(BINDIR)/prof-%: $(TOOL_OBJ)/src/prof-%.o $(TOOL_COMMON) \
		$(LIBREPORT_TOOL) $(LIBPROF_TOOL)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS) $(TOOL_LIBS_$*)
