/* utf8.h: text from outside made valid UTF-8 before it is written. */
#ifndef PROF_UTF8_H
#define PROF_UTF8_H

#include <stddef.h>
#include <stdio.h>

/*
 * Every text a tool takes from outside (a command's stderr, a command
 * line, a commit, a note, a story's reason) may hold any bytes; every
 * reader of prof's files refuses bytes that are not UTF-8 and NUL
 * characters. So a writer passes such text through prof_utf8_fix() where
 * it enters a sample or a results file, and the JSON writers pass their
 * text through prof_utf8_json() as a last guard.
 */

/* U+FFFD, the replacement character, as UTF-8. */
#define PROF_UTF8_REPLACEMENT "\xef\xbf\xbd"

/* The longest reason a sample keeps, in bytes (a longer one is cut on a
 * character boundary and marked, see prof_utf8_fix()). */
#define PROF_REASON_MAX 4096

/* The longest string a results reader keeps, in bytes of its JSON text:
 * a longer one is cut between two characters and ends in
 * " [... cut, N bytes]", so that one huge string in a file cannot cost a
 * reader its size several times over. */
#define PROF_TEXT_MAX 65536

/* The length of the valid UTF-8 sequence at p[0..avail) (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0. avail
 * must be at least 1. */
size_t prof_utf8_seq(const unsigned char *p, size_t avail);

/* The offset of the first byte of s[0..n) that is not valid UTF-8 or is
 * a NUL; n when there is none. */
size_t prof_utf8_check(const char *s, size_t n);

/*
 * A malloc'd, NUL-terminated copy of s[0..n) in which each byte that does
 * not begin a valid UTF-8 sequence, and each NUL, is U+FFFD. With max > 0,
 * a copy longer than max bytes is cut on a character boundary and ends in
 * " [... cut, N bytes]" (N the length of s), so it is at most max + 40
 * bytes. *out_n (when not NULL) gets its length. NULL when out of memory.
 */
char *prof_utf8_fix(const char *s, size_t n, size_t max, size_t *out_n);

/* Whether the C string s is valid UTF-8 (what an option that is only
 * recorded, such as a note or a commit, must be): 1; or 0 with why (when
 * not NULL) filled, e.g. "byte 0xff at offset 5 is not UTF-8". */
int prof_utf8_valid(const char *s, char *why, size_t why_n);

/*
 * The C string s as one line of valid UTF-8, for a message that is printed
 * (a reason): tab, newline and carriage return are a space, another
 * control character is written \xNN, and what is not UTF-8 is U+FFFD; with
 * max > 0, a line longer than max bytes is cut on a character boundary and
 * ends in " [... cut, N bytes]", N the length of s. malloc'd; NULL when out
 * of memory.
 */
char *prof_utf8_line(const char *s, size_t max);

/* The length of the longest prefix of s[0..n) that is at most max bytes
 * and does not end inside a UTF-8 character. */
size_t prof_utf8_cut(const char *s, size_t n, size_t max);

/*
 * A JSON text as json-c writes it, made readable by prof's strict reader:
 * invalid UTF-8 (which json-c copies raw from a string) becomes U+FFFD, and
 * so does an escaped NUL (\u0000). Returns 0 when text[0..n) is fine as it
 * is; 1 with *fixed a malloc'd, NUL-terminated text and *fixed_n its
 * length; -1 when out of memory.
 */
int prof_utf8_json(const char *text, size_t n, char **fixed, size_t *fixed_n);

/*
 * The character at c (a NUL-terminated text) written to fp when it is more
 * than one byte: a valid sequence as it is, a byte that begins none as
 * U+FFFD; returns 1. Returns 0 for one ASCII byte, left to the caller's
 * escaping. *len gets the sequence's length (prof_utf8_seq(): 0 when not
 * valid); the next character is at c + (*len ? *len : 1).
 */
int prof_utf8_put_wide(FILE *fp, const unsigned char *c, size_t *len);

/* The reference HTML writes the byte c as in text and attribute values
 * ("&amp;", "&lt;", "&gt;", "&quot;", "&#39;"), or NULL for any other. */
const char *prof_html_entity(unsigned char c);

/*
 * Text from outside (a commit, a reason, a path, a name) as HTML content or
 * an attribute value, written to fp: the markup characters become
 * references; a byte that is not UTF-8 and a control character (but tab and
 * newline) become U+FFFD. At most max characters are written, never part of
 * one; (size_t)-1 for all. NULL writes nothing. Every HTML page's fields go
 * through here.
 */
void prof_utf8_html(FILE *fp, const char *s, size_t max);

#endif /* PROF_UTF8_H */
