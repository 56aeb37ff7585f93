# Toolchain, flags and the libraries found with pkg-config.
#
# Override any of these on the command line or in config.mak, e.g.
#   make CC=clang CFLAGS='-O3 -march=native'

# Every variable a user sets (on the command line, in the environment or in
# config.mak) is refused at parse time if it holds a control character, so
# that no recipe line is ever built from it: a newline would split a recipe
# into two commands. The raw text is checked ($(value), never expanded).
# PROF_USER_VARS names every variable of the tree that a user may set (each
# `?=` of Makefile, mk/*.mk and fragment/prof.mk; test/cli/t3261 holds
# the list to that);
# any variable given on the command line is checked too.
PROF_USER_VARS := ADD FORCE BACKEND BASELINE BENCH_ROWS BENCH_SAMPLES BINDIR BUILD \
	CATEGORY CC CFLAGS CHROMIUM COUNTS MEMORY CUDA DESTDIR DIR EXCLUDE_CATEGORY \
	FROM FUZZ_BUILD FUZZ_CC FUZZ_SECONDS HAVE_CUDA HISTORY INCLUDEDIR \
	LDFLAGS LIBDIR MODE NAME NVCC NVCCFLAGS NVCC_ARCH OUTPUT PLAYWRIGHT \
	PREFIX PROVE PROVE_FLAGS TEST_JOBS REF REPEAT SANITIZER SEED SHARD SHARDS STORIES \
	T TIMEOUT V W WORKLOADS AGAINST PROF_BUILD WHY GOOD BAD CHANNEL \
	THRESHOLD BENCH_HTML_ROWS BENCH_DASHBOARD REPO_URL PROF_PROJECT ENGINE \
	SLURM_ARGS NOWAIT TIME_THRESHOLD
prof_empty :=
prof_space := $(prof_empty) $(prof_empty)
# The control characters that are not make's whitespace (those, a tab, a
# newline, \v, \f and \r, split a value into words: see prof_ctl_in).
prof_ctl_chars := $(shell printf '\001 \002 \003 \004 \005 \006 \007 \010 \016 \
	\017 \020 \021 \022 \023 \024 \025 \026 \027 \030 \031 \032 \033 \034 \
	\035 \036 \037 \177')
# prof_ctl_in VAR: non-empty when VAR's raw text holds a control character.
prof_ctl_in = $(strip $(filter-out 1,$(words x$(subst $(prof_space),x,$(value \
	$(1)))x)) $(foreach c,$(prof_ctl_chars),$(findstring $(c),$(value $(1)))))
prof_ctl_vars := $(strip $(foreach v,$(sort $(PROF_USER_VARS) $(foreach \
	v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v)))),$(if \
	$(call prof_ctl_in,$(v)),$(v))))
ifneq ($(prof_ctl_vars),)
$(error $(firstword $(prof_ctl_vars)): holds a control character (a \
newline, a tab or another byte below 0x20, or 0x7f); nothing was run)
endif
# A '$' that make would expand is refused too, in every variable above
# that the command line or the environment gives, before any value is
# expanded: make compare REF='$(shell ...)' ran it. '$$' is make's escape
# for a '$' and passes; makefiles' own values (config.mak) are make code;
# PROF_BUILD is a command that make expands by design ($(MAKE)).
prof_dollar_in = $(findstring $$,$(subst $$$$,,$(value $(1))))
prof_dollar_vars := $(strip $(foreach v,$(filter-out PROF_BUILD,$(sort \
	$(PROF_USER_VARS) $(foreach v,$(.VARIABLES),$(if $(filter command \
	line,$(origin $(v))),$(v))))),$(if $(filter command line \
	environment,$(origin $(v))),$(if $(call prof_dollar_in,$(v)),$(v)))))
ifneq ($(prof_dollar_vars),)
$(error $(firstword $(prof_dollar_vars)): holds a '$$' that make would \
expand (write '$$$$' for a '$$'); nothing was run)
endif

CC      ?= cc
CFLAGS  ?= -O2 -g
LDFLAGS ?=
PREFIX  ?= /usr/local
V       ?= 0
CUDA    ?= /usr/local/cuda
NVCC    ?= $(CUDA)/bin/nvcc
SANITIZER ?=
BUILD   ?= build

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Flags every C object gets; CFLAGS stays the user's to set.
PROF_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-unused-parameter \
	-Wstrict-prototypes -Wmissing-prototypes -fno-strict-aliasing -MMD -MP \
	-iquote src/lib -Isrc/harness

ifeq ($(SANITIZER),)
SAN_FLAGS :=
else ifeq ($(SANITIZER),address)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else ifeq ($(SANITIZER),undefined)
SAN_FLAGS := -fsanitize=undefined -fno-sanitize-recover=undefined
else
$(error SANITIZER='$(SANITIZER)' is not one of: address, undefined)
endif

# pkg-config is asked once, after mk/deps.mk has made sure the packages exist.
PKGS := json-c libcrypto libxml-2.0 libmicrohttpd libpq
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
JSONC_LIBS := $(shell pkg-config --libs json-c libcrypto 2>/dev/null)
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null)
XML_LIBS   := $(shell pkg-config --libs libxml-2.0 2>/dev/null)
MHD_LIBS   := $(shell pkg-config --libs libmicrohttpd 2>/dev/null)

# CUDA builds only where nvcc exists; HAVE_CUDA=0 turns it off.
HAVE_CUDA ?= $(if $(wildcard $(NVCC)),1,0)

# The switches take 1 (on), 0 or nothing (off), and nothing else: a
# COUNTS=yes that silently meant no counts is an error, as STORIES=2 is.
PROF_BOOL_VARS := V HAVE_CUDA COUNTS MEMORY STORIES ADD WHY NOWAIT
prof_bool_bad := $(firstword $(foreach v,$(PROF_BOOL_VARS),$(if $(filter \
	undefined default automatic,$(origin $(v))),,$(if $(filter-out \
	x0 x1 x,x$($(v))),$(v)))))
ifneq ($(prof_bool_bad),)
$(error $(prof_bool_bad): '$($(prof_bool_bad))': expected 0 or 1)
endif
# fragment/prof.mk, the fragment, checks its own variables in a project; here
# every variable was checked above.
PROF_VARS_CHECKED := 1

# The flags a build was made with, recorded in every sample's environment.
# A change of flags rebuilds everything (git's GIT-CFLAGS trick).
BUILD_FLAGS_TEXT := $(strip $(CFLAGS) $(SAN_FLAGS))

BINDIR ?= bin

# Tools (never the workloads) are sanitized when SANITIZER is set; their
# objects live apart so that one tree never mixes the two.
TOOL_OBJ := $(if $(SANITIZER),$(BUILD)/san,$(BUILD))

# A change of compiler or flags rebuilds everything (git's GIT-CFLAGS trick).
# A BUILD that make makes is marked so (.prof-build): make clean removes
# only such a one (mk/clean.sh), never a folder that was there before.
FLAGS_STAMP := $(BUILD)/FLAGS
FLAGS_NOW := $(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) $(HAVE_CUDA)
$(shell { [ -d $(BUILD) ] || { mkdir -p $(BUILD) && echo 'made by make (prof): make clean removes it' > $(BUILD)/.prof-build; }; } && { echo '$(subst ','\'',$(FLAGS_NOW))' | cmp -s - $(FLAGS_STAMP) || echo '$(subst ','\'',$(FLAGS_NOW))' > $(FLAGS_STAMP); })

ifeq ($(V),1)
QUIET_CC :=
QUIET_LINK :=
QUIET_AR :=
QUIET_NVCC :=
QUIET_GEN :=
else
QUIET_CC = @echo '  CC      $@';
QUIET_LINK = @echo '  LINK    $@';
QUIET_AR = @echo '  AR      $@';
QUIET_NVCC = @echo '  NVCC    $@';
QUIET_GEN = @echo '  GEN     $@';
endif

# Every object's generated dependency file, for the top-level -include
# (not those of make compare's reference builds under $(BUILD)/compare).
ALL_DEPFILES = $(shell find $(BUILD) -path $(BUILD)/compare -prune -o \
	-name '*.d' -print 2>/dev/null)

# One rule compiles every C file of the tree; the sanitized twin is for tools.
$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(PROF_CFLAGS) $(PKG_CFLAGS) $(EXTRA_CFLAGS_$(<D)) $(CFLAGS) -c -o $@ $<

$(BUILD)/san/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(PROF_CFLAGS) $(PKG_CFLAGS) $(EXTRA_CFLAGS_$(<D)) $(CFLAGS) $(SAN_FLAGS) -c -o $@ $<
