# The fault tests' helpers (test/cli/t30NN): libprof-test-pause.so stops a
# tool at the fsync of an output so that a test can interrupt it mid-write.

FAULT_PAUSE := $(BUILD)/test/libprof-test-pause.so
TEST_BINS += $(FAULT_PAUSE)

$(BUILD)/test/fault/%.o: test/fault/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(PRELOAD_CFLAGS) -c -o $@ $<

$(FAULT_PAUSE): $(BUILD)/test/fault/pause.o
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) -shared -o $@ $< -ldl
