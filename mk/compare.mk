# Interleaved A/B: make compare REF=<git revision> builds REF in a git
# worktree under $(BUILD)/compare/<commit> (kept, so a second compare does
# not rebuild it), then times the current and the reference build
# alternately in one run (mk/compare.sh). Also the A/B test pair.

REF ?=
MODE ?= quick

# The A/B test pair: the same workloads, test.ab doing 30% more work in
# prof-ab-b.
TEST_AB_A := $(BUILD)/test/prof-ab-a
TEST_AB_B := $(BUILD)/test/prof-ab-b
TEST_BINS += $(TEST_AB_A) $(TEST_AB_B)

$(TEST_AB_A): $(BUILD)/test/workloads/ab.o $(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_LIBS)

$(TEST_AB_B): $(BUILD)/test/workloads/ab_slow.o $(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_LIBS)

COMPARE_VARS := REF MODE BACKEND REPEAT CATEGORY EXCLUDE_CATEGORY OUTPUT \
	WORKLOADS TIMEOUT SEED
COMPARE_COMMAND = $(strip make compare \
	$(foreach v,$(COMPARE_VARS),$(call prof_cmdvar,$(v))))

.PHONY: compare
compare: all $(filter-out /%,$(WORKLOADS)) ## interleaved A/B against a git revision: REF=rev [MODE=full]
	$(Q)PROF_BINDIR=$(call prof_sq,$(BINDIR)) PROF_BUILD=$(call prof_sq,$(BUILD)) \
		PROF_REF=$(call prof_sq,$(REF)) PROF_MODE=$(call prof_sq,$(MODE)) \
		PROF_WORKLOADS=$(call prof_sq,$(WORKLOADS)) \
		PROF_BACKEND=$(call prof_sq,$(BACKEND)) \
		PROF_REPEAT=$(call prof_sq,$(REPEAT)) \
		PROF_CATEGORY=$(call prof_sq,$(CATEGORY)) \
		PROF_EXCLUDE_CATEGORY=$(call prof_sq,$(EXCLUDE_CATEGORY)) \
		PROF_TIMEOUT=$(call prof_sq,$(TIMEOUT)) \
		PROF_SEED=$(call prof_sq,$(SEED)) \
		PROF_OUTPUT=$(call prof_sq,$(OUTPUT)) \
		PROF_COMMAND=$(call prof_sq,$(COMPARE_COMMAND)) \
		sh mk/compare.sh
