# prof's own use of fragment/prof.mk, the fragment every project includes:
# its tools are the ones just built, its run scripts are fragment/*.sh, its
# workloads bin/prof-workloads (WORKLOADS empty), and a run builds
# everything first.

PROF_TOOLDIR = $(BINDIR)
PROF_LIBEXEC = fragment
PROF_DEPS = all
PROF_TOOL_DEPS = $(TOOLS)
PROF_COMPARE_DIR = $(BUILD)/compare
# REF's worktree builds its own bin/ and build/, whatever this one uses.
PROF_REF_MAKEFLAGS = BINDIR=bin BUILD=build
PROF_STORIES_SCRIPT = workloads/browser/stories.mjs

PROF_HELP_TITLE = prof: a deterministic performance profiling suite
PROF_HELP_TOOLS = $(notdir $(TOOLS) $(PLOTKIT))
PROF_HELP_WORKLOADS = $(or $(WORKLOADS),$(WORKLOADS_BIN))
PROF_HELP_EXTRA = echo "  browser.boot, browser.large_viewport (workloads/browser/stories.mjs; profile-full)"
HELP_VARS := CC CFLAGS LDFLAGS PREFIX DESTDIR BUILD BINDIR V SANITIZER HAVE_CUDA \
	CUDA BENCH_SAMPLES BENCH_ROWS BENCH_HTML_ROWS BENCH_DASHBOARD REPO_URL T PROVE_FLAGS TEST_JOBS \
	FUZZ_CC FUZZ_SECONDS \
	FUZZ_BUILD
# The test harness exports PROF_BUILD (the build folder); here it is no
# command for REF (make compare PROF_BUILD=... still sets one).
PROF_BUILD :=
