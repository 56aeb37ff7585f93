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

	plan(22);
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
	is_str(parse_err("{\"b\": 1, \"a\": 2, \"c\": {\"x\": 1, \"x\": 2},\n"
			 " \"a\": 3, \"b\": 4}"),
	       "x.json:1:32: duplicate key \"x\"",
	       "the first duplicate by place is named, nested or not");
	is_str(parse_err("{\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,"
			 "\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,\"ka\":0,\"kb\":1,"
			 "\"kc\":2,\"kd\":3,\"ke\":4,\"kf\":5,\"kg\":6,\"kh\":7,"
			 "\"ki\":8,\"kj\":9,\"kk\":0,\"kl\":1,\"km\":2,\"kn\":3,"
			 "\"ko\":4,\"kp\":5,\"kq\":6,\"kr\":7,\"k2\":8,\"k1\":9}"),
	       "x.json:1:198: duplicate key \"k2\"",
	       "and in an object of many keys");
	is_str(parse_err("[1.5, 1e999]"),
	       "x.json:1:7: number 1e999 is not finite (beyond a double)",
	       "an exponent past a double is refused at its place");
	is_str(parse_err("[123456789012345678901234567890.5]"), "(parsed)",
	       "a long number without an exponent is finite");
	is_str(canon("{\"k\\u0001\": \"\\u00e9\\t\", \"q\": -12, \"r\": "
		     "9223372036854775807, \"s\": -9223372036854775808}"),
	       "{\"k\\u0001\":\"\u00e9\\t\",\"q\":-12,\"r\":"
	       "9223372036854775807,\"s\":-9223372036854775808}",
	       "canonical: control characters escaped, UTF-8 kept, int64 ends");
	is_str(canon("{\"t\":1,\"s\":2,\"r\":3,\"q\":4,\"p\":5,\"o\":6,\"n\":7,"
		     "\"m\":8,\"l\":9,\"k\":10,\"j\":11,\"i\":12,\"h\":13,"
		     "\"g\":14,\"f\":15,\"e\":16,\"d\":17,\"c\":18,\"b\":19,"
		     "\"a\":20}"),
	       "{\"a\":20,\"b\":19,\"c\":18,\"d\":17,\"e\":16,\"f\":15,"
	       "\"g\":14,\"h\":13,\"i\":12,\"j\":11,\"k\":10,\"l\":9,"
	       "\"m\":8,\"n\":7,\"o\":6,\"p\":5,\"q\":4,\"r\":3,\"s\":2,"
	       "\"t\":1}",
	       "canonical: many keys sorted");
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
