# The profiling pipelines: make profile-quick, profile-full, diagnose and
# baseline-update chain the tools; see `make help` for the variables.
#
# A run (mk/profile.sh) writes artifacts/profiling/<run>/ (or OUTPUT): the
# samples, results.json, comparisons.json and summary.md, prints the
# summary's path and ends with the run's code: 0 clean, 1 a sample errored,
# 2 an argument or infrastructure failure. make reports any failing recipe
# as its own status 2, so the script prints the run's code first.

BACKEND ?=
REPEAT ?=
CATEGORY ?=
EXCLUDE_CATEGORY ?=
OUTPUT ?=
BASELINE ?= baselines/cpu-ci.json
PLAYWRIGHT ?=
W ?=
# baseline-update ADD=1: add the run's segments to the baseline, keeping
# the others (prof-baseline --add).
ADD ?=
# profile-quick|profile-full SHARD=I/N: this machine's shard of the run.
SHARD ?=
FROM ?=
NAME ?=
DIR ?= baselines
TIMEOUT ?=
SEED ?=
# Workload binaries to profile instead of $(BINDIR)/prof-workloads.
WORKLOADS ?=
# The browser stories: STORIES=1 plays them in profile-quick too, STORIES=0
# leaves them out of profile-full; CHROMIUM= another browser binary.
STORIES ?=
CHROMIUM ?=
# The run history every run is added to (prof-history); HISTORY= for none.
HISTORY ?= artifacts/history.sqlite
# COUNTS=1: the instruction-count phase (prof-count under callgrind) in
# profile-quick and profile-full; diagnose always has it.
COUNTS ?=

# A value quoted for the shell.
prof_sq = '$(subst ','\'',$(1))'

# The variables a run takes, and the command line that results.json records
# (the variables given on make's command line, quoted when they hold
# spaces).
PROFILE_VARS := BACKEND REPEAT CATEGORY EXCLUDE_CATEGORY OUTPUT BASELINE \
	PLAYWRIGHT WORKLOADS TIMEOUT SEED STORIES CHROMIUM SHARD HISTORY COUNTS
prof_cmdvar = $(if $(filter command line,$(origin $(1))),$(1)=$(if \
	$(word 2,$($(1))),"$($(1))",$($(1))))
PROFILE_COMMAND = $(strip make $@ $(if $(filter diagnose,$@),W=$(W)) \
	$(foreach v,$(PROFILE_VARS),$(call prof_cmdvar,$(v))))

PROFILE_ENV = PROF_BINDIR=$(call prof_sq,$(BINDIR)) \
	PROF_WORKLOADS=$(call prof_sq,$(WORKLOADS)) \
	PROF_BACKEND=$(call prof_sq,$(BACKEND)) \
	PROF_REPEAT=$(call prof_sq,$(REPEAT)) \
	PROF_CATEGORY=$(call prof_sq,$(CATEGORY)) \
	PROF_EXCLUDE_CATEGORY=$(call prof_sq,$(EXCLUDE_CATEGORY)) \
	PROF_TIMEOUT=$(call prof_sq,$(TIMEOUT)) \
	PROF_SEED=$(call prof_sq,$(SEED)) \
	PROF_OUTPUT=$(call prof_sq,$(OUTPUT)) \
	PROF_BASELINE=$(call prof_sq,$(BASELINE)) \
	PROF_PLAYWRIGHT=$(call prof_sq,$(PLAYWRIGHT)) \
	PROF_STORIES=$(call prof_sq,$(STORIES)) \
	PROF_CHROMIUM=$(call prof_sq,$(CHROMIUM)) \
	PROF_SHARD=$(call prof_sq,$(SHARD)) \
	PROF_HISTORY=$(call prof_sq,$(HISTORY)) \
	PROF_COUNTS=$(call prof_sq,$(COUNTS)) \
	PROF_COMMAND=$(call prof_sq,$(PROFILE_COMMAND))

.PHONY: profile-quick profile-full diagnose baseline-update
profile-quick: all ## quick CPU profile of the quick-tagged workloads (the main job)
	$(Q)$(PROFILE_ENV) sh mk/profile.sh quick

profile-full: all ## every workload on every available backend, and the browser stories
	$(Q)$(PROFILE_ENV) sh mk/profile.sh full

diagnose: all ## timing, memory, CPU-profile and instruction-count phases of one workload: W=ID
	$(Q)$(PROFILE_ENV) sh mk/profile.sh diagnose $(call prof_sq,$(W))

baseline-update: $(BINDIR)/prof-baseline ## promote a results file: FROM=results.json NAME=cpu-ci [DIR=baselines] [ADD=1: add its segments]
	$(Q)test -n $(call prof_sq,$(FROM)) -a -n $(call prof_sq,$(NAME)) || { \
		echo "make baseline-update: give FROM=results.json and" \
			"NAME=name" >&2; \
		echo "make baseline-update: exit code 2 (bad arguments)" >&2; \
		exit 2; }
	$(Q)$(BINDIR)/prof-baseline --from $(call prof_sq,$(FROM)) \
		--name $(call prof_sq,$(NAME)) \
		--output $(call prof_sq,$(DIR)) $(if $(filter 1,$(ADD)),--add) \
		|| { rc=$$?; \
		case $$rc in \
		1) why="the run is unfit to be a baseline" ;; \
		*) why="bad arguments or input" ;; \
		esac; \
		echo "make baseline-update: exit code $$rc ($$why; nothing" \
			"was written)" >&2; \
		exit $$rc; }
