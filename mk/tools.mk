# The tools: src/prof-<verb>.c builds $(BINDIR)/prof-<verb>, one pattern rule.

TOOL_SRC := $(wildcard src/prof-*.c)
TOOLS := $(patsubst src/%.c,$(BINDIR)/%,$(TOOL_SRC))
# Under the tools, two layers: src/runner/ (the engine of prof-time, -mem,
# -trace and -count) and below it src/cli/ (messages, checked numbers, the
# exit path), both over libprof (t1504, t1525).
CLI_SRC := $(wildcard src/cli/*.c)
RUNNER_SRC := $(wildcard src/runner/*.c)
TOOL_COMMON := $(patsubst %.c,$(TOOL_OBJ)/%.o,$(CLI_SRC) $(RUNNER_SRC))
EXTRA_CFLAGS_src/runner = -Isrc

ALL_TARGETS += $(TOOLS)
INSTALL_BINS += $(TOOLS)

# A static pattern rule: its objects are real targets, never intermediate
# files that make would delete or skip.
$(TOOLS): $(BINDIR)/prof-%: $(TOOL_OBJ)/src/prof-%.o $(TOOL_COMMON) $(LIBPROF_TOOL)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS) $(TOOL_LIBS_$*)
