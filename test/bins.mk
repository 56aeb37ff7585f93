# The binaries only the tests run, under $(BUILD)/test/ (test/workloads/,
# test/fault/, test/server/): make test-build builds them, the CLI tests
# find them through PROF_TEST_BINDIR. Included before mk/test.mk, which
# builds TEST_BINS.

# Test-only workload binaries, each one object linked with the harness:
# succeed, crash, hang, fail, allocate (basic); two workloads of one id
# (dup); a workload id that is no workload id, refused at start-up (badid);
# a fake GPU backend for the session logic, the real one checked on a GPU
# machine by test/gpu/check.sh (fake_gpu); killed by SIGKILL mid-call, out
# of memory under a limit (faults); and the pair of the interleaved A/B
# tests (prof-time and prof-count --against): the same workloads, test.ab
# doing 30% more work in prof-ab-b (ab, ab_slow).
TEST_WORKLOADS := $(BUILD)/test/prof-test-workloads
TEST_DUP_WORKLOADS := $(BUILD)/test/prof-dup-workloads
TEST_BADID_WORKLOADS := $(BUILD)/test/prof-badid-workloads
TEST_FAKE_GPU_WORKLOADS := $(BUILD)/test/prof-fake-gpu-workloads
TEST_FAULT_WORKLOADS := $(BUILD)/test/prof-fault-workloads
TEST_AB_A := $(BUILD)/test/prof-ab-a
TEST_AB_B := $(BUILD)/test/prof-ab-b
TEST_HARNESS_BINS := $(TEST_WORKLOADS) $(TEST_DUP_WORKLOADS) \
	$(TEST_BADID_WORKLOADS) $(TEST_FAKE_GPU_WORKLOADS) \
	$(TEST_FAULT_WORKLOADS) $(TEST_AB_A) $(TEST_AB_B)
TEST_BINS += $(TEST_HARNESS_BINS)

$(TEST_WORKLOADS): $(BUILD)/test/workloads/basic.o
$(TEST_DUP_WORKLOADS): $(BUILD)/test/workloads/dup.o
$(TEST_BADID_WORKLOADS): $(BUILD)/test/workloads/badid.o
$(TEST_FAKE_GPU_WORKLOADS): $(BUILD)/test/workloads/fake_gpu.o
$(TEST_FAULT_WORKLOADS): $(BUILD)/test/workloads/faults.o
$(TEST_AB_A): $(BUILD)/test/workloads/ab.o
$(TEST_AB_B): $(BUILD)/test/workloads/ab_slow.o
$(TEST_HARNESS_BINS): $(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(HARNESS_LIBS)

# The fault tests' helper (test/cli/t30NN): libprof-test-pause.so stops a
# tool at the fsync of an output so that a test can interrupt it mid-write.
FAULT_PAUSE := $(BUILD)/test/libprof-test-pause.so
TEST_BINS += $(FAULT_PAUSE)

$(BUILD)/test/fault/%.o: test/fault/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(PRELOAD_CFLAGS) -c -o $@ $<

$(FAULT_PAUSE): $(BUILD)/test/fault/pause.o
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) -shared -o $@ $< -ldl

# libprof-test-pause-open.so stops a tool each time it opens a file of a
# given name, so that a test holds a writer inside its transaction (t6414).
FAULT_PAUSE_OPEN := $(BUILD)/test/libprof-test-pause-open.so
TEST_BINS += $(FAULT_PAUSE_OPEN)

$(FAULT_PAUSE_OPEN): $(BUILD)/test/fault/pause-open.o
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) -shared -o $@ $< -ldl

# The server's (test/server/): pk-http (requests from the command line,
# for the shell tests), pk-http-fuzz (seeded junk at a server),
# pk-server-test (TAP, the library in process), pk-trickle, pk-linger and
# pk-crowd (slow clients, a body still coming when refused, many slow
# clients).
SERVER_TEST_NAMES := pk-http pk-http-fuzz pk-server-test pk-trickle \
	pk-linger pk-crowd
SERVER_TEST_BINS := $(addprefix $(BUILD)/test/,$(SERVER_TEST_NAMES))
TEST_BINS += $(SERVER_TEST_BINS)

EXTRA_CFLAGS_test/server = -Iworkloads -Itest/unit $(XML_CFLAGS)

$(SERVER_TEST_BINS): $(BUILD)/test/%: $(BUILD)/test/server/%.o $(LIBSERVER) \
		$(LIBENGINE)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(SERVER_LIBS) \
		$(ENGINE_LIBS)
