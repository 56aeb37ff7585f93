/* md.c: text from outside written into a Markdown page, as text. */
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "md.h"

/* The longest run of backticks in s. */
static size_t
longest_ticks(const char *s)
{
	size_t run = 0, most = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > most)
			most = run;
	}
	return most;
}

/*
 * Whether a code span of s needs a space inside each fence: a backtick
 * at either end would join the fence, and a space at both ends (s not
 * all spaces) would be taken off.
 */
static int
needs_pad(const char *s)
{
	size_t n = strlen(s);

	if (s[0] == '`' || s[n - 1] == '`')
		return 1;
	return s[0] == ' ' && s[n - 1] == ' ' && strspn(s, " ") < n;
}

/* Whether s[0..) begins a list item's number: digits, then '.' or ')'.
 * The length of the digits, or 0. */
static size_t
list_number(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n && n <= 9 && (s[n] == '.' || s[n] == ')') ? n : 0;
}

static int
is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/*
 * Whether the ASCII character at c (not a control) is backslash-escaped;
 * start: the text's first byte; list_dot: c ends the list number the text
 * starts with. A '_' between two letters or digits is not: it can neither
 * open nor close emphasis there ("x86_64" stays as it is).
 */
static int
escaped(const unsigned char *c, const unsigned char *start, unsigned how,
	int list_dot)
{
	if (how & PROF_MD_BLOCK)
		return 0;
	if (*c == '|')
		return !(how & PROF_MD_CODE) || (how & PROF_MD_CELL);
	if (how & PROF_MD_CODE)
		return 0;
	if (*c == '_')
		return c == start || !is_alnum(c[-1]) || !is_alnum(c[1]);
	/* A '>' is markup only where it starts a line, after spaces at
	 * most (a quote): inside a line it is a plain character ("+3.000
	 * ms >= floor", "a -> b"), written as it is. */
	if (*c == '>') {
		const unsigned char *q = start;

		while (q < c && *q == ' ')
			q++;
		return q == c;
	}
	return list_dot || strchr("\\`*[]<&~", *c) != NULL;
}

static void write_field(FILE *fp, const char *s, unsigned how);

/* PROF_MD_SPANS: text whose `...` pairs are code spans; each part is
 * copied into part (room for s) to end it there. */
static void
write_spans(FILE *fp, const char *s, unsigned how, char *part)
{
	unsigned text = how & ~(PROF_MD_SPANS | PROF_MD_CODE | PROF_MD_BLOCK);
	const char *open, *close;

	while ((open = strchr(s, '`')) && (close = strchr(open + 1, '`')) &&
	       close > open + 1) {
		memcpy(part, s, (size_t)(open - s));
		part[open - s] = '\0';
		write_field(fp, part, text);
		memcpy(part, open + 1, (size_t)(close - open - 1));
		part[close - open - 1] = '\0';
		write_field(fp, part, text | PROF_MD_CODE);
		s = close + 1;
	}
	write_field(fp, s, text);	/* the rest ("``" too) as text */
}

void
prof_md_write(FILE *fp, const char *s, unsigned how)
{
	char *part = NULL;

	/* Out of memory: the note as text, escaped. */
	if (s && (how & PROF_MD_SPANS) && !(how & (PROF_MD_CODE | PROF_MD_BLOCK)))
		part = malloc(strlen(s) + 1);
	if (part)
		write_spans(fp, s, how, part);
	else
		write_field(fp, s, how & ~PROF_MD_SPANS);
	free(part);
}

static void
write_field(FILE *fp, const char *s, unsigned how)
{
	const unsigned char *c = (const unsigned char *)s;
	int code = (how & PROF_MD_CODE) != 0;
	int block = (how & PROF_MD_BLOCK) != 0;
	size_t k, len, fence = 0, num = 0;
	int pad = 0;

	if (!s || !*s)
		return;
	if (code) {
		fence = longest_ticks(s) + 1;
		pad = needs_pad(s);
		for (k = 0; k < fence; k++)
			fputc('`', fp);
		if (pad)
			fputc(' ', fp);
	} else if (block) {
		/* Nothing is markup in a code block. */
	} else if (strchr("#+-=", s[0])) {
		fputc('\\', fp);
	} else {
		num = list_number(s);
	}
	for (; *c; c += len ? len : 1) {
		size_t at = (size_t)(c - (const unsigned char *)s);

		if (prof_utf8_put_wide(fp, c, &len))
			continue;
		if (*c == '\n' || *c == '\r' || *c == '\t') {
			fputc(' ', fp);
			continue;
		}
		if (*c < 0x20 || *c == 0x7f) {
			fprintf(fp, "\\x%02x", *c);
			continue;
		}
		if (escaped(c, (const unsigned char *)s, how, num && at == num))
			fputc('\\', fp);
		fputc(*c, fp);
	}
	if (code) {
		if (pad)
			fputc(' ', fp);
		for (k = 0; k < fence; k++)
			fputc('`', fp);
	}
}
