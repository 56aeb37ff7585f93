/* report-md.c: text from outside written into summary.md reads as text,
 * never as Markdown or HTML (issue 28, item 4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/md.h"
#include "tap.h"

/* What prof_md_write() writes for s. */
static const char *
md(const char *s, unsigned how)
{
	static char out[1024];
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	prof_md_write(fp, s, how);
	fclose(fp);
	snprintf(out, sizeof(out), "%s", buf ? buf : "(oom)");
	free(buf);
	return out;
}

int
main(void)
{
	const unsigned code = PROF_MD_CODE, cell = PROF_MD_CODE | PROF_MD_CELL;

	plan(30);
	is_str(md("plain words 1.5 x86_64", PROF_MD_TEXT),
	       "plain words 1.5 x86_64", "plain text is as it is");
	is_str(md("<img src=x onerror=alert(1)>", PROF_MD_TEXT),
	       "\\<img src=x onerror=alert(1)>", "a tag is text");
	is_str(md("+3.000 ms >= floor 1 ms, a -> b", PROF_MD_TEXT),
	       "\\+3.000 ms >= floor 1 ms, a -> b",
	       "a '>' inside a line is written as it is");
	is_str(md("> quote", PROF_MD_TEXT), "\\> quote",
	       "one that starts a line is escaped");
	is_str(md("  > quote", PROF_MD_TEXT), "  \\> quote",
	       "after spaces too");
	is_str(md("&lt; &#60;", PROF_MD_TEXT), "\\&lt; \\&#60;",
	       "so is an entity");
	is_str(md("[x](javascript:alert(1)) ![i](y)", PROF_MD_TEXT),
	       "\\[x\\](javascript:alert(1)) !\\[i\\](y)",
	       "a link and an image are text");
	is_str(md("*b* _i_ ~~s~~ `c`", PROF_MD_TEXT),
	       "\\*b\\* \\_i\\_ \\~\\~s\\~\\~ \\`c\\`",
	       "emphasis, strikethrough and code are text");
	is_str(md("a_b _c d_", PROF_MD_TEXT), "a_b \\_c d\\_",
	       "a '_' inside a word stays (it cannot be emphasis)");
	is_str(md("a|b\\", PROF_MD_TEXT), "a\\|b\\\\",
	       "'|' and a backslash are escaped");
	is_str(md("# h", PROF_MD_TEXT), "\\# h", "a heading at the start");
	is_str(md("- x", PROF_MD_TEXT), "\\- x", "a list item at the start");
	is_str(md("12. x", PROF_MD_TEXT), "12\\. x", "a numbered one");
	is_str(md("a\nb\r\tc\033d\177", PROF_MD_TEXT), "a b  c\\x1bd\\x7f",
	       "white space is a space, a control character \\xNN");
	is_str(md("a\nb", code), "`a b`", "a code span is one line too");
	is_str(md("c\xff\xc3", PROF_MD_TEXT), "c\xef\xbf\xbd\xef\xbf\xbd",
	       "a byte that is not UTF-8 is U+FFFD");
	is_str(md("h\xc3\xa9", PROF_MD_TEXT), "h\xc3\xa9", "UTF-8 is kept");
	is_str(md("<b>*x*</b>", code), "`<b>*x*</b>`",
	       "nothing is escaped in a code span: nothing is markup there");
	is_str(md("counts and `make compare` are *not* affected",
		  PROF_MD_TEXT | PROF_MD_SPANS),
	       "counts and `make compare` are \\*not\\* affected",
	       "PROF_MD_SPANS: a tool's `...` is a code span, the rest text");
	is_str(md("`<b>` a ` b", PROF_MD_TEXT | PROF_MD_SPANS),
	       "`<b>` a \\` b", "an unpaired backtick is text");
	is_str(md("a `` b `|`", PROF_MD_TEXT | PROF_MD_SPANS | PROF_MD_CELL),
	       "a \\`\\` b \\`\\|\\`",
	       "an empty pair stops the spans: the rest is text");
	is_str(md("a`b", code), "``a`b``",
	       "a backtick: the fence is one longer than its run");
	is_str(md("x``y`", code), "``` x``y` ```",
	       "one at the end: padded with spaces");
	is_str(md("`", code), "`` ` ``", "a backtick alone");
	is_str(md(" a ", code), "`  a  `",
	       "spaces at both ends survive the one taken off");
	is_str(md("a|b", code), "`a|b`", "'|' in a code span in a list");
	is_str(md("a|b", cell), "`a\\|b`", "and in a table cell");
	is_str(md("", code), "", "an empty field writes nothing");
	is_str(md(NULL, PROF_MD_TEXT), "", "and so does none");
	is_str(md("  x``` <b>\r", PROF_MD_BLOCK), "  x``` <b> ",
	       "a code block line is as it is but for its line ending");
	return done();
}
