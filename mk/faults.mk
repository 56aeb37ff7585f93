# Test-only workloads that die the way real ones do (test/workloads/
# faults.c): killed by SIGKILL mid-call, out of memory under a limit.

TEST_FAULT_WORKLOADS := $(BUILD)/test/prof-fault-workloads
TEST_BINS += $(TEST_FAULT_WORKLOADS)
test-build: $(TEST_FAULT_WORKLOADS)

$(TEST_FAULT_WORKLOADS): $(BUILD)/test/workloads/faults.o $(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_LIBS)
