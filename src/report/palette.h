/* palette.h: the colours of the statuses, one set for every page prof
 * writes (report.html, the dashboard), so that improved is one colour. */
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

#endif /* PROF_PALETTE_H */
