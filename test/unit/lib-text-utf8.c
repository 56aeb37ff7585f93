/* lib-text-utf8.c: text from outside made valid UTF-8 before it is written
 * (issue 19, items 1 and 19). */
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "base/utf8.h"
#include "tap.h"

#define R PROF_UTF8_REPLACEMENT

static const char *
fix(const char *s, size_t n, size_t max)
{
	static char buf[8192];
	char *t = prof_utf8_fix(s, n, max, NULL);

	snprintf(buf, sizeof(buf), "%s", t ? t : "(oom)");
	free(t);
	return buf;
}

/* What a writer writes for a string value holding s[0..n). */
static const char *
written(const char *s, size_t n)
{
	static char buf[256];
	struct json_object *o = json_object_new_string_len(s, (int)n);
	char *own;
	size_t len;
	const char *t = prof_json_text(o, JSON_C_TO_STRING_PLAIN, &len, &own);

	snprintf(buf, sizeof(buf), "%s", t ? t : "(oom)");
	free(own);
	json_object_put(o);
	return buf;
}

/* Whether the strict reader takes text back. */
static int
reads(const char *text)
{
	struct prof_err err;
	struct json_object *o = prof_json_parse(text, strlen(text), "t", 1,
						&err);

	json_object_put(o);
	return o != NULL;
}

int
main(void)
{
	char big[PROF_REASON_MAX + 100];
	const char *t;
	struct json_object *o;

	plan(25);
	is_int((long long)prof_utf8_check("abc", 3), 3, "ASCII is valid");
	is_int((long long)prof_utf8_check("a\xc3\xa9z", 4), 4,
	       "a two-byte character is valid");
	is_int((long long)prof_utf8_check("ab\xff", 3), 2,
	       "0xff is found at its offset");
	is_int((long long)prof_utf8_check("a\0b", 3), 1, "so is a NUL");
	is_int((long long)prof_utf8_check("\xed\xa0\x80", 3), 0,
	       "an encoded surrogate is not valid");
	is_int((long long)prof_utf8_check("\xc0\xaf", 2), 0,
	       "nor an overlong form");
	is_str(fix("\xff", 1, 0), R, "one bad byte becomes U+FFFD");
	is_str(fix("x\xe2\x82", 3, 0), "x" R R,
	       "a character cut at the end: one U+FFFD per byte");
	is_str(fix("a\0b", 3, 0), "a" R "b", "a NUL becomes U+FFFD");
	is_str(fix("caf\xc3\xa9", 5, 0), "caf\xc3\xa9",
	       "valid text is copied as it is");

	memset(big, 'x', sizeof(big));
	memcpy(big + PROF_REASON_MAX - 1, "\xc3\xa9", 2);
	t = fix(big, sizeof(big), PROF_REASON_MAX);
	is_int((long long)strlen(t), PROF_REASON_MAX - 1 + 22,
	       "a long text is cut before the character that crosses max");
	is_str(t + PROF_REASON_MAX - 1, " [... cut, 4196 bytes]",
	       "and says it was cut, and from how much");
	is_int((long long)prof_utf8_cut("ab\xc3\xa9", 4, 3), 2,
	       "cut: never inside a character");
	is_int((long long)prof_utf8_cut("ab\xc3\xa9", 4, 4), 4,
	       "cut: a text that fits is whole");

	is_str(written("a\xff", 2), "\"a" R "\"",
	       "the writer replaces what json-c copies raw");
	is_str(written("a\0b", 3), "\"a\\ufffdb\"",
	       "and an escaped NUL");
	is_str(written("\\u0000", 6), "\"\\\\u0000\"",
	       "but not an escaped backslash before u0000");
	ok(reads(written("\xff\xfe\0\xc3", 4)),
	   "the strict reader takes what the writer wrote");
	is_str(written("\xc3\xa9\xe2\x82\xac", 5), "\"\xc3\xa9\xe2\x82\xac\"",
	       "valid text is written as json-c writes it");

	o = prof_json_text_new("\xff", 1, 0);
	is_str(json_object_get_string(o), R, "a new text value is valid");
	json_object_put(o);
	o = prof_json_text_new(big, sizeof(big), 16);
	is_int((long long)json_object_get_string_len(o), 16 + 22,
	       "and capped where asked");
	json_object_put(o);
	t = prof_utf8_line("a\tb\r\nc\033[1m\377", 0);
	is_str(t, "a b  c\\x1b[1m" R, "a line: white space, \\xNN, U+FFFD");
	free((char *)t);
	memset(big, 'y', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	t = prof_utf8_line(big, 100);
	is_str(t + 100, " [... cut, 4195 bytes]",
	       "a long line is cut and says its length");
	free((char *)t);
	t = prof_utf8_line("\001\001\001", 5);
	is_str(t, "\\x01 [... cut, 3 bytes]",
	       "never inside an escape it wrote");
	free((char *)t);
	o = json_object_new_object();
	json_object_object_add(
		o, "a", json_object_new_string("caf\xc3\xa9 \xff x\xe2\x82\xac"));
	t = prof_json_canonical(o);
	is_str(t, "{\"a\":\"caf\xc3\xa9 " R " x\xe2\x82\xac\"}",
	       "canonical text (an id's input) is valid UTF-8 too");
	free((char *)t);
	json_object_put(o);
	return done();
}
