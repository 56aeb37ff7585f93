# Tests: C unit tests (test/unit/*.c -> *.t, TAP) and shell CLI tests
# (test/cli/tNNNN-*.sh, TAP), all run by prove. `make check` runs the same
# suite with the tools built under ASan and UBSan.

UNIT_SRC := $(wildcard test/unit/*.c)
UNIT_TESTS := $(patsubst %.c,$(BUILD)/%.t,$(UNIT_SRC))
CLI_TESTS := $(sort $(wildcard test/cli/t*.sh))
PROVE ?= prove
PROVE_FLAGS ?=
T ?=

TEST_ENV = PROF_BINDIR=$(BINDIR) PROF_BUILD=$(BUILD) \
	PROF_TEST_BINDIR=$(BUILD)/test PROF_ROOT=$(CURDIR)

# libprof tests link the library; engine tests add libplotkit; cli tests
# the cli layer (unsanitized objects, like the tests). Static pattern
# rules, so that the objects are targets, not intermediate files.
ENGINE_TESTS := $(filter $(BUILD)/test/unit/engine-%,$(UNIT_TESTS))
CLI_UNIT_TESTS := $(filter $(BUILD)/test/unit/cli-%,$(UNIT_TESTS))
LIB_TESTS := $(filter-out $(ENGINE_TESTS) $(CLI_UNIT_TESTS),$(UNIT_TESTS))

$(LIB_TESTS): $(BUILD)/test/unit/%.t: $(BUILD)/test/unit/%.o $(LIBPROF)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(ENGINE_TESTS): $(BUILD)/test/unit/%.t: $(BUILD)/test/unit/%.o $(LIBENGINE) $(LIBPROF)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(ENGINE_LIBS) $(LIB_LIBS)

$(CLI_UNIT_TESTS): $(BUILD)/test/unit/%.t: $(BUILD)/test/unit/%.o $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC)) $(LIBPROF)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

EXTRA_CFLAGS_test/unit = -iquote src -Itest/unit -Iworkloads $(XML_CFLAGS)

.PHONY: test check test-build
test-build: all $(UNIT_TESTS) $(TEST_BINS) ## build the tests without running them

test: test-build ## run every test through prove (T=test/cli/t0001-x.sh runs one)
	$(Q)$(TEST_ENV) $(PROVE) --exec '' $(PROVE_FLAGS) $(if $(T),$(T),$(UNIT_TESTS) $(CLI_TESTS))

check: ## the tests again, with the tools built under ASan and UBSan
	$(Q)$(MAKE) --no-print-directory SANITIZER=address BUILD=build/check \
		BINDIR=build/check/bin test
