# make fuzz: libFuzzer targets (test/fuzz/<target>.c), built with clang under
# ASan and UBSan, each run for FUZZ_SECONDS over its seed corpus
# (test/fuzz/corpus/<target>/ and the test data it reads: test/fuzz/run.sh).
# New inputs go to $(FUZZ_BUILD)/corpus/, crashes to $(FUZZ_BUILD)/crashes/;
# the committed corpus is never written.
#
# Everything the targets read is compiled again here, with coverage: libprof
# (src/lib, the HTML page of a run included), the engine
# (workloads/engine) and the server (workloads/server).
# The objects live under $(FUZZ_BUILD), apart from the gcc build.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 10
FUZZ_BUILD ?= build/fuzz

FUZZ_TARGETS := $(patsubst test/fuzz/%.c,%,$(wildcard test/fuzz/*.c))
FUZZ_BINS := $(addprefix $(FUZZ_BUILD)/bin/,$(FUZZ_TARGETS))

FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_CFLAGS := -g -O1 -std=c11 -D_GNU_SOURCE -Wall -Wno-unused-parameter \
	-MMD -MP -iquote src/lib -iquote src -Isrc/harness -Iworkloads \
	-Itest/fuzz \
	$(PKG_CFLAGS) $(XML_CFLAGS) $(FUZZ_SAN)

# With prof-report's page (src/report/runpage.c) and its loader (load.c,
# which says its errors through src/cli), which the results target writes
# for every document that checks.
FUZZ_LIB_OBJ := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(LIB_SRC) $(REPORT_SRC) \
	$(CLI_SRC))
FUZZ_ENGINE_OBJ := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(ENGINE_SRC))
FUZZ_SERVER_OBJ := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(SERVER_SRC)) \
	$(FUZZ_BUILD)/obj/gen/server/assets.o
# Archives, so that a target links only what it uses (not SQLite, say).
FUZZ_LIBS := $(FUZZ_BUILD)/libpkserver.a $(FUZZ_BUILD)/libplotkit.a \
	$(FUZZ_BUILD)/libprof.a
FUZZ_LDLIBS := $(MHD_LIBS) -lpthread $(XML_LIBS) $(JSONC_LIBS) \
	$(SQLITE_LIBS) -lm

# Their own flags stamp: a change of FUZZ_CC or the flags rebuilds them,
# and make check (another BUILD) does not.
FUZZ_STAMP := $(FUZZ_BUILD)/FLAGS
FUZZ_FLAGS_NOW := $(FUZZ_CC) $(FUZZ_CFLAGS)
$(shell mkdir -p $(FUZZ_BUILD) && { echo '$(subst ','\'',$(FUZZ_FLAGS_NOW))' | cmp -s - $(FUZZ_STAMP) || echo '$(subst ','\'',$(FUZZ_FLAGS_NOW))' > $(FUZZ_STAMP); })

# Library code gets coverage (fuzzer-no-link); the targets link libFuzzer.
$(FUZZ_BUILD)/obj/%.o: %.c $(FUZZ_STAMP)
	@mkdir -p $(@D)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		-ffp-contract=off -c -o $@ $<

$(FUZZ_BUILD)/libpkserver.a: $(FUZZ_SERVER_OBJ)
$(FUZZ_BUILD)/libplotkit.a: $(FUZZ_ENGINE_OBJ)
$(FUZZ_BUILD)/libprof.a: $(FUZZ_LIB_OBJ)
$(FUZZ_LIBS):
	$(QUIET_AR)rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/obj/gen/server/assets.o: $(SERVER_GEN) $(FUZZ_STAMP)
	@mkdir -p $(@D)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

# make test runs them briefly (t3103): they are built with the tests.
test-build: $(FUZZ_BINS)
TEST_ENV += PROF_FUZZ_BUILD=$(FUZZ_BUILD)

$(FUZZ_BINS): $(FUZZ_BUILD)/bin/%: $(FUZZ_BUILD)/obj/test/fuzz/%.o $(FUZZ_LIBS)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_LIBS) $(FUZZ_LDLIBS)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS) ## build the libFuzzer targets (clang) under build/fuzz/bin

fuzz: fuzz-build ## run each fuzz target for FUZZ_SECONDS (10) over its corpus
	$(Q)FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) \
		sh test/fuzz/run.sh $(FUZZ_TARGETS)
