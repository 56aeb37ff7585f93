/* glossary.c: the words the pages show, each defined once (prof(7)'s
 * GLOSSARY, the same text; t6007 checks the two agree), written as a
 * page's glossary section that its statuses and column names link to. */
#include <stdio.h>
#include <string.h>

#include "kit/glossary.h"
#include "kit/page.h"

struct term {
	const char *word, *text;
};

static const struct term TERMS[] = {
    {"sample", "one measurement, one JSON object: a timed call, a memory run, "
	       "an instruction count, a profile or a browser story"},
    {"run", "one profiling target's samples with one run id, in a run folder: "
	    "results.json, comparisons.json, summary.md, report.html"},
    {"row", "one workload x backend x segment of one phase (time, "
	    "instructions, a memory metric), judged on its own"},
    {"segment", "the machine, compiler, backend, device and problem size that "
		"decide whether two numbers may be compared"},
    {"baseline", "a promoted run (baselines/NAME.json) that later runs are "
		 "judged against, row by row within their segment"},
    {"reference", "the other build of a make compare (REF= or AGAINST=), run "
		  "alternately with the current one"},
    {"n", "how many warm samples of the row succeeded: the samples its numbers "
	  "are of"},
    {"median", "the middle value of the row's samples (a count's or memory "
	       "value's lower middle, one of its samples)"},
    {"p90", "the nearest-rank 90th percentile of the row's samples"},
    {"ratio", "the row's median over the baseline's or reference's (of an "
	      "interleaved row, of the samples it was judged on)"},
    {"change", "the difference of the medians, in the row's unit and in %"},
    {"new", "a row the baseline has no row for in its segment: nothing to "
	    "judge it by"},
    {"incomparable",
     "a row that cannot be judged: no baseline file, another workload version "
     "or fixture, a median not positive, or different outputs"},
    {"stable", "clearly within the threshold either way, under the floor, or "
	       "too few samples beyond the baseline median"},
    {"warning",
     "slower (or more instructions, more memory) beyond the threshold and the "
     "floor, with the samples to back it; never an exit code"},
    {"improved", "faster (or fewer instructions, less memory) beyond the "
		 "threshold and the floor, with the samples to back it"},
    {"unjudged",
     "a row compared with nothing (report.html without comparisons)"},
    {"error", "a row whose every sample errored: a crash, a timeout or a "
	      "failed validation, never a slow success"},
    {"unsettled",
     "a time row whose evidence did not settle within its budget: no verdict, "
     "never stable, no exit code; the pages give the command that would settle "
     "it (a make bisect step: counted as unchanged, named at the end)"},
    {"settled",
     "an interleaved row whose ratio interval lies clearly beyond, or clearly "
     "within, the threshold: more samples could not change it"},
    {"not settled", "evidence that did not decide: an interval still across "
		    "the threshold at the end of the budget, or CPU time that "
		    "does not say what the wall time says"},
    {"ratio interval",
     "the confidence interval of the ratio current / reference at a look of "
     "the sequential rule (ratio L to H at C%)"},
    {"samples a side", "how many calls of each build an interleaved row took "
		       "before its sampling ended"},
    {"budget", "the most samples a side an interleaved row may take "
	       "(--max-repeat; 12 in a quick make compare, 40 in a full one)"},
    {"p", "the two-sided Mann-Whitney U p-value of the two sides' samples: "
	  "evidence beside the status, never part of it"},
    {"threshold",
     "how large a change must be to count: for time the time threshold T, "
     "either way (TIME_THRESHOLD=, --time-threshold, the workload's own; 20% "
     "against a baseline, 5% interleaved), a ratio of 1.20 for the RSS peak, "
     "1% for counts and exact memory"},
    {"floor",
     "the smallest change that counts, whatever its ratio: the workload's "
     "warning floor in ms, 1 MiB of RSS, 4096 bytes, 16 allocations"},
    {"contended",
     "a call whose threads waited for a core for more than 5% of its wall time "
     "and 0.1 ms (its delay unknown: wall above CPU time by as much)"},
    {"uncontended", "a call that was not contended: the cluster a look takes "
		    "when those calls alone bound the interval"},
    {"CPU time", "the time the call's threads ran (user and system), which a "
		 "busy machine's queue does not add to"},
    {"run-queue delay", "the time a call's threads waited in the run queue for "
			"a core (run_delay_ms, from schedstat; partial or "
			"unavailable where Linux keeps less)"},
    {"own time",
     "a call's wall time less its run-queue delay: what the code itself took, "
     "and what a time row is judged on where every call says its delay"},
    {"fastest samples", "each side's minimum time, asked to agree with the "
			"median's verdict on calls that had a core"},
    {"drift",
     "the machine's calibration more than 10% away from the baseline's, or "
     "spread more than 10% within the run: timing warnings may be noise"},
    {"calibration", "a fixed kernel timed at a run's start, between groups and "
		    "at its end, to tell the machine's mood from the code's"},
    {"output checksum", "the digest of a call's output: two that differ make "
			"the row incomparable, never faster or slower"},
    {"instructions",
     "callgrind's count of the instructions of one call of run(): the amount "
     "of work, the same on every run of a build"},
    {"heap peak", "the most bytes one call of run() held allocated at once, "
		  "above what was live when it started (exact)"},
    {"allocations", "how many allocations one call of run() made (exact)"},
    {"bytes allocated", "the bytes those allocations took (exact)"},
    {"RSS peak", "the worker's peak resident memory, the kernel's pages "
		 "(judged by ratio, like time)"},
    {"device peak", "the CUDA pool's peak of bytes in use during one call "
		    "(exact, floor 64 KiB)"},
    {"exact", "the rule of counts and exact memory metrics: any change beyond "
	      "the threshold and floor counts"},
    {"deterministic",
     "an exact memory metric whose values of one call index agree on every "
     "worker; one that does not is judged by ratio"},
    {"interleaved", "a make compare row: the two builds run alternately, so "
		    "the machine's mood falls on both sides"},
    {"series",
     "one row's values over the runs of the history: a trend on the dashboard"},
    {"change point", "where a series steps to a new level (a penalized L1 step "
		     "fit), with its commit range and make bisect line"},
};

#define N_TERMS (sizeof(TERMS) / sizeof(TERMS[0]))

/* The anchor id of a word: "g-" and the word, a space a hyphen. */
static void
anchor(FILE *fp, const char *word)
{
	fputs("g-", fp);
	for (; *word; word++)
		fputc(*word == ' ' ? '-' : *word, fp);
}

int
prof_glossary_has(const char *word)
{
	size_t i;

	for (i = 0; word && i < N_TERMS; i++)
		if (!strcmp(TERMS[i].word, word))
			return 1;
	return 0;
}

void
prof_glossary_open(FILE *fp, const char *word)
{
	fputs("<a class=\"gl\" href=\"#", fp);
	anchor(fp, word);
	fputs("\">", fp);
}

void
prof_glossary_section(FILE *fp)
{
	size_t i;

	fputs("<section class=\"glossary\" id=\"glossary\">"
	      "<h2>Glossary</h2><p class=\"note\">The words this page shows, "
	      "as prof(7) defines them.</p><dl>",
	      fp);
	for (i = 0; i < N_TERMS; i++) {
		fputs("<dt id=\"", fp);
		anchor(fp, TERMS[i].word);
		fputs("\">", fp);
		prof_page_esc(fp, TERMS[i].word);
		fputs("</dt><dd>", fp);
		prof_page_esc(fp, TERMS[i].text);
		fputs("</dd>", fp);
	}
	fputs("</dl></section>\n", fp);
}
