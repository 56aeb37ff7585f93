# The man pages: one scdoc source beside each tool (src/prof-<verb>.1.scd),
# the concepts and rules (src/prof.7.scd)
# and the fragment's (fragment/prof.mk.7.scd), built under $(BUILD)/man/ by
# scdoc (Debian's scdoc; mk/deps.sh) and installed under PREFIX/share/man.

MAN_SRC := $(wildcard src/*.1.scd) src/prof.7.scd fragment/prof.mk.7.scd
MAN_PAGES := $(patsubst %.scd,$(BUILD)/man/%,$(notdir $(MAN_SRC)))
MANDIR := $(PREFIX)/share/man
ALL_TARGETS += $(MAN_PAGES)

$(BUILD)/man/%: src/%.scd
	@mkdir -p $(@D)
	$(QUIET_GEN)scdoc <$< >$@

$(BUILD)/man/%: fragment/%.scd
	@mkdir -p $(@D)
	$(QUIET_GEN)scdoc <$< >$@

.PHONY: install-man
install: install-man
install-man: $(MAN_PAGES)
	$(Q)install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	$(Q)install -m 644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	$(Q)install -m 644 $(filter %.7,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man7/
