# make help: targets (from their ## comments), tools, workloads, variables.

HELP_VARS := CC CFLAGS LDFLAGS PREFIX BUILD BINDIR V SANITIZER HAVE_CUDA CUDA WORKLOADS \
	BACKEND REPEAT CATEGORY EXCLUDE_CATEGORY OUTPUT BASELINE PLAYWRIGHT \
	W FROM NAME DIR ADD TIMEOUT SEED STORIES CHROMIUM HISTORY REF MODE SHARD \
	SHARDS BENCH_SAMPLES BENCH_ROWS T PROVE_FLAGS FUZZ_CC FUZZ_SECONDS \
	FUZZ_BUILD

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
