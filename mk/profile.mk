# The profiling pipelines: make profile-quick, profile-full, diagnose and
# baseline-update chain the tools; see `make help` for the variables.

BACKEND ?=
REPEAT ?=
CATEGORY ?=
EXCLUDE_CATEGORY ?=
OUTPUT ?=
BASELINE ?= baselines/cpu-ci.json
PLAYWRIGHT ?=
W ?=
FROM ?=
NAME ?=
DIR ?= baselines
TIMEOUT ?=
SEED ?=

PROFILE_OPTS = $(if $(BACKEND),--backend $(BACKEND)) \
	$(if $(REPEAT),--repeat $(REPEAT)) \
	$(foreach c,$(CATEGORY),--category $(c)) \
	$(foreach c,$(EXCLUDE_CATEGORY),--exclude-category $(c)) \
	$(if $(TIMEOUT),--timeout $(TIMEOUT)) \
	$(if $(SEED),--seed $(SEED))

.PHONY: profile-quick profile-full diagnose baseline-update
profile-quick: all ## quick CPU profile of the quick-tagged workloads (the main job)
	$(Q)sh mk/profile.sh quick $(PROFILE_OPTS)

profile-full: all ## every workload on every available backend
	$(Q)sh mk/profile.sh full $(PROFILE_OPTS)

diagnose: all ## timing, memory and CPU-profile phases of one workload: W=ID
	$(Q)test -n "$(W)" || { echo "make diagnose: give the workload: make diagnose W=ID" >&2; exit 2; }
	$(Q)sh mk/profile.sh diagnose $(W) $(PROFILE_OPTS)

baseline-update: all ## promote a results file: FROM=results.json NAME=cpu-ci [DIR=baselines]
	$(Q)test -n "$(FROM)" -a -n "$(NAME)" || { echo "make baseline-update: give FROM=results.json and NAME=name" >&2; exit 2; }
	$(Q)$(BINDIR)/prof-baseline --from "$(FROM)" --name "$(NAME)" --output "$(DIR)"
