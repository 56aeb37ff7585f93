# The reference engine (workloads/engine/): libplotkit.a, its CLI bin/plotkit
# and its unit tests (test/unit/engine-*.c).

ENGINE_SRC := $(wildcard workloads/engine/*.c)
LIBENGINE := $(BUILD)/libplotkit.a
ENGINE_LIBS := $(LIBENGINE) $(XML_LIBS) -lm

EXTRA_CFLAGS_workloads/engine = $(XML_CFLAGS)

$(LIBENGINE): $(patsubst %.c,$(BUILD)/%.o,$(ENGINE_SRC))
	$(QUIET_AR)rm -f $@ && ar rcs $@ $^
