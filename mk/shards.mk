# make merge-shards DIR=... [OUTPUT=...] [SHARDS=N]: the results of a run's
# shards (make profile-quick|profile-full SHARD=I/N on several machines)
# merged, compared and reported like a single run (mk/merge-shards.sh).

SHARDS ?=

.PHONY: merge-shards
merge-shards: $(BINDIR)/prof-merge $(BINDIR)/prof-diff $(BINDIR)/prof-report $(BINDIR)/prof-history ## merge a run's shards: DIR=folder of their results [OUTPUT=dir] [SHARDS=N]
	$(Q)$(if $(filter command line environment,$(origin DIR)),,echo \
		"make merge-shards: give DIR=the folder of the shards' results" \
		>&2; exit 2;) \
	PROF_BINDIR=$(call prof_sq,$(BINDIR)) \
	PROF_OUTPUT=$(call prof_sq,$(OUTPUT)) \
	PROF_BASELINE=$(call prof_sq,$(BASELINE)) \
	PROF_SHARDS=$(call prof_sq,$(SHARDS)) \
	PROF_HISTORY=$(call prof_sq,$(HISTORY)) \
	PROF_COMMAND=$(call prof_sq,make merge-shards DIR=$(DIR)$(if \
		$(OUTPUT), OUTPUT=$(OUTPUT))) \
	sh mk/merge-shards.sh $(call prof_sq,$(DIR))
