# The reference engine (workloads/engine/): libplotkit.a, its CLI bin/plotkit
# and its unit tests (test/unit/engine-*.c).

ENGINE_SRC := $(wildcard workloads/engine/*.c)
LIBENGINE := $(BUILD)/libplotkit.a
ENGINE_LIBS := $(LIBENGINE) $(XML_LIBS) -lm

# No fused multiply-add contraction: nearest-site distances must round the
# same way in the CUDA kernel that reproduces them (see nearest.h).
EXTRA_CFLAGS_workloads/engine = $(XML_CFLAGS) -ffp-contract=off

$(LIBENGINE): $(patsubst %.c,$(BUILD)/%.o,$(ENGINE_SRC))
	$(QUIET_AR)rm -f $@ && ar rcs $@ $^

# bin/plotkit: main.c dispatches to one file per subcommand.
PLOTKIT_SRC := $(wildcard workloads/plotkit/*.c)
PLOTKIT := $(BINDIR)/plotkit

EXTRA_CFLAGS_workloads/plotkit = -Iworkloads $(XML_CFLAGS)

ALL_TARGETS += $(PLOTKIT)
INSTALL_BINS += $(PLOTKIT)

$(PLOTKIT): $(patsubst %.c,$(BUILD)/%.o,$(PLOTKIT_SRC)) $(LIBENGINE)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ \
		$(patsubst %.c,$(BUILD)/%.o,$(PLOTKIT_SRC)) $(SERVER_LIBS) \
		$(ENGINE_LIBS)
