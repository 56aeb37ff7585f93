# The project's own workload binary ($(BINDIR)/prof-workloads, what
# prof-time runs by default); the test-only ones are test/bins.mk's.
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
