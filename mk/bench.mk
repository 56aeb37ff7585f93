# Benchmarks of the suite's own cost (make bench-command); each prints
# ratios against a reference measured in the same run.

SPAWN_FLOOR := $(BUILD)/bench/spawn-floor

$(SPAWN_FLOOR): bench/spawn-floor.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(PROF_CFLAGS) $(CFLAGS) -o $@ $<

.PHONY: bench-command
bench-command: $(BINDIR)/prof-time $(SPAWN_FLOOR) ## prof-time's cost on a command sample against hyperfine -N and a bare spawn (ROUNDS=5)
	$(Q)bench/command-overhead.sh $(BINDIR) $(SPAWN_FLOOR) $(or $(ROUNDS),5)
