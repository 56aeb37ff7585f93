# The HTTP server (workloads/server/): libpkserver.a, linked into bin/plotkit
# (plotkit serve) and bin/prof-workloads (the server.* workloads), the page
# and script it serves, built in (its test-only binaries: test/bins.mk).

SERVER_SRC := $(wildcard workloads/server/*.c)
LIBSERVER := $(BUILD)/libpkserver.a
# After the objects that use it and before libplotkit.a, which it uses.
SERVER_LIBS = $(LIBSERVER) $(MHD_LIBS) -lpthread

EXTRA_CFLAGS_workloads/server = -Iworkloads $(XML_CFLAGS)

# The viewer, embedded at build time: no path is looked up at run time.
SERVER_ASSETS := workloads/browser/viewer.html workloads/browser/viewer.js
SERVER_GEN := $(BUILD)/gen/server/assets.c
SERVER_GEN_OBJ := $(BUILD)/gen/server/assets.o

$(SERVER_GEN): workloads/server/embed.sh $(SERVER_ASSETS)
	@mkdir -p $(@D)
	$(QUIET_GEN)sh workloads/server/embed.sh server/assets.h \
		pk_asset_viewer_html=workloads/browser/viewer.html \
		pk_asset_viewer_js=workloads/browser/viewer.js >$@

$(SERVER_GEN_OBJ): $(SERVER_GEN) $(FLAGS_STAMP)
	$(QUIET_CC)$(CC) $(PROF_CFLAGS) -Iworkloads $(CFLAGS) -c -o $@ $<

$(LIBSERVER): $(patsubst %.c,$(BUILD)/%.o,$(SERVER_SRC)) $(SERVER_GEN_OBJ)
	$(QUIET_AR)rm -f $@ && ar rcs $@ $^

# bin/plotkit links it (its link line in mk/engine.mk names SERVER_LIBS).
$(PLOTKIT): $(LIBSERVER)
