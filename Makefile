# prof: a deterministic performance profiling suite. `make help` lists it all.
#
# Non-recursive: each concern is one fragment under mk/, included in order
# (the test-only binaries' rules are test/bins.mk), then the fragment that
# make install ships for other projects, fragment/prof.mk, as they include it.
# Objects go under build/, tools under bin/; `make V=1` shows the commands.

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:
SHELL := /bin/bash

-include config.mak
include mk/deps.mk
include mk/config.mk
include mk/lib.mk
include mk/harness.mk
include mk/tools.mk
include mk/history.mk
include mk/install.mk
include mk/man.mk
include mk/preload.mk
include mk/engine.mk
include mk/server.mk
include mk/cuda.mk
include mk/workloads.mk
include test/bins.mk
include mk/test.mk
include mk/bench.mk
include mk/fuzz.mk
include mk/bench-tools.mk
include mk/self.mk
include fragment/prof.mk

.PHONY: all clean distclean install
all: $(ALL_TARGETS) ## build the tools and the workloads (make test-build: the tests too)

clean: compare-clean ## remove build/ and bin/, and compare's worktrees (artifacts/ and node_modules/ stay; only what make made: mk/clean.sh)
	$(Q)sh mk/clean.sh $(call prof_sq,$(BUILD)) $(call prof_sq,$(PROF_COMPARE_DIR))
	$(Q)rm -rf bin

distclean: clean ## also remove node_modules/ and every run under artifacts/
	$(Q)rm -rf node_modules
	$(Q)find artifacts -mindepth 1 ! -name .gitignore -exec rm -rf {} +

install: all ## install the tools, workload binaries, preload libraries, harness, headers, prof-harness.pc, the make fragment prof.mk and the man pages under PREFIX (DESTDIR= to stage)
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin
	$(Q)install -m 755 $(INSTALL_BINS) $(DESTDIR)$(PREFIX)/bin/

-include $(ALL_DEPFILES)
