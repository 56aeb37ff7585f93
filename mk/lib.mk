# libprof: the model, JSON I/O, environment, statistics, checksums, files.
# It never prints and never exits; the tools do (test/cli/t0102 checks the
# archive with nm).

# Its sources are those of its folders, one level down, which are its
# layers (base/, model/, verdict/, history/, why/ and the pages' kit/;
# each folder's README says what it holds, t0105 checks their order and
# that no file lies outside them); an object mirrors its source's path
# under $(BUILD).
LIB_SRC := $(wildcard src/lib/*/*.c)
LIBPROF := $(BUILD)/libprof.a
LIBPROF_TOOL := $(TOOL_OBJ)/libprof.a
LIB_LIBS := $(JSONC_LIBS) -lm

$(BUILD)/libprof.a: $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC))
	$(QUIET_AR)rm -f $@ && ar rcs $@ $^

$(BUILD)/san/libprof.a: $(patsubst %.c,$(BUILD)/san/%.o,$(LIB_SRC))
	$(QUIET_AR)rm -f $@ && ar rcs $@ $^
