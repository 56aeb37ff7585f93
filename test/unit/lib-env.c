/* lib-env.c: a sample's environment and its segment key (env.h): what is
 * keyed and what is only recorded, the key checked against its env as
 * JSON, and the fields the caller gives recorded as given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/env.h"
#include "base/json.h"
#include "tap.h"

static struct json_object *
collect(const char *compiler_version, const char *valgrind,
	const char *workload_compiler)
{
	struct prof_env_in in = {0};

	in.compiler = "gcc";
	in.compiler_version = compiler_version;
	in.backend = "cpu";
	in.valgrind = valgrind;
	in.workload_compiler = workload_compiler;
	in.workload_compiler_major = workload_compiler ? "gcc 12" : NULL;
	in.workload_optimized = 1;
	in.workload_isa = "avx2";
	return prof_env_collect(&in);
}

/* Whether s starts with prefix. */
static int
starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The segment key of env, which is freed. */
static char *
key_of(struct json_object *env)
{
	char *k = prof_env_segment(env);

	json_object_put(env);
	return k;
}

static void
set(struct json_object *env, const char *field, const char *value)
{
	json_object_object_add(env, field, json_object_new_string(value));
}

static void
test_collect(void)
{
	struct json_object *env = collect("12.2.0", NULL, NULL);

	ok(env && !strcmp(prof_json_str(env, "compiler"), "gcc") &&
	       !strcmp(prof_json_str(env, "backend"), "cpu"),
	   "the caller's fields are recorded as given");
	is_str(prof_json_str(env, "compiler_major"), "12",
	       "the compiler's major version from its version");
	ok(json_object_object_get_ex(env, "device", NULL) &&
	       !json_object_object_get(env, "device"),
	   "a field not given is null");
	ok(!json_object_object_get_ex(env, "valgrind", NULL) &&
	       !json_object_object_get_ex(env, "workload_compiler", NULL),
	   "valgrind and the workload's build only when given");
	json_object_put(env);
}

static void
test_key(void)
{
	char *base = key_of(collect("12.2.0", NULL, NULL)), *k;
	struct json_object *env;

	ok(base && base[0] == '{', "the key is a JSON object's text");
	k = key_of(collect("12.3.1", NULL, NULL));
	ok(k && !strcmp(k, base),
	   "the compiler's full version is recorded, not keyed");
	free(k);
	k = key_of(collect("13.1.0", NULL, NULL));
	ok(k && strcmp(k, base), "its major version is keyed");
	free(k);
	env = collect("12.2.0", NULL, NULL);
	set(env, "kernel", "0.0.0-other");
	set(env, "cpu_governor", "powersave");
	k = key_of(env);
	ok(k && !strcmp(k, base), "the kernel and the governor are not keyed");
	free(k);
	env = collect("12.2.0", NULL, NULL);
	set(env, "cpu_model", "Fake CPU 9000");
	k = key_of(env);
	ok(k && strcmp(k, base), "the CPU model is keyed");
	free(k);
	k = key_of(collect("12.2.0", "3.19.0", NULL));
	ok(k && strcmp(k, base) && strstr(k, "\"valgrind\":\"3.19.0\""),
	   "valgrind's version is keyed where the env has it");
	free(k);
	k = key_of(collect("12.2.0", NULL, "12.2.0 20220819"));
	ok(k && strcmp(k, base) && strstr(k, "\"workload_optimized\":true") &&
	       !strstr(k, "avx2") && !strstr(k, "20220819"),
	   "the workload's major compiler and optimized flag keyed, its ISA "
	   "and full version not");
	free(k);
	free(base);
}

static void
test_check(void)
{
	struct json_object *env = collect("12.2.0", NULL, NULL), *o;
	char *k = prof_env_segment(env), why[256] = "";

	is_int(prof_env_segment_check(env, k, why, sizeof(why)), 0,
	       "an env's own key checks");
	/* The same key, its members in another order and spelled by another
	 * writer. */
	o = json_tokener_parse(k);
	json_object_object_del(o, "os");
	json_object_object_add(
	    o, "os", json_object_get(json_object_object_get(env, "os")));
	is_int(prof_env_segment_check(
		   env,
		   json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY),
		   why, sizeof(why)),
	       0, "compared as JSON: member order and spacing do not matter");
	set(o, "cpu_model", "No Such CPU 0");
	is_int(prof_env_segment_check(env, json_object_to_json_string(o), why,
				      sizeof(why)),
	       1, "a key of another machine does not");
	ok(starts(why, "cpu_model is \"No Such CPU 0\" in the segment key, "),
	   "and says which field, with both values");
	json_object_object_del(o, "cpu_model");
	prof_env_segment_check(env, json_object_to_json_string(o), why,
			       sizeof(why));
	ok(starts(why, "the segment key lacks cpu_model, which its env gives "
		       "as "),
	   "a key that lacks a keyed field names it");
	set(o, "cpu_model", prof_json_str(env, "cpu_model"));
	set(o, "colour", "blue");
	prof_env_segment_check(env, json_object_to_json_string(o), why,
			       sizeof(why));
	is_str(why,
	       "the segment key has colour (\"blue\"), which its env does not "
	       "key",
	       "a key with a field the env does not key names it");
	is_int(prof_env_segment_check(env, "[1]", why, sizeof(why)), 1,
	       "a key that is no object does not check");
	is_str(why, "the segment key is not a JSON object", "and says so");
	json_object_put(o);
	json_object_put(env);
	free(k);
}

/* The time and the counts of one build: keys equal but for valgrind's. */
static void
test_count_pair(void)
{
	const char *t = "{\"backend\":\"cpu\",\"cpu_model\":\"X\"}";

	is_int(prof_env_segment_count_pair(
		       t, "{\"cpu_model\":\"X\",\"backend\":\"cpu\","
			  "\"valgrind\":\"3.19.0\"}"),
	       1, "a count key beside a time key: a pair, in any key order");
	is_int(prof_env_segment_count_pair(
		       t, "{\"backend\":\"cpu\",\"cpu_model\":\"Y\","
			  "\"valgrind\":\"3.19.0\"}"),
	       0, "another CPU model: no pair");
	is_int(prof_env_segment_count_pair(t, "[1]"), 0,
	       "a key that is no object: no pair");
}

int
main(void)
{
	plan(22);
	test_collect();
	test_key();
	test_check();
	test_count_pair();
	return done();
}
