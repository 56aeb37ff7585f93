# make install also installs what another project needs to write workloads:
# the harness and library archives, the public headers and a pkg-config
# file, so that `cc $(pkg-config --cflags --libs prof-harness)` builds a
# workload binary (examples/external/ is such a project); and what it needs
# to profile them: the make fragment (DATADIR/prof/prof.mk, named by
# `pkg-config --variable=makefile prof-harness`) and the run scripts it
# runs (LIBEXECDIR/prof/).

PUBLIC_HEADERS := $(wildcard src/harness/prof/*.h)
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
# Fixed under PREFIX: the fragment finds the tools and the scripts from
# where it lies (PREFIX/share/prof/prof.mk).
DATADIR := $(PREFIX)/share
LIBEXECDIR := $(PREFIX)/libexec
RUN_SCRIPTS := fragment/profile.sh fragment/profile-check.sh fragment/run-lib.sh \
	fragment/compare.sh fragment/merge-shards.sh fragment/why-lib.sh fragment/bisect.sh \
	fragment/compare-clean.sh fragment/slurm.sh

# The prefix is part of the file: it is made for each install, straight
# into its place (never in $(BUILD), which two installs to two prefixes
# at once, as the tests do, would share).
PC_DEST = $(DESTDIR)$(LIBDIR)/pkgconfig/prof-harness.pc
.PHONY: install-harness
install: install-harness
install-harness: $(LIBHARNESS) $(LIBPROF) fragment/prof-harness.pc.in
	$(Q)install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/prof
	$(Q)install -m 644 $(LIBHARNESS) $(LIBPROF) $(DESTDIR)$(LIBDIR)/
	$(Q)install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/prof/
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@DATADIR@|$(DATADIR)|g' \
		-e 's|@VERSION@|$(shell sed -n 's/^#define PROF_VERSION "\(.*\)"/\1/p' src/lib/base/prof.h)|g' \
		fragment/prof-harness.pc.in >$(PC_DEST).tmp && \
		chmod 644 $(PC_DEST).tmp && mv -f $(PC_DEST).tmp $(PC_DEST)

.PHONY: install-fragment
install: install-fragment
install-fragment:
	$(Q)install -d $(DESTDIR)$(DATADIR)/prof $(DESTDIR)$(LIBEXECDIR)/prof
	$(Q)install -m 644 fragment/prof.mk $(DESTDIR)$(DATADIR)/prof/
	$(Q)install -m 755 $(RUN_SCRIPTS) $(DESTDIR)$(LIBEXECDIR)/prof/

# The preload libraries in PREFIX/lib/prof/ (the tools find them from
# PREFIX/bin), prof's own workload binary in PREFIX/libexec/prof/.
.PHONY: install-private
install: install-private
install-private: $(PRELOADS) $(WORKLOADS_BIN)
	$(Q)install -d $(DESTDIR)$(PREFIX)/lib/prof $(DESTDIR)$(LIBEXECDIR)/prof
	$(Q)install -m 755 $(PRELOADS) $(DESTDIR)$(PREFIX)/lib/prof/
	$(Q)install -m 755 $(WORKLOADS_BIN) $(DESTDIR)$(LIBEXECDIR)/prof/
