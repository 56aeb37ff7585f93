# The A/B test pair of the interleaved A/B tests (prof-time and prof-count
# --against): the same workloads, test.ab doing 30% more work in prof-ab-b.

TEST_AB_A := $(BUILD)/test/prof-ab-a
TEST_AB_B := $(BUILD)/test/prof-ab-b
TEST_BINS += $(TEST_AB_A) $(TEST_AB_B)

$(TEST_AB_A): $(BUILD)/test/workloads/ab.o $(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_LIBS)

$(TEST_AB_B): $(BUILD)/test/workloads/ab_slow.o $(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_LIBS)
