/* lib-sum.c: stable checksums with six-decimal rounding. */
#include <string.h>

#include "base/json.h"
#include "prof/sum.h"
#include "tap.h"

static const char *
sum_f64(double v)
{
	static char hex[2][PROF_SUM_HEX];
	static int k;
	struct prof_sum s;

	k ^= 1;
	prof_sum_init(&s);
	prof_sum_f64(&s, v);
	prof_sum_final(&s, hex[k]);
	return hex[k];
}

int
main(void)
{
	char a[PROF_SUM_HEX], b[PROF_SUM_HEX];
	struct prof_sum s;
	struct json_object *x, *y;
	float f[3] = {1.5f, 2.25f, -3.0f};
	double d[3] = {1.5, 2.25, -3.0};
	int i;

	plan(10);
	ok(!strcmp(sum_f64(1.00000001), sum_f64(1.00000002)),
	   "1.00000001 and 1.00000002 hash alike");
	ok(strcmp(sum_f64(1.0001), sum_f64(1.0002)) != 0,
	   "1.0001 and 1.0002 do not");
	ok(!strcmp(sum_f64(-0.0), sum_f64(0.0)), "-0 hashes as 0");
	is_int((long long)strlen(sum_f64(1)), 64, "64 hex digits");
	prof_sum_buffer("abc", 3, a);
	prof_sum_buffer("abc", 3, b);
	ok(!strcmp(a, b), "the same bytes give the same digest");
	prof_sum_init(&s);
	prof_sum_f32s(&s, f, 3);
	prof_sum_final(&s, a);
	prof_sum_init(&s);
	prof_sum_f64s(&s, d, 3);
	prof_sum_final(&s, b);
	ok(!strcmp(a, b), "float32 and float64 of the same values agree");
	prof_sum_init(&s);
	prof_sum_str(&s, "ab");
	prof_sum_str(&s, "c");
	prof_sum_final(&s, a);
	prof_sum_init(&s);
	prof_sum_str(&s, "a");
	prof_sum_str(&s, "bc");
	prof_sum_final(&s, b);
	ok(strcmp(a, b) != 0, "the encoding is length-prefixed");
	x = json_tokener_parse("{\"a\": 1.0000001, \"b\": [1, 2]}");
	y = json_tokener_parse("{\"b\": [1, 2], \"a\": 1.0000002}");
	prof_sum_json(x, a);
	prof_sum_json(y, b);
	ok(!strcmp(a, b), "JSON checksums ignore key order and rounding noise");
	json_object_put(x);
	json_object_put(y);
	/* Larger than the internal buffer: a stream of 10,000 values. */
	prof_sum_init(&s);
	for (i = 0; i < 10000; i++)
		prof_sum_i64(&s, i);
	prof_sum_final(&s, a);
	prof_sum_init(&s);
	for (i = 0; i < 10000; i++)
		prof_sum_i64(&s, i);
	prof_sum_final(&s, b);
	ok(!strcmp(a, b), "long streams are stable");
	/* A known digest keeps the encoding from changing by accident. */
	prof_sum_buffer("", 0, a);
	is_str(a, "899b80c8dc11d5c2a65d67a4c3b6f3bebd2a1e990a9f79ac3d3c380533bb7c08",
	       "the encoding is fixed: sha256 of b and 8 zero bytes");
	return done();
}
