/* glossary.h: the words the pages show (report.html, the dashboard),
 * each defined once, as prof(7)'s GLOSSARY defines them. */
#ifndef PROF_GLOSSARY_H
#define PROF_GLOSSARY_H

#include <stdio.h>

/* 1 when word ("stable", "own time") is defined in the glossary. */
int prof_glossary_has(const char *word);

/* The opening tag of a link to word's entry in the page's glossary
 * section (href "#g-WORD", a space a hyphen), for the caller's own
 * content; the caller closes it with </a>. */
void prof_glossary_open(FILE *fp, const char *word);

/* The glossary section (id "glossary"): every word and its definition. */
void prof_glossary_section(FILE *fp);

#endif
