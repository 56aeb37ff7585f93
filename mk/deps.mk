# Make sure the Debian packages prof needs are here before anything is built.
#
# Goals that build or test check first. As root, what is missing is installed
# through `make deps`; otherwise make stops with the exact install line. The
# check costs a few pkg-config calls, and runs once per make invocation.
# The browser's packages (chromium, node) are the tests' and the stories':
# a run that plays the stories checks them before its first phase
# (need_deps in run-lib.sh), so that a run that leaves the browser out
# works on a machine without one.

DEPS_FREE_GOALS := deps help clean distclean deps-packages compare-clean
DEPS_TEST_GOALS := test check
DEPS_FUZZ_GOALS := fuzz fuzz-build
DEPS_GOALS := $(if $(MAKECMDGOALS),$(MAKECMDGOALS),all)

ifneq ($(filter-out $(DEPS_FREE_GOALS),$(DEPS_GOALS)),)
DEPS_SET := $(if $(filter $(DEPS_TEST_GOALS),$(DEPS_GOALS)),test,$(if \
	$(filter $(DEPS_FUZZ_GOALS),$(DEPS_GOALS)),fuzz,build))
DEPS_MISSING := $(shell sh mk/deps.sh missing $(DEPS_SET))
ifneq ($(DEPS_MISSING),)
ifeq ($(shell id -u),0)
$(info prof: missing packages: $(DEPS_MISSING); running 'make deps')
DEPS_RC := $(shell $(MAKE) --no-print-directory deps >&2; echo $$?)
DEPS_MISSING := $(shell sh mk/deps.sh missing $(DEPS_SET))
ifneq ($(DEPS_MISSING),)
$(error 'make deps' did not install: $(DEPS_MISSING))
endif
else
$(info prof: these packages are missing; install them with:)
$(info sudo apt-get install -y $(DEPS_MISSING))
$(error missing packages)
endif
else ifeq ($(DEPS_SET),test)
# System packages are here; keep node_modules in step with the lock file.
DEPS_RC := $(shell sh mk/deps.sh node >&2; echo $$?)
ifneq ($(DEPS_RC),0)
$(error 'npm ci' failed; run 'make deps' to see why)
endif
endif
endif

.PHONY: deps deps-packages deps-check
deps-check: ## check that the build's packages are here (as root, install what is missing; make test and make fuzz check their own)
	@echo "prof: every package it needs is here"

deps: ## install the Debian packages and npm modules prof needs (as root)
	$(Q)sh mk/deps.sh install all

deps-packages: ## print the Debian packages prof needs
	$(Q)sh mk/deps.sh packages all
