# Toolchain, flags and the libraries found with pkg-config.
#
# Override any of these on the command line or in config.mak, e.g.
#   make CC=clang CFLAGS='-O3 -march=native'

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
PKGS := json-c libcrypto libxml-2.0 libmicrohttpd
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
JSONC_LIBS := $(shell pkg-config --libs json-c libcrypto 2>/dev/null)
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null)
XML_LIBS   := $(shell pkg-config --libs libxml-2.0 2>/dev/null)
MHD_LIBS   := $(shell pkg-config --libs libmicrohttpd 2>/dev/null)

# CUDA builds only where nvcc exists; HAVE_CUDA=0 turns it off.
HAVE_CUDA ?= $(if $(wildcard $(NVCC)),1,0)

# The flags a build was made with, recorded in every sample's environment.
# A change of flags rebuilds everything (git's GIT-CFLAGS trick).
BUILD_FLAGS_TEXT := $(strip $(CFLAGS) $(SAN_FLAGS))

BINDIR ?= bin

# Tools (never the workloads) are sanitized when SANITIZER is set; their
# objects live apart so that one tree never mixes the two.
TOOL_OBJ := $(if $(SANITIZER),$(BUILD)/san,$(BUILD))

# A change of compiler or flags rebuilds everything (git's GIT-CFLAGS trick).
FLAGS_STAMP := $(BUILD)/FLAGS
FLAGS_NOW := $(CC) $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS) $(HAVE_CUDA)
$(shell mkdir -p $(BUILD) && { echo '$(subst ','\'',$(FLAGS_NOW))' | cmp -s - $(FLAGS_STAMP) || echo '$(subst ','\'',$(FLAGS_NOW))' > $(FLAGS_STAMP); })

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
