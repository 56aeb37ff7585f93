# make bench-tools: prof-merge, prof-diff and prof-report on seeded
# synthetic results (bench/bench-tools.c), their time and peak RSS beside
# json-c's bare parse of the same bytes, and prof-report --html and
# prof-history add on the same file. BENCH_SAMPLES lists the sizes;
# BENCH_HTML_ROWS the numbers of rows prof-report --html is timed on (5
# samples a row), beside the same parse, for how the page grows.
# BENCH_DASHBOARD (RUNSxSERIES): prof-dashboard over a history of that many
# runs (imported by prof-history import) of that many series.

BENCH_SAMPLES ?= 10000 30000 300000 1000000
BENCH_ROWS ?= 2000
BENCH_HTML_ROWS ?= 2000 8000 40000
BENCH_DASHBOARD ?= 1000x200
BENCH_TOOLS := $(BUILD)/bench/bench-tools

$(BENCH_TOOLS): $(BUILD)/bench/bench-tools.o
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(JSONC_LIBS)

.PHONY: bench-tools
bench-tools: $(BINDIR)/prof-merge $(BINDIR)/prof-diff $(BINDIR)/prof-report $(BINDIR)/prof-history $(BINDIR)/prof-dashboard $(BENCH_TOOLS) ## time merge, diff, report (and --html), history add and the dashboard on synthetic results (BENCH_SAMPLES, BENCH_ROWS, BENCH_HTML_ROWS, BENCH_DASHBOARD)
	$(Q)$(BENCH_TOOLS) --bindir $(BINDIR) --rows $(BENCH_ROWS) \
		$(addprefix --html-rows ,$(BENCH_HTML_ROWS)) \
		$(addprefix --dashboard ,$(BENCH_DASHBOARD)) $(BENCH_SAMPLES)
