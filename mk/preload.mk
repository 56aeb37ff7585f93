# The LD_PRELOAD libraries of the memory, diagnostic and instruction phases,
# built beside the tools that load them: libprof-alloc.so (allocation
# interposer), libprof-cpuprofile.so (gperftools for commands that are not
# ours), libprof-fixedtime.so (a fixed time() for prof-count's workers) and
# libprof-gbloop.so (a Google Benchmark loop's allocations, beside
# libprof-alloc.so).
# Never sanitized: they sit under whatever they measure.

PRELOADS := $(BINDIR)/libprof-alloc.so $(BINDIR)/libprof-cpuprofile.so \
	$(BINDIR)/libprof-fixedtime.so $(BINDIR)/libprof-gbloop.so
ALL_TARGETS += $(PRELOADS)
# Installed under PREFIX/lib/prof/ (mk/install.mk), where the tools look
# when they are not beside them.

PRELOAD_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -fPIC -Wall -Wextra \
	-fvisibility=hidden -MMD -MP

$(BUILD)/preload/%.o: src/preload/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(PRELOAD_CFLAGS) -c -o $@ $<

$(BINDIR)/libprof-alloc.so: $(BUILD)/preload/alloc.o
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) -shared -o $@ $< -ldl

$(BINDIR)/libprof-cpuprofile.so: $(BUILD)/preload/cpuprofile.o
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) -shared -o $@ $< -ldl

$(BINDIR)/libprof-fixedtime.so: $(BUILD)/preload/fixedtime.o
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) -shared -o $@ $<

$(BINDIR)/libprof-gbloop.so: $(BUILD)/preload/gbloop.o
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) -shared -o $@ $< -ldl
