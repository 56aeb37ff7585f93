# make help: targets (from their ## comments), tools, workloads, variables.

HELP_VARS := CC CFLAGS LDFLAGS PREFIX BUILD BINDIR V SANITIZER HAVE_CUDA CUDA WORKLOADS \
	BACKEND REPEAT CATEGORY EXCLUDE_CATEGORY OUTPUT BASELINE PLAYWRIGHT \
	W FROM NAME DIR ADD TIMEOUT SEED STORIES CHROMIUM HISTORY REF MODE SHARD \
	SHARDS BENCH_SAMPLES BENCH_ROWS BENCH_DASHBOARD REPO_URL COUNTS T \
	PROVE_FLAGS FUZZ_CC \
	FUZZ_SECONDS FUZZ_BUILD

.PHONY: help
help: ## this list
	@echo "prof: a deterministic performance profiling suite"
	@echo
	@echo "targets:"
	@grep -h -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([a-zA-Z_-]+):.*## (.*)/  \1|\2/' | sort | \
		awk -F'|' '{ printf "  %-18s %s\n", $$1, $$2 }' | sed 's/^    /  /'
	@echo
	@echo "tools (in $(BINDIR)/):"
	@for t in $(notdir $(TOOLS) $(PLOTKIT)); do echo "  $$t"; done
	@echo
	@echo "workloads ($(WORKLOADS_BIN)):"
	@if [ -x $(BINDIR)/prof-time ] && [ -x $(WORKLOADS_BIN) ]; then \
		$(BINDIR)/prof-time --list --workloads $(WORKLOADS_BIN) | sed 's/^/  /'; \
	else echo "  (run make first to list them)"; fi
	@echo "  browser.boot, browser.large_viewport (workloads/browser/stories.mjs; profile-full)"
	@echo
	@echo "variables (current values):"
	@$(foreach v,$(HELP_VARS),printf '  %-18s = %s\n' '$(v)' '$($(v))';)
	@echo
	@echo "which number to trust (COUNTS=1 adds instruction counts to a run;"
	@echo "diagnose always has them):"
	@echo "  time          what a user waits for, but a busy machine moves it:"
	@echo "                a time warning alone may be the machine, not the code"
	@echo "  instructions  callgrind's count of the same work; the machine cannot"
	@echo "                move it: a count warning is work the code added, and a"
	@echo "                stable count beside a time warning points at the machine"
	@echo "  both warn     believe it"
	@echo "  time only     a busy machine, or code slower without more work"
	@echo "                (cache misses, locks, I/O): run it again to tell"
