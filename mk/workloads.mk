# The workload binaries: the project's own ($(BINDIR)/prof-workloads, what
# prof-time runs by default) and the test-only ones under $(BUILD)/test/.
#
# Registration files use constructors, so their objects are linked directly,
# never through an archive that would drop them.

SUITE_SRC := $(wildcard workloads/suite/*.c)
SUITE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(SUITE_SRC))
WORKLOADS_BIN := $(BINDIR)/prof-workloads

EXTRA_CFLAGS_workloads/suite = $(XML_CFLAGS) -Iworkloads \
	$(if $(filter 1,$(HAVE_CUDA)),-DPROF_HAVE_CUDA)

ALL_TARGETS += $(WORKLOADS_BIN)
# Installed as PREFIX/libexec/prof/prof-workloads (mk/install.mk): an
# installed prof-time runs a project's workloads, never these by default.

$(WORKLOADS_BIN): $(SUITE_OBJ) $(CUDA_OBJ) $(LIBSERVER) $(LIBENGINE) \
		$(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(SUITE_OBJ) $(CUDA_OBJ) \
		$(SERVER_LIBS) $(LIBENGINE) $(HARNESS_LIBS) $(XML_LIBS) \
		$(MHD_LIBS) $(CUDA_LIBS) -lm

# Test-only workload binaries: succeed, crash, hang, fail, allocate.
TEST_WORKLOADS := $(BUILD)/test/prof-test-workloads
TEST_DUP_WORKLOADS := $(BUILD)/test/prof-dup-workloads
TEST_BINS += $(TEST_WORKLOADS) $(TEST_DUP_WORKLOADS)

$(TEST_WORKLOADS): $(BUILD)/test/workloads/basic.o $(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_LIBS)

$(TEST_DUP_WORKLOADS): $(BUILD)/test/workloads/dup.o $(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_LIBS)

# A workload id that is no workload id: refused at start-up.
TEST_BADID_WORKLOADS := $(BUILD)/test/prof-badid-workloads
TEST_BINS += $(TEST_BADID_WORKLOADS)

$(TEST_BADID_WORKLOADS): $(BUILD)/test/workloads/badid.o $(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_LIBS)

# A fake GPU backend for the session logic; the real one is checked on a
# GPU machine (test/gpu/check.sh).
TEST_FAKE_GPU_WORKLOADS := $(BUILD)/test/prof-fake-gpu-workloads
TEST_BINS += $(TEST_FAKE_GPU_WORKLOADS)

$(TEST_FAKE_GPU_WORKLOADS): $(BUILD)/test/workloads/fake_gpu.o $(LIBHARNESS) $(LIBPROF)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(HARNESS_LIBS)
