/* json.h: strict JSON reading with places, and canonical JSON writing. */
#ifndef PROF_JSON_H
#define PROF_JSON_H

#include <stddef.h>
#include <json-c/json.h>

#include "base/err.h"

/*
 * Ownership: functions returning struct json_object * hand the caller one
 * reference (json_object_put() it); functions returning char * hand over a
 * malloc'd string (free() it). Borrowed pointers are marked as such.
 */

/*
 * Read a whole file ("-" is stdin) into a NUL-terminated buffer: a
 * regular file (afile.h's prof_input_open()) or stdin, of at most
 * PROF_INPUT_DOC_MAX bytes. An empty file is not an error here. Returns
 * 0, or -1 with err filled.
 */
int prof_json_read_file(const char *path, char **buf, size_t *len,
			struct prof_err *err);

/*
 * Parse buf[0..len) as exactly one JSON value (whitespace around it is
 * fine). Syntax errors name name:line:col, counted from first_line; an
 * empty input, trailing data and non-finite numbers are errors, and so are,
 * with their line and column, what json-c would let through: bytes that
 * are not UTF-8, a NUL character (raw or \u0000), an integer outside
 * int64 and a duplicate key. Returns the value, or NULL with err filled.
 */
struct json_object *prof_json_parse(const char *buf, size_t len,
				    const char *name, int first_line,
				    struct prof_err *err);

/* The same with a tokener of the caller's (reset here), for a reader that
 * parses one value after another. */
struct json_tokener;
struct json_object *prof_json_parse_tok(struct json_tokener *tok,
					const char *buf, size_t len,
					const char *name, int first_line,
					struct prof_err *err);

/*
 * JSON lines: call fn for the value of each non-blank line of buf, in
 * order, with its line number (from 1). fn owns the value. A syntax error
 * stops the walk with err naming "name:line:col"; fn's -1 (with err's path
 * and reason filled) stops it with err naming "name:line". Returns the
 * number of values, or -1.
 */
typedef int (*prof_json_line_fn)(void *arg, struct json_object *value,
				 struct prof_err *err);
long prof_json_lines(const char *buf, size_t len, const char *name,
		     prof_json_line_fn fn, void *arg, struct prof_err *err);

/* prof_json_read_file() then prof_json_parse(). */
struct json_object *prof_json_load(const char *path, struct prof_err *err);

/*
 * The canonical text of a value: object keys sorted, no white space,
 * integers in decimal, other numbers rounded to six decimals with trailing
 * zeros dropped ("1.5", "-0" as "0"). Equal data gives equal text. Returns a
 * malloc'd string, or NULL when out of memory.
 */
char *prof_json_canonical(struct json_object *o);

/*
 * A new string value of s[0..n) made valid UTF-8 (prof_utf8_fix(): each
 * invalid byte and each NUL is U+FFFD; with max > 0, cut on a character
 * boundary and marked past max bytes). For every text taken from outside.
 * NULL when out of memory.
 */
struct json_object *prof_json_text_new(const char *s, size_t n, size_t max);

/*
 * json-c's text of o (flags of json_object_to_json_string_ext()), made
 * readable by prof's strict reader (prof_utf8_json()): what every writer
 * of prof's files writes. Returns the text, borrowed from o, or, where it
 * had to be fixed, held in *own (free() it; NULL otherwise); *len gets its
 * length. NULL when out of memory.
 */
const char *prof_json_text(struct json_object *o, int flags, size_t *len,
			   char **own);

/* A new double whose text is the shortest that reads back (%.15g). */
struct json_object *prof_json_double(double v);

/* A number (int or double) as a double; 0 if o is not a number. */
double prof_json_number(struct json_object *o);

/* Whether o is a JSON number (int or double). */
int prof_json_is_number(struct json_object *o);

/* The number at key of o as a double; NAN when missing, null or not a
 * number (a report shows it as "-"). */
double prof_json_numf(struct json_object *o, const char *key);

/* The member key of o (borrowed), or NULL when o is not an object or
 * has no such member. */
struct json_object *prof_json_get(struct json_object *o, const char *key);

/* Borrowed string of key, or NULL when missing or not a string. */
const char *prof_json_str(struct json_object *o, const char *key);

/* The type's name as a schema error says it: "a string", "null", ... */
const char *prof_json_type_name(struct json_object *o);

#endif /* PROF_JSON_H */
