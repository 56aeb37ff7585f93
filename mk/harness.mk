# The harness: what a workload binary links (registry, worker, timing loop,
# the CPU session). It holds main(); a workload binary is its workload objects
# plus libprofharness.a plus libprof.a.

HARNESS_SRC := $(wildcard src/harness/*.c)
LIBHARNESS := $(BUILD)/libprofharness.a
HARNESS_LIBS := $(LIBHARNESS) $(LIBPROF) $(LIB_LIBS) -ldl -lpthread

# The flags a workload binary was built with, recorded in its samples.
EXTRA_CFLAGS_src/harness = -DPROF_BUILD_CFLAGS='"$(subst ",,$(subst ',,$(BUILD_FLAGS_TEXT)))"'

$(LIBHARNESS): $(patsubst %.c,$(BUILD)/%.o,$(HARNESS_SRC))
	$(QUIET_AR)rm -f $@ && ar rcs $@ $^
