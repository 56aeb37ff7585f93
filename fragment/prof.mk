# prof.mk: prof's make targets for any project: profile-quick,
# profile-full, diagnose W=, baseline-update, compare, bisect,
# compare-clean, merge-shards, dashboard and help (man prof.mk). A project sets WORKLOADS to its workload binaries
# (built against `pkg-config --cflags --libs prof-harness`) and includes the
# installed copy:
#
#   WORKLOADS = bin/my-workloads
#   include $(shell pkg-config --variable=makefile prof-harness)
#
# prof's own Makefile includes this very file; it sets the PROF_* hooks
# below first (its tools in bin/, its scripts in fragment/). Installed, the
# tools are in PREFIX/bin and the run scripts in PREFIX/libexec/prof, found from
# where this file lies (PREFIX/share/prof/prof.mk).
#
# A run (profile.sh) writes artifacts/profiling/<run>/ (or OUTPUT): the
# samples, results.json, comparisons.json, summary.md and report.html,
# prints the summary's path and ends with the run's code: 0 clean, 1 a
# sample errored, 2 an argument or infrastructure failure. make reports any
# failing recipe as its own status 2, so the script prints the run's code
# first.

PROF_MK := $(lastword $(MAKEFILE_LIST))
# The project's config.mak (untracked: this machine's settings, such as
# BASELINE = baselines/local.json) holds for every target, as prof's own
# Makefile reads it; read here unless the project's Makefile has already.
ifeq ($(filter config.mak,$(MAKEFILE_LIST)),)
-include config.mak
endif
# The project's first target stays its default goal, wherever it includes
# this file (restored at the end).
PROF_DEFAULT_GOAL := $(.DEFAULT_GOAL)

# Where prof is: the prefix this file is installed under, its tools and its
# run scripts. A project may set any of them before the include.
PROF_PREFIX ?= $(abspath $(dir $(PROF_MK))/../..)
PROF_TOOLDIR ?= $(PROF_PREFIX)/bin
PROF_LIBEXEC ?= $(PROF_PREFIX)/libexec/prof
# What a run needs built first: the workload binaries given as relative
# paths are the project's own targets; PROF_DEPS adds more (prof: all).
PROF_DEPS ?=
PROF_TOOL_DEPS ?=
# make compare REF=: where the reference builds are kept (one git worktree
# per commit), and how one is built there: PROF_BUILD, a shell command run
# in the worktree, or else `$(MAKE) $(PROF_REF_MAKEFLAGS) WORKLOADS...`.
PROF_COMPARE_DIR ?= build/compare
PROF_BUILD ?=
PROF_REF_MAKEFLAGS ?=
# The files and folders (in the project's folder) of the workloads'
# sources and their build rule: a build of another commit (compare REF=,
# bisect) takes the current ones where the commit lacks one of them, or
# with CURRENT_WORKLOADS=1. Empty: the project's folder when it is a
# subfolder of its repository (prof/ in a library's tree), else none.
PROF_WORKLOAD_SOURCES ?=
# compare and bisect say how much space the kept worktrees hold once it is
# more than this many MB (empty: never); make compare-clean removes them.
PROF_COMPARE_NOTE_MB ?= 100
# The browser stories of profile-full (prof's own; none in a project).
PROF_STORIES_SCRIPT ?=
# make help: its first line, the tools it lists, the workload binaries it
# asks for their workloads, the project's own variables (HELP_VARS) and a
# shell command that prints more lines about the workloads.
PROF_HELP_TITLE ?= prof targets (man prof.mk)
PROF_HELP_TOOLS ?= $(notdir $(wildcard $(PROF_TOOLDIR)/prof-*))
PROF_HELP_WORKLOADS ?= $(WORKLOADS)
PROF_HELP_EXTRA ?=
HELP_VARS ?=

ifeq ($(V),1)
PROF_Q :=
else
PROF_Q := @
endif

# A project's make checks what prof's own does in mk/config.mk, which
# checks every variable of the tree first and sets PROF_VARS_CHECKED: a
# variable given on the command line, or one of this file's, that holds a
# control character is refused at parse time, so that no recipe line is
# ever built from it; the switches take 1, 0 or nothing.
ifndef PROF_VARS_CHECKED
PROF_FRAGMENT_VARS := ADD FORCE AGAINST BACKEND BASELINE CATEGORY CHROMIUM COUNTS \
	MEMORY DIR EXCLUDE_CATEGORY FROM HISTORY MODE NAME OUTPUT PLAYWRIGHT PROF_PROJECT \
	PROF_BUILD REF REPEAT SEED SHARD SHARDS STORIES TIMEOUT V W WORKLOADS \
	WHY GOOD BAD CHANNEL THRESHOLD CURRENT_WORKLOADS PROF_WORKLOAD_SOURCES \
	ENGINE SLURM_ARGS NOWAIT TIME_THRESHOLD REPO_URL
prof_f_empty :=
prof_f_space := $(prof_f_empty) $(prof_f_empty)
prof_f_ctl_chars := $(shell printf '\001 \002 \003 \004 \005 \006 \007 \010 \
	\016 \017 \020 \021 \022 \023 \024 \025 \026 \027 \030 \031 \032 \
	\033 \034 \035 \036 \037 \177')
# Whitespace other than a space splits the raw text into more words than
# its spaces do; the other control characters are looked for one by one.
prof_f_ctl_in = $(strip $(filter-out 1,$(words x$(subst \
	$(prof_f_space),x,$(value $(1)))x)) $(foreach \
	c,$(prof_f_ctl_chars),$(findstring $(c),$(value $(1)))))
prof_f_ctl_vars := $(strip $(foreach v,$(sort $(PROF_FRAGMENT_VARS) \
	$(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin \
	$(v))),$(v)))),$(if $(call prof_f_ctl_in,$(v)),$(v))))
ifneq ($(prof_f_ctl_vars),)
$(error $(firstword $(prof_f_ctl_vars)): holds a control character (a \
newline, a tab or another byte below 0x20, or 0x7f); nothing was run)
endif
# A '$' that make would expand, from the command line or the environment
# ('$$' passes; the project's own makefile values are make code;
# PROF_BUILD is a command that make expands by design).
prof_f_dollar_vars := $(strip $(foreach v,$(filter-out PROF_BUILD,$(sort \
	$(PROF_FRAGMENT_VARS) $(foreach v,$(.VARIABLES),$(if $(filter command \
	line,$(origin $(v))),$(v))))),$(if $(filter command line \
	environment,$(origin $(v))),$(if $(findstring $$,$(subst \
	$$$$,,$(value $(v)))),$(v)))))
ifneq ($(prof_f_dollar_vars),)
$(error $(firstword $(prof_f_dollar_vars)): holds a '$$' that make would \
expand (write '$$$$' for a '$$'); nothing was run)
endif
prof_f_bool_bad := $(firstword $(foreach v,V COUNTS MEMORY STORIES ADD FORCE WHY \
	CURRENT_WORKLOADS NOWAIT,$(if \
	$(filter undefined default automatic,$(origin $(v))),,$(if \
	$(filter-out x0 x1 x,x$($(v))),$(v)))))
ifneq ($(prof_f_bool_bad),)
$(error $(prof_f_bool_bad): '$($(prof_f_bool_bad))': expected 0 or 1)
endif
endif

# No variable is silently ignored: when compare or bisect is make's only
# goal, a variable of the other targets given on the command line (with a
# value other than nothing or 0) is refused at parse time, as make bisect
# REF=... or make compare BASELINE=... would run without it.
PROF_COMPARE_UNUSED := BASELINE PLAYWRIGHT STORIES CHROMIUM \
	HISTORY PROF_PROJECT GOOD BAD CHANNEL THRESHOLD FROM NAME DIR ADD FORCE
PROF_BISECT_UNUSED := REF AGAINST MODE WHY COUNTS MEMORY BACKEND CATEGORY \
	EXCLUDE_CATEGORY SEED BASELINE PLAYWRIGHT STORIES CHROMIUM SHARD SHARDS \
	HISTORY PROF_PROJECT FROM NAME DIR ADD FORCE
prof_unused = $(firstword $(foreach v,$(1),$(if $(filter command \
	line,$(origin $(v))),$(if $(filter-out x x0,x$($(v))),$(v)))))
prof_unused_goal := $(filter compare bisect,$(MAKECMDGOALS))
ifeq ($(words $(MAKECMDGOALS)) $(words $(prof_unused_goal)),1 1)
prof_unused_var := $(call prof_unused,$(if $(filter compare,$(prof_unused_goal)),$(PROF_COMPARE_UNUSED),$(PROF_BISECT_UNUSED)))
ifneq ($(prof_unused_var),)
$(error $(prof_unused_var): make $(prof_unused_goal) does not use it (man \
prof.mk); nothing was run)
endif
endif

# ENGINE=slurm SHARDS=N [SLURM_ARGS=...] [NOWAIT=1]: profile-quick,
# profile-full and compare as a Slurm job array (slurm.sh). Given on the command line
# where no goal uses them, each is refused at parse time; so are SHARDS,
# SLURM_ARGS and NOWAIT on a profile target without ENGINE=slurm (SHARD=I/N
# is one shard run here), ENGINE=slurm without SHARDS or with SHARD, and
# an ENGINE (from anywhere) that is neither local nor slurm.
prof_goals := $(or $(MAKECMDGOALS),$(PROF_DEFAULT_GOAL),profile-quick)
prof_profile_goals := $(filter profile-quick profile-full compare,$(prof_goals))
prof_given = $(if $(filter command line,$(origin $(1))),$(if $(filter-out \
	x x0 xlocal,x$($(1))),$(1)))
prof_engine_unused := $(firstword $(if $(prof_profile_goals),,$(call \
	prof_given,ENGINE) $(call prof_given,SLURM_ARGS) $(call \
	prof_given,NOWAIT) $(if $(filter merge-shards,$(prof_goals)),,$(call \
	prof_given,SHARDS))))
ifneq ($(prof_engine_unused),)
$(error $(prof_engine_unused): make $(prof_goals) does not use it (man \
prof.mk); nothing was run)
endif
ifneq ($(prof_profile_goals),)
ifneq ($(filter-out x xlocal xslurm,x$(ENGINE)),)
$(error ENGINE: '$(ENGINE)': expected local or slurm; nothing was run)
endif
ifneq ($(ENGINE),slurm)
prof_engine_only := $(firstword $(call prof_given,SLURM_ARGS) $(call \
	prof_given,NOWAIT) $(if $(filter merge-shards,$(prof_goals)),,$(call \
	prof_given,SHARDS)))
ifneq ($(prof_engine_only),)
$(error $(prof_engine_only): only with ENGINE=slurm (SHARDS=N shards as a \
Slurm job array; SHARD=I/N runs one shard here); nothing was run)
endif
else
ifeq ($(strip $(SHARDS)),)
$(error ENGINE=slurm: give SHARDS=N, the number of shards (the tasks of \
its job array); nothing was run)
endif
ifneq ($(strip $(SHARD)),)
$(error SHARD: ENGINE=slurm runs every shard of SHARDS=N, SHARD=I/N one \
shard here: give one or the other; nothing was run)
endif
endif
endif

BACKEND ?=
REPEAT ?=
CATEGORY ?=
EXCLUDE_CATEGORY ?=
OUTPUT ?=
BASELINE ?= baselines/cpu-ci.json
PLAYWRIGHT ?=
# W=ID: diagnose's and bisect's one workload; profile-quick, profile-full
# and compare: only the workloads whose id matches one of its shell
# patterns (W="BM_UFlat* BM_ZFlat/8" selects by id what CATEGORY selects
# by category; prof-time --only).
W ?=
# baseline-update over a baseline that is there: ADD=1 adds the run's rows
# (workload x segment) to it, keeping the others (prof-baseline --add);
# FORCE=1 replaces it whole, and promotes a run on an unsteady machine
# (--force). Neither: refused, exit 2.
ADD ?=
FORCE ?=
# profile-quick|profile-full|compare SHARD=I/N: this machine's shard of
# the run.
SHARD ?=
FROM ?=
NAME ?=
DIR ?= baselines
TIMEOUT ?=
SEED ?=
# The workload binaries (prof: empty, its own bin/prof-workloads).
WORKLOADS ?=
# The browser stories: STORIES=1 plays them in profile-quick too, STORIES=0
# leaves them out of profile-full; CHROMIUM= another browser binary.
STORIES ?=
CHROMIUM ?=
# The run history every run is added to (prof-history); HISTORY= for none.
# A PostgreSQL history holds many projects: the runs go to PROF_PROJECT's
# (empty: prof-history's default, the git repository's name).
HISTORY ?= artifacts/history.sqlite
PROF_PROJECT ?=
# COUNTS=1: the instruction-count phase (prof-count under callgrind) in
# profile-quick and profile-full; diagnose always has it.
COUNTS ?=
# MEMORY=1: the memory phase (prof-mem: heap peak, allocations, bytes
# allocated and RSS peak of one call) in profile-quick, profile-full and
# on both sides of compare; diagnose always has it.
MEMORY ?=
# make compare: REF=<git revision> or AGAINST="reference binaries".
REF ?=
AGAINST ?=
MODE ?= quick
# make compare WHY=1: which functions made the changed rows change (with
# MEMORY=1, which allocation sites made the memory rows change).
WHY ?=
# make compare REF= and bisect: CURRENT_WORKLOADS=1 builds the commit with
# the current workload sources (PROF_WORKLOAD_SOURCES) even where it has
# its own.
CURRENT_WORKLOADS ?=
# make bisect GOOD=rev BAD=rev W=id [CHANNEL=instructions|time|memory]
# [THRESHOLD=%].
GOOD ?=
BAD ?=
CHANNEL ?=
THRESHOLD ?=
# make merge-shards: the number of shards (default: as they say);
# profile-quick|profile-full|compare ENGINE=slurm SHARDS=N: the number of shards,
# run as the N tasks of one Slurm job array (sbatch --array), with their
# merge as a job after them (--dependency=afterok); SLURM_ARGS: sbatch
# options of every job (the merge's without its GPU requests); NOWAIT=1:
# submit, print the jobs and how to wait for them (make merge-shards
# DIR=the run folder).
SHARDS ?=
ENGINE ?=
SLURM_ARGS ?=
NOWAIT ?=
# Every target that judges time (profile-quick, profile-full, diagnose,
# compare, bisect CHANNEL=time): the change in % either way beyond which a
# time row is a warning or improved (default: each workload's own, else
# 20 against a baseline and 5 interleaved).
TIME_THRESHOLD ?=

# A value quoted for the shell.
prof_sq = '$(subst ','\'',$(1))'

# The variables a run takes, and the command line that results.json records
# (the variables given on make's command line, quoted when they hold
# spaces).
PROFILE_VARS := BACKEND REPEAT CATEGORY EXCLUDE_CATEGORY OUTPUT BASELINE \
	PLAYWRIGHT WORKLOADS TIMEOUT SEED STORIES CHROMIUM SHARD HISTORY COUNTS \
	MEMORY ENGINE SHARDS SLURM_ARGS NOWAIT TIME_THRESHOLD
prof_cmdvar = $(if $(filter command line,$(origin $(1))),$(1)=$(if \
	$(word 2,$($(1))),"$($(1))",$($(1))))
PROFILE_COMMAND = $(strip make $@ $(if $(filter diagnose,$@),W=$(W)) \
	$(foreach v,$(PROFILE_VARS) $(if $(filter diagnose,$@),,W),$(call \
	prof_cmdvar,$(v))))

# The settings every run script reads.
PROF_RUN_ENV = PROF_BINDIR=$(call prof_sq,$(PROF_TOOLDIR)) \
	PROF_WORKLOADS=$(call prof_sq,$(WORKLOADS)) \
	PROF_BACKEND=$(call prof_sq,$(BACKEND)) \
	PROF_REPEAT=$(call prof_sq,$(REPEAT)) \
	PROF_CATEGORY=$(call prof_sq,$(CATEGORY)) \
	PROF_EXCLUDE_CATEGORY=$(call prof_sq,$(EXCLUDE_CATEGORY)) \
	PROF_W=$(call prof_sq,$(W)) \
	PROF_TIMEOUT=$(call prof_sq,$(TIMEOUT)) \
	PROF_SEED=$(call prof_sq,$(SEED)) \
	PROF_OUTPUT=$(call prof_sq,$(OUTPUT)) \
	PROF_BASELINE=$(call prof_sq,$(BASELINE)) \
	PROF_HISTORY=$(call prof_sq,$(HISTORY)) \
	PROF_PROJECT=$(call prof_sq,$(PROF_PROJECT)) \
	PROF_TIME_THRESHOLD=$(call prof_sq,$(TIME_THRESHOLD))

PROFILE_ENV = $(PROF_RUN_ENV) \
	PROF_PLAYWRIGHT=$(call prof_sq,$(PLAYWRIGHT)) \
	PROF_STORIES=$(call prof_sq,$(STORIES)) \
	PROF_STORIES_SCRIPT=$(call prof_sq,$(PROF_STORIES_SCRIPT)) \
	PROF_CHROMIUM=$(call prof_sq,$(CHROMIUM)) \
	PROF_SHARD=$(call prof_sq,$(SHARD)) \
	PROF_COUNTS=$(call prof_sq,$(COUNTS)) \
	PROF_MEMORY=$(call prof_sq,$(MEMORY)) \
	PROF_COMPARE_DIR=$(call prof_sq,$(PROF_COMPARE_DIR)) \
	PROF_ENGINE=$(call prof_sq,$(ENGINE)) \
	PROF_SLURM_ARGS=$(call prof_sq,$(SLURM_ARGS)) \
	PROF_NOWAIT=$(call prof_sq,$(NOWAIT)) \
	$(if $(SHARDS),PROF_SHARDS=$(call prof_sq,$(SHARDS))) \
	PROF_COMMAND=$(call prof_sq,$(PROFILE_COMMAND))

# The workload binaries that this project builds (relative paths).
PROF_OWN_WORKLOADS = $(filter-out /%,$(WORKLOADS))

.PHONY: profile-quick profile-full diagnose baseline-update compare \
	bisect compare-clean merge-shards dashboard help
profile-quick: $(PROF_DEPS) $(PROF_OWN_WORKLOADS) ## quick CPU profile of the quick-tagged workloads (the main job)
	$(PROF_Q)$(PROFILE_ENV) sh $(PROF_LIBEXEC)/profile.sh quick

profile-full: $(PROF_DEPS) $(PROF_OWN_WORKLOADS) ## every workload on every available backend, and the browser stories
	$(PROF_Q)$(PROFILE_ENV) sh $(PROF_LIBEXEC)/profile.sh full

diagnose: $(PROF_DEPS) $(PROF_OWN_WORKLOADS) ## timing, memory, CPU-profile and instruction-count phases of one workload: W=ID
	$(PROF_Q)$(PROFILE_ENV) sh $(PROF_LIBEXEC)/profile.sh diagnose \
		$(call prof_sq,$(W))

baseline-update: $(PROF_TOOL_DEPS) ## promote a results file: FROM=results.json NAME=cpu-ci [DIR=baselines] [ADD=1: add its rows | FORCE=1: replace]
	$(PROF_Q)test -n $(call prof_sq,$(FROM)) -a -n $(call prof_sq,$(NAME)) || { \
		echo "make baseline-update: give FROM=results.json and" \
			"NAME=name" >&2; \
		echo "make baseline-update: exit code 2 (bad arguments)" >&2; \
		exit 2; }
	$(PROF_Q)label="make baseline-update"; \
	. $(PROF_LIBEXEC)/run-lib.sh; \
	not_in_run DIR $(call prof_sq,$(DIR)) \
		"a baseline is never written into a run" || { \
		echo "make baseline-update: exit code 2 (bad arguments;" \
			"nothing was written)" >&2; \
		exit 2; }
	$(PROF_Q)$(PROF_TOOLDIR)/prof-baseline --from $(call prof_sq,$(FROM)) \
		--name $(call prof_sq,$(NAME)) \
		--output $(call prof_sq,$(DIR)) $(if $(filter 1,$(ADD)),--add) \
		$(if $(filter 1,$(FORCE)),--force) \
		|| { rc=$$?; \
		case $$rc in \
		1) why="the run is unfit to be a baseline" ;; \
		*) why="bad arguments or input" ;; \
		esac; \
		echo "make baseline-update: exit code $$rc ($$why; nothing" \
			"was written)" >&2; \
		exit $$rc; }

# Interleaved A/B (compare.sh): REF=<git revision> builds REF in a git
# worktree under $(PROF_COMPARE_DIR)/<commit> (kept, so a second compare
# does not rebuild it); AGAINST="BIN..." takes reference binaries at hand,
# one for each of WORKLOADS, no git. The current and the reference
# binaries then run alternately in one prof-time run. SHARD=I/N (or the
# engine's variables) interleaves one shard's workloads, both sides of
# each; ENGINE=slurm SHARDS=N runs every shard as a Slurm job array; make
# merge-shards joins the shards into one A/B run.
COMPARE_VARS := REF AGAINST MODE BACKEND REPEAT CATEGORY EXCLUDE_CATEGORY \
	W OUTPUT WORKLOADS TIMEOUT SEED WHY COUNTS MEMORY CURRENT_WORKLOADS \
	TIME_THRESHOLD SHARD ENGINE SHARDS SLURM_ARGS NOWAIT
COMPARE_COMMAND = $(strip make compare \
	$(foreach v,$(COMPARE_VARS),$(call prof_cmdvar,$(v))))

compare: $(PROF_DEPS) $(PROF_OWN_WORKLOADS) ## interleaved A/B: REF=git-revision or AGAINST="reference binaries" [MODE=full] [W=patterns] [WHY=1] [COUNTS=1] [MEMORY=1] [SHARD=I/N | ENGINE=slurm SHARDS=N]
	$(PROF_Q)$(PROF_RUN_ENV) \
		PROF_COMPARE_DIR=$(call prof_sq,$(PROF_COMPARE_DIR)) \
		PROF_REF=$(call prof_sq,$(REF)) \
		PROF_AGAINST=$(call prof_sq,$(AGAINST)) \
		PROF_MODE=$(call prof_sq,$(MODE)) \
		PROF_BUILD=$(call prof_sq,$(PROF_BUILD)) \
		PROF_MAKE=$(call prof_sq,$(MAKE)) \
		PROF_REF_MAKEFLAGS=$(call prof_sq,$(PROF_REF_MAKEFLAGS)) \
		PROF_WHY=$(call prof_sq,$(WHY)) \
		PROF_COUNTS=$(call prof_sq,$(COUNTS)) \
		PROF_MEMORY=$(call prof_sq,$(MEMORY)) \
		PROF_WORKLOAD_SOURCES=$(call prof_sq,$(PROF_WORKLOAD_SOURCES)) \
		PROF_CURRENT_WORKLOADS=$(call prof_sq,$(CURRENT_WORKLOADS)) \
		PROF_COMPARE_NOTE_MB=$(call prof_sq,$(PROF_COMPARE_NOTE_MB)) \
		PROF_SHARD=$(call prof_sq,$(SHARD)) \
		PROF_ENGINE=$(call prof_sq,$(ENGINE)) \
		PROF_SLURM_ARGS=$(call prof_sq,$(SLURM_ARGS)) \
		PROF_NOWAIT=$(call prof_sq,$(NOWAIT)) \
		$(if $(SHARDS),PROF_SHARDS=$(call prof_sq,$(SHARDS))) \
		PROF_COMMAND=$(call prof_sq,$(COMPARE_COMMAND)) \
		sh $(PROF_LIBEXEC)/compare.sh

# make bisect GOOD=rev BAD=rev W=id (bisect.sh): the first commit between
# GOOD and BAD where workload W changed, by instruction counts (one count
# run per commit), CHANNEL=time (interleaved with GOOD) or CHANNEL=memory
# (one memory run per commit, judged on the exact metrics); each commit built
# once in $(PROF_COMPARE_DIR)/<commit>, as compare does.
BISECT_VARS := GOOD BAD W CHANNEL THRESHOLD REPEAT OUTPUT WORKLOADS TIMEOUT \
	CURRENT_WORKLOADS
BISECT_COMMAND = $(strip make bisect \
	$(foreach v,$(BISECT_VARS),$(call prof_cmdvar,$(v))))

bisect: $(PROF_TOOL_DEPS) ## the first commit where W changed: GOOD=rev BAD=rev W=id [CHANNEL=time|memory]
	$(PROF_Q)$(PROF_RUN_ENV) \
		PROF_COMPARE_DIR=$(call prof_sq,$(PROF_COMPARE_DIR)) \
		PROF_BUILD=$(call prof_sq,$(PROF_BUILD)) \
		PROF_MAKE=$(call prof_sq,$(MAKE)) \
		PROF_REF_MAKEFLAGS=$(call prof_sq,$(PROF_REF_MAKEFLAGS)) \
		PROF_GOOD=$(call prof_sq,$(GOOD)) PROF_BAD=$(call prof_sq,$(BAD)) \
		PROF_W=$(call prof_sq,$(W)) \
		PROF_CHANNEL=$(call prof_sq,$(CHANNEL)) \
		PROF_THRESHOLD=$(call prof_sq,$(THRESHOLD)) \
		PROF_WORKLOAD_SOURCES=$(call prof_sq,$(PROF_WORKLOAD_SOURCES)) \
		PROF_CURRENT_WORKLOADS=$(call prof_sq,$(CURRENT_WORKLOADS)) \
		PROF_COMPARE_NOTE_MB=$(call prof_sq,$(PROF_COMPARE_NOTE_MB)) \
		PROF_COMMAND=$(call prof_sq,$(BISECT_COMMAND)) \
		sh $(PROF_LIBEXEC)/bisect.sh

# make compare-clean (compare-clean.sh): the worktrees that compare REF=
# and bisect keep under $(PROF_COMPARE_DIR) removed, with their logs, and
# pruned from the project's git. A project's clean may depend on it.
compare-clean: ## remove the worktrees compare REF= and bisect keep (PROF_COMPARE_DIR) and prune them from git
	$(PROF_Q)PROF_COMPARE_DIR=$(call prof_sq,$(PROF_COMPARE_DIR)) \
		sh $(PROF_LIBEXEC)/compare-clean.sh

# make merge-shards DIR=... [OUTPUT=...] [SHARDS=N]: the results of a run's
# shards (make profile-quick|profile-full SHARD=I/N on several machines)
# merged, compared and reported like a single run (merge-shards.sh).
merge-shards: $(PROF_TOOL_DEPS) ## merge a run's shards: DIR=folder of their results [OUTPUT=dir] [SHARDS=N]
	$(PROF_Q)$(if $(filter command line environment,$(origin DIR)),,echo \
		"make merge-shards: give DIR=the folder of the shards' results" \
		>&2; exit 2;) \
	PROF_BINDIR=$(call prof_sq,$(PROF_TOOLDIR)) \
	PROF_OUTPUT=$(call prof_sq,$(OUTPUT)) \
	PROF_BASELINE=$(call prof_sq,$(BASELINE)) \
	PROF_SHARDS=$(call prof_sq,$(SHARDS)) \
	PROF_HISTORY=$(call prof_sq,$(HISTORY)) \
	PROF_PROJECT=$(call prof_sq,$(PROF_PROJECT)) \
	PROF_COMMAND=$(call prof_sq,make merge-shards DIR=$(DIR)$(if \
		$(OUTPUT), OUTPUT=$(OUTPUT))) \
	sh $(PROF_LIBEXEC)/merge-shards.sh $(call prof_sq,$(DIR))

# make dashboard [HISTORY=FILE|URL] [PROF_PROJECT=] [OUTPUT=DIR]
# [REPO_URL=URL]: the history as static pages (prof-dashboard: index.html
# and a page per series), by default artifacts/dashboard/. The
# repository's URL, for links to commits, comes from the git remote
# 'origin' when it is an http(s) one (any user name or token in it left
# out).
DASHBOARD_OUTPUT = $(or $(OUTPUT),artifacts/dashboard)
REPO_URL ?= $(shell git config --get remote.origin.url 2>/dev/null | \
	sed -e 's|^git@\([^:/]*\):|https://\1/|' -e 's|\.git$$||' \
	-e 's|^\(https\{0,1\}://\)[^@/]*@|\1|' | grep -E '^https?://')

dashboard: $(PROF_TOOL_DEPS) ## the run history as static pages: [HISTORY=FILE or postgresql://...] [PROF_PROJECT=] [OUTPUT=dir, default artifacts/dashboard: new, empty or a dashboard's own; never a run's] [REPO_URL=]
	$(PROF_Q)$(if $(HISTORY),,echo "make dashboard: give HISTORY=the history" \
		"file" >&2; exit 2;) \
	PROF_PROJECT=$(call prof_sq,$(PROF_PROJECT)) \
	$(PROF_TOOLDIR)/prof-dashboard --db $(call prof_sq,$(HISTORY)) \
		--repo-url $(call prof_sq,$(REPO_URL)) \
		-o $(call prof_sq,$(DASHBOARD_OUTPUT))

# make help: targets (from their ## comments, in every makefile read),
# tools, workloads, variables. The workloads are those of the binaries as
# built; one of the project's own that make would build again (make -q) is
# older than its source, and help says so.
PROF_HELP_OWN = $(filter-out /%,$(PROF_HELP_WORKLOADS))
PROF_HELP_VARS := WORKLOADS BACKEND REPEAT CATEGORY EXCLUDE_CATEGORY OUTPUT \
	BASELINE PLAYWRIGHT W FROM NAME DIR ADD FORCE TIMEOUT SEED STORIES CHROMIUM \
	HISTORY PROF_PROJECT REF AGAINST MODE PROF_BUILD SHARD SHARDS ENGINE \
	SLURM_ARGS NOWAIT COUNTS MEMORY WHY GOOD BAD \
	CHANNEL THRESHOLD CURRENT_WORKLOADS PROF_WORKLOAD_SOURCES TIME_THRESHOLD \
	REPO_URL

help: ## this list
	@echo $(call prof_sq,$(PROF_HELP_TITLE))
	@echo
	@echo "targets:"
	@grep -h -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([a-zA-Z_-]+):.*## (.*)/\1\t\2/' | LC_ALL=C sort | \
		awk -F'\t' '{ printf "  %-16s %s\n", $$1, $$2 }'
	@echo
	@echo "tools (in $(PROF_TOOLDIR)/):"
	@for t in $(PROF_HELP_TOOLS); do echo "  $$t"; done
	@echo
	@echo "workloads ($(or $(PROF_HELP_WORKLOADS),none: set WORKLOADS)):"
	@ok=1; for w in $(PROF_HELP_WORKLOADS); do [ -x "$$w" ] || ok=0; done; \
	if [ -z '$(strip $(PROF_HELP_WORKLOADS))' ]; then :; \
	elif [ $$ok = 1 ] && [ -x $(PROF_TOOLDIR)/prof-time ]; then \
		$(if $(PROF_HELP_OWN),$(MAKE) -q --no-print-directory \
			$(PROF_HELP_OWN) >/dev/null 2>&1 || echo "  (as last \
			built: $(PROF_HELP_OWN) is older than its source; make \
			builds it, and then make help lists the current \
			source's)";) \
		$(PROF_TOOLDIR)/prof-time --list \
			$(addprefix --workloads ,$(PROF_HELP_WORKLOADS)) | sed 's/^/  /'; \
	else echo "  (run make first to list them)"; fi
	$(if $(PROF_HELP_EXTRA),@$(PROF_HELP_EXTRA))
	@echo
	@echo "variables (current values):"
	@$(foreach v,$(HELP_VARS) $(PROF_HELP_VARS),printf '  %-18s = %s\n' '$(v)' '$($(v))';)
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
	@echo "  memory        MEMORY=1 adds the memory phase (diagnose always has it):"
	@echo "                heap peak, allocations and bytes allocated of one call,"
	@echo "                judged exactly (+1% and a floor), and the RSS peak,"
	@echo "                judged like time; make compare MEMORY=1 WHY=1 names the"
	@echo "                allocation sites that changed (valgrind's DHAT, one call"
	@echo "                of each side); make bisect CHANNEL=memory finds the"
	@echo "                commit (one memory run a commit, the exact metrics)"

.DEFAULT_GOAL := $(PROF_DEFAULT_GOAL)
