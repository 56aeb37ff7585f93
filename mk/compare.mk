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
