/* lib-json.c: strict parsing with places, and canonical text. */
#include <string.h>

#include "base/json.h"
#include "tap.h"

static const char *
parse_err(const char *text)
{
	static char buf[1024];
	struct prof_err e = {0};
	struct json_object *o = prof_json_parse(text, strlen(text), "x.json",
						1, &e);

	if (o) {
		json_object_put(o);
		return "(parsed)";
	}
	return prof_err_str(&e, buf, sizeof(buf));
}

static const char *
canon(const char *text)
{
	static char buf[1024];
	struct json_object *o = json_tokener_parse(text);
	char *c = prof_json_canonical(o);

	snprintf(buf, sizeof(buf), "%s", c ? c : "(null)");
	free(c);
	json_object_put(o);
	return buf;
}

int
main(void)
{
	struct json_object *o;
	struct prof_err e = {0};
	char buf[256];

	plan(16);
	is_str(parse_err("{\"a\": 1,\n \"b\": [1, 2"), "x.json:2:12: unexpected end of input (truncated JSON)",
	       "truncated input names the end");
	is_str(parse_err("{\"a\" 1}"),
	       "x.json:1:6: object property name separator ':' expected",
	       "a syntax error names line and column");
	is_str(parse_err("{\"a\": 1}\n{\"b\": 2}"),
	       "x.json:2:1: unexpected character",
	       "a second value is trailing data");
	is_str(parse_err(""), "x.json:1:1: empty input, expected a JSON value",
	       "empty input is an error");
	is_str(parse_err("  \n "),
	       "x.json:2:2: no JSON value, only white space",
	       "white space only is an error");
	is_str(parse_err("{\"a\": NaN}"), "x.json: .a: not a finite number",
	       "NaN is not JSON");
	is_str(parse_err("[1,\n2,\n tru]"), "x.json:3:5: boolean expected",
	       "a bad literal on line 3");
	is_str(parse_err("{\"a\": 1}\n\n"), "(parsed)",
	       "trailing white space is fine");
	is_str(parse_err("12"), "(parsed)", "a bare number parses");
	is_str(canon("{\"b\": 1, \"a\": {\"d\": [1.5, 2.0], \"c\": null}}"),
	       "{\"a\":{\"c\":null,\"d\":[1.5,2]},\"b\":1}",
	       "canonical: sorted keys, no space, trimmed decimals");
	is_str(canon("[1.00000001, 1.0000004, -0.0000001, 3.1234567]"),
	       "[1,1,0,3.123457]", "canonical: six decimals, never -0");
	is_str(canon("{\"s\": \"a\\\"b\\n\"}"), "{\"s\":\"a\\\"b\\n\"}",
	       "canonical: strings escaped");
	o = prof_json_double(12.345000000000001);
	is_str(json_object_to_json_string(o), "12.345",
	       "doubles print the shortest text that reads back");
	json_object_put(o);
	o = prof_json_load("/nonexistent/file.json", &e);
	ok(o == NULL && strstr(prof_err_str(&e, buf, sizeof(buf)),
			       "/nonexistent/file.json: cannot open") == buf,
	   "a missing file names the file");
	is_str(prof_json_type_name(NULL), "null", "type name of null");
	o = json_tokener_parse("{\"k\": \"v\", \"n\": 3}");
	ok(prof_json_str(o, "k") && !strcmp(prof_json_str(o, "k"), "v") &&
		   prof_json_str(o, "n") == NULL,
	   "prof_json_str reads strings only");
	json_object_put(o);
	return done();
}
