/* md.h: text from outside written into a Markdown page. */
#ifndef PROF_MD_H
#define PROF_MD_H

#include <stdio.h>

/* How prof_md_write() writes a field. */
#define PROF_MD_TEXT 0u	 /* running text: a list item, a line, a cell */
#define PROF_MD_CODE 1u	 /* a code span, its backticks included */
#define PROF_MD_CELL 2u	 /* inside a table cell (with PROF_MD_CODE) */
#define PROF_MD_BLOCK 4u /* a line of an indented code block */
#define PROF_MD_SPANS 8u /* with PROF_MD_TEXT: `...` pairs are code spans */

/*
 * Write the text s (a commit, a reason, a note, an environment field, a
 * name: anything from outside) to fp as one field of a Markdown page that
 * is shown as HTML (GitHub's job summary renders it): whatever s holds, it
 * reads as the text it is, never as markup, and never ends its line, its
 * table cell or its code span.
 *
 * PROF_MD_TEXT backslash-escapes every character Markdown or HTML give a
 * meaning inside a line (\ ` * _ [ ] < & | ~; but a '_' between two
 * letters or digits, which cannot be emphasis) and, at the start, one
 * that could begin a block (# + - = > and a list number's . or )), so no
 * tag, entity, link, image, quote, emphasis or heading can come out of
 * it. A '>' inside a line is no markup without a '<' before it (which is
 * escaped), so it is written as it is: "+3.000 ms >= floor 1 ms" and
 * "a -> b" read the same in the text and in the page it renders to.
 * PROF_MD_CODE writes a code span whose fence is one backtick longer than
 * the longest run of backticks in s (padded with a space where s starts
 * or ends with a backtick or a space), so s cannot close it; inside a code
 * span nothing else is markup. With PROF_MD_CELL a '|' is written "\|"
 * there too (a table row splits at any other '|'); in text it always is.
 * PROF_MD_BLOCK writes s as it is: a line of an indented code block (the
 * caller writes its four spaces), where nothing is markup and only a line
 * ending could end the block.
 * PROF_MD_SPANS (with PROF_MD_TEXT) is for a note a tool wrote with code
 * in it (prof-diff's drift note: "`make compare`"): each pair of
 * backticks around at least one character is a code span, written as
 * PROF_MD_CODE writes its inside; the rest, an unpaired backtick
 * included, as PROF_MD_TEXT.
 * Either way a newline, carriage return or tab is a space, another
 * control character is written \xNN, and a byte that is not UTF-8 is
 * U+FFFD. NULL or "" writes nothing. The only Markdown escape: every
 * field of summary.md goes through here.
 */
void prof_md_write(FILE *fp, const char *s, unsigned how);

#endif /* PROF_MD_H */
