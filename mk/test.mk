# Tests: C unit tests (test/unit/*.c -> *.t, TAP) and shell CLI tests
# (test/cli/tNNNN-*.sh, TAP), all run by prove. `make check` runs the same
# suite with the tools built under ASan and UBSan.

UNIT_SRC := $(wildcard test/unit/*.c)
UNIT_TESTS := $(patsubst %.c,$(BUILD)/%.t,$(UNIT_SRC))
CLI_TESTS := $(sort $(wildcard test/cli/t*.sh))
PROVE ?= prove
PROVE_FLAGS ?=
T ?=
# The tests run TEST_JOBS at a time (prove -j), by default twice the
# cores: most of a test's time is spent waiting (on a child, a server, a
# browser, a lock), and beside other load more jobs get more of the CPU.
# TEST_JOBS=1 runs them one by one. Every test keeps to its own $$T
# (test/README says what a test may share with the others).
TEST_JOBS ?= $(shell echo $$((2 * $$(nproc 2>/dev/null || echo 1))))
test_digits_out = $(subst 0,,$(subst 1,,$(subst 2,,$(subst 3,,$(subst 4,,$(subst \
	5,,$(subst 6,,$(subst 7,,$(subst 8,,$(subst 9,,$(1)))))))))))
ifneq ($(filter test check,$(MAKECMDGOALS)),)
ifneq ($(words $(TEST_JOBS))$(call test_digits_out,$(TEST_JOBS))$(filter 0%,$(TEST_JOBS)),1)
$(error TEST_JOBS: '$(TEST_JOBS)': expected a whole number of jobs, 1 or more)
endif
endif
# The slowest tests start first, longest first, so that the jobs end
# together instead of waiting on one long test started last (times from
# prove --timer on a busy 2-core machine; a test not named here starts
# after them, in name order).
SLOW_TESTS := \
	test/cli/t6352-gbench-workloads.sh \
	test/cli/t5004-browser-stories.sh \
	test/cli/t1401-prof-count-quick.sh \
	test/cli/t6307-diagnose-why.sh \
	test/cli/t7006-compare-memory-why.sh \
	test/cli/t6354-gbench-counts.sh \
	test/cli/t6308-bisect-time.sh \
	test/cli/t3103-fuzz-targets.sh \
	test/cli/t3243-report-html-rows.sh \
	test/cli/t6305-bisect.sh \
	test/cli/t6338-bisect-direction.sh \
	test/cli/t6339-hints-run-as-printed.sh \
	test/cli/t7002-compare-memory-copy.sh \
	test/cli/t3102-server-slow-clients.sh \
	test/cli/t6206-prof-count-against.sh \
	test/cli/t1501-prof-time-against.sh \
	test/cli/t6104-runs-branch.sh \
	test/cli/t6004-report-html.sh \
	test/cli/t6321-count-call-index.sh \
	test/cli/t7024-report-html-memory.sh \
	test/cli/t2005-make-profile.sh \
	test/cli/t3244-server-local-clients.sh
# The tests that judge timings by real runs (A/B verdicts, bisect on the
# time channel) run last, one at a time and alone, after all the others:
# beside three other jobs their samples were too contended to settle.
# prove runs a test that no --rules=par= names after those it names, in
# sequence.
SERIAL_TESTS := \
	test/cli/t1513-run-delay.sh \
	test/cli/t6352-gbench-workloads.sh \
	test/cli/t6308-bisect-time.sh \
	test/cli/t1501-prof-time-against.sh \
	test/cli/t1505-improved.sh
ALL_TESTS = $(UNIT_TESTS) $(CLI_TESTS)
TESTS_IN_ORDER = $(filter $(ALL_TESTS),$(SLOW_TESTS)) \
	$(filter-out $(SLOW_TESTS),$(ALL_TESTS))
TEST_RULES = $(if $(T),,$(foreach t,$(filter-out $(SERIAL_TESTS), \
	$(TESTS_IN_ORDER)),--rules=par=$(t)))

TEST_ENV = PROF_BINDIR=$(BINDIR) PROF_BUILD=$(BUILD) \
	PROF_TEST_BINDIR=$(BUILD)/test PROF_ROOT=$(CURDIR)

# libprof tests link the library; engine tests add libplotkit; cli tests
# the cli layer and report tests src/report's objects (unsanitized objects,
# like the tests). Static pattern
# rules, so that the objects are targets, not intermediate files.
ENGINE_TESTS := $(filter $(BUILD)/test/unit/engine-%,$(UNIT_TESTS))
CLI_UNIT_TESTS := $(filter $(BUILD)/test/unit/cli-%,$(UNIT_TESTS))
REPORT_UNIT_TESTS := $(filter $(BUILD)/test/unit/report-%,$(UNIT_TESTS))
LIB_TESTS := $(filter-out $(ENGINE_TESTS) $(CLI_UNIT_TESTS) \
	$(REPORT_UNIT_TESTS),$(UNIT_TESTS))

$(LIB_TESTS): $(BUILD)/test/unit/%.t: $(BUILD)/test/unit/%.o $(LIBPROF)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(ENGINE_TESTS): $(BUILD)/test/unit/%.t: $(BUILD)/test/unit/%.o $(LIBENGINE) $(LIBPROF)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(ENGINE_LIBS) $(LIB_LIBS)

$(CLI_UNIT_TESTS): $(BUILD)/test/unit/%.t: $(BUILD)/test/unit/%.o $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC)) $(LIBPROF)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(REPORT_UNIT_TESTS): $(BUILD)/test/unit/%.t: $(BUILD)/test/unit/%.o $(BUILD)/libreport.a $(LIBPROF)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS) $(SQLITE_LIBS)

EXTRA_CFLAGS_test/unit = -iquote src -Itest/unit -Iworkloads $(XML_CFLAGS)

.PHONY: test check test-build
test-build: all $(UNIT_TESTS) $(TEST_BINS) ## build the tests without running them

test: test-build ## run every test through prove (T=test/cli/t0001-x.sh runs one)
	$(Q)$(TEST_ENV) $(PROVE) --exec '' -j$(TEST_JOBS) $(TEST_RULES) \
		$(PROVE_FLAGS) $(if $(T),$(T),$(TESTS_IN_ORDER))

check: ## the tests again, with the tools built under ASan and UBSan
	$(Q)$(MAKE) --no-print-directory SANITIZER=address BUILD=build/check \
		BINDIR=build/check/bin test
