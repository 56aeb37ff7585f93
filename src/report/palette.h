/* palette.h: the colours of every page prof writes (report.html, the
 * dashboard): the statuses', so that improved is one colour, and the
 * trend chart's (chart.h), so that a median is one colour. */
#ifndef PROF_PALETTE_H
#define PROF_PALETTE_H

/* CSS colours, as string literals to paste into a style sheet: a badge's
 * background under white text, a point's fill, a word's colour. */
#define PROF_PALETTE_WARNING "#b35900"
#define PROF_PALETTE_STABLE "#1a7f37"
#define PROF_PALETTE_NEW "#0969da"
#define PROF_PALETTE_INCOMPARABLE "#6e7781"
#define PROF_PALETTE_ERROR "#cf222e"
#define PROF_PALETTE_IMPROVED "#8250df"
/* unsettled: no verdict yet, its own hue (pink), apart from every other
 * status's and from the dashboard's lines (its instructions' teal). */
#define PROF_PALETTE_UNSETTLED "#bf3989"

/* The words, the muted words and the lines of every page (style.h). */
#define PROF_PAGE_INK "#1b1f24"
#define PROF_PAGE_MUTE "#57606a"
#define PROF_PAGE_LINE "#d0d7de"

/*
 * The trend chart's lines and marks, none of them a status's colour: the
 * median (and a memory metric) ink, the p90 a light grey, the instruction
 * counts teal; a change point is a fact about the series, not a verdict,
 * so grey (not the error red); the grid, the axis and the ticks' words;
 * an axis that does not start at zero says so in amber.
 */
#define PROF_CHART_MEDIAN "#24292f"
#define PROF_CHART_P90 "#afb8c1"
#define PROF_CHART_COUNT "#1b7c83"
#define PROF_CHART_CHANGE "#57606a"
#define PROF_CHART_GRID "#eaeef2"
#define PROF_CHART_AXIS "#8c959f"
#define PROF_CHART_MUTE PROF_PAGE_MUTE
#define PROF_CHART_ZOOM "#9a6700"

#endif /* PROF_PALETTE_H */
