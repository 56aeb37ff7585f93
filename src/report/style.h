/*
 * style.h: the one stylesheet of every page prof writes (report.html, the
 * dashboard): the colours as CSS variables (palette.h), the words, tables
 * and numbers, code, the glossary, the verdicts' words and badges, and the
 * trend chart's rules (chart.h). A page adds only its own layout after it.
 * Inside src/report only.
 */
#ifndef PROF_STYLE_H
#define PROF_STYLE_H

#include "chart.h"
#include "palette.h"

#define PAGE_CSS                                                             \
	":root{--fg:" PROF_PAGE_INK ";--mute:" PROF_PAGE_MUTE ";--line:"       \
	PROF_PAGE_LINE ";--bg:#fff;--warn:" PROF_PALETTE_WARNING ";--ok:"      \
	PROF_PALETTE_STABLE ";--new:" PROF_PALETTE_NEW ";--inc:"               \
	PROF_PALETTE_INCOMPARABLE ";--err:" PROF_PALETTE_ERROR ";--imp:"       \
	PROF_PALETTE_IMPROVED ";--uns:" PROF_PALETTE_UNSETTLED "}\n"          \
	"*{box-sizing:border-box}\n"                                         \
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"  \
	"color:var(--fg);background:var(--bg)}\n"                            \
	"table{border-collapse:collapse;width:100%}\n"                       \
	"th,td{text-align:left;padding:4px 8px;border-bottom:1px solid "      \
	"var(--line)}\n"                                                     \
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}"   \
	"td.num{white-space:nowrap}\n"                                       \
	"code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',monospace;"   \
	"font-size:.92em}\n"                                                 \
	"a.gl{color:inherit;text-decoration:none}"                           \
	".glossary{font-size:.9em}.glossary dt{font-weight:600}"              \
	".glossary dd{margin:0 0 .4em 1.5em}\n"                              \
	".v-improved{color:" PROF_PALETTE_IMPROVED ";font-weight:600}"        \
	".v-warning{color:" PROF_PALETTE_WARNING ";font-weight:600}"          \
	".v-unsettled{color:" PROF_PALETTE_UNSETTLED ";font-weight:600}\n"    \
	".badge{display:inline-block;padding:0 .55em;border-radius:1em;"      \
	"font-size:.85em;font-weight:600;color:#fff;background:var(--inc)}"   \
	".s-warning{background:var(--warn)}.s-stable{background:var(--ok)}"  \
	".s-improved{background:var(--imp)}.s-unsettled{background:var(--uns)}" \
	".s-new{background:var(--new)}.s-error{background:var(--err)}\n"     \
	CHART_CSS "\n"

#endif /* PROF_STYLE_H */
