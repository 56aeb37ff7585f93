/* env.c: collecting the environment and computing the segment key. */
#include <ctype.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/env.h"
#include "base/json.h"

/* The keyed field names, NULL-terminated. */
static const char *const keyed[] = {
	"os", "distro", "distro_version", "machine", "cpu_model", "compiler",
	"compiler_major", "backend", "device", "device_cc", "device_sms",
	"device_memory_bytes", "cuda_driver", "cuda_runtime", "browser",
	"dtype", "problem_size", "tile", NULL,
};

struct host {
	int done;
	char os[80];
	char kernel[160];
	char machine[80];
	char distro[64];
	char distro_version[64];
	char distro_name[128];
	char cpu_model[256];
	char governor[64];
	long cpus;
};

static struct host host;

static void
trim(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (*s && isspace((unsigned char)*s))
		memmove(s, s + 1, strlen(s));
}

/* KEY=value or KEY="value" from os-release. */
static void
os_release_value(const char *line, const char *key, char *out, size_t n)
{
	size_t k = strlen(key);
	const char *v;
	size_t len;

	if (strncmp(line, key, k) != 0 || line[k] != '=')
		return;
	v = line + k + 1;
	len = strcspn(v, "\n");
	if (len >= 2 && (v[0] == '"' || v[0] == '\'') && v[len - 1] == v[0]) {
		v++;
		len -= 2;
	}
	snprintf(out, n, "%.*s", (int)len, v);
}

static void
read_os_release(void)
{
	FILE *fp = fopen("/etc/os-release", "r");
	char line[512];

	if (!fp)
		fp = fopen("/usr/lib/os-release", "r");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		os_release_value(line, "ID", host.distro, sizeof(host.distro));
		os_release_value(line, "VERSION_ID", host.distro_version,
				 sizeof(host.distro_version));
		os_release_value(line, "PRETTY_NAME", host.distro_name,
				 sizeof(host.distro_name));
	}
	fclose(fp);
}

/* "model name" on x86; the implementer and part on Arm. */
static void
read_cpu_model(void)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[512], impl[64] = "", part[64] = "";

	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		trim(line);
		trim(colon + 1);
		if (!host.cpu_model[0] &&
		    (!strcmp(line, "model name") || !strcmp(line, "Model") ||
		     !strcmp(line, "cpu model")))
			snprintf(host.cpu_model, sizeof(host.cpu_model), "%s",
				 colon + 1);
		else if (!impl[0] && !strcmp(line, "CPU implementer"))
			snprintf(impl, sizeof(impl), "%s", colon + 1);
		else if (!part[0] && !strcmp(line, "CPU part"))
			snprintf(part, sizeof(part), "%s", colon + 1);
	}
	fclose(fp);
	if (!host.cpu_model[0] && impl[0])
		snprintf(host.cpu_model, sizeof(host.cpu_model),
			 "implementer %s part %s", impl, part);
	if (!host.cpu_model[0])
		snprintf(host.cpu_model, sizeof(host.cpu_model), "unknown");
}

static void
read_governor(void)
{
	FILE *fp = fopen(
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "r");

	if (!fp)
		return;
	if (fgets(host.governor, sizeof(host.governor), fp))
		trim(host.governor);
	fclose(fp);
}

static void
host_collect(void)
{
	struct utsname u;
	size_t i;

	if (host.done)
		return;
	if (uname(&u) == 0) {
		snprintf(host.os, sizeof(host.os), "%s", u.sysname);
		for (i = 0; host.os[i]; i++)
			host.os[i] = (char)tolower((unsigned char)host.os[i]);
		snprintf(host.kernel, sizeof(host.kernel), "%s", u.release);
		snprintf(host.machine, sizeof(host.machine), "%s", u.machine);
	}
	read_os_release();
	read_cpu_model();
	read_governor();
	host.cpus = sysconf(_SC_NPROCESSORS_ONLN);
	host.done = 1;
}

static void
put_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key,
			       v && v[0] ? json_object_new_string(v) : NULL);
}

static void
put_int(struct json_object *o, const char *key, long long v)
{
	json_object_object_add(o, key, v ? json_object_new_int64(v) : NULL);
}

struct json_object *
prof_env_collect(const struct prof_env_in *in)
{
	struct json_object *o = json_object_new_object();
	char major[32] = "", libc[64];

	if (!o)
		return NULL;
	host_collect();
	put_str(o, "os", host.os);
	put_str(o, "distro", host.distro);
	put_str(o, "distro_version", host.distro_version);
	put_str(o, "distro_name", host.distro_name);
	put_str(o, "kernel", host.kernel);
	put_str(o, "machine", host.machine);
	put_str(o, "cpu_model", host.cpu_model);
	put_int(o, "cpu_count", host.cpus);
	put_str(o, "cpu_governor", host.governor);
	snprintf(libc, sizeof(libc), "glibc %s", gnu_get_libc_version());
	put_str(o, "libc", libc);
	put_str(o, "compiler", in->compiler);
	put_str(o, "compiler_version", in->compiler_version);
	if (in->compiler_version)
		snprintf(major, sizeof(major), "%.*s",
			 (int)strcspn(in->compiler_version, "."),
			 in->compiler_version);
	put_str(o, "compiler_major", major);
	put_str(o, "cflags", in->cflags);
	put_str(o, "backend_requested", in->backend_requested);
	put_str(o, "backend", in->backend);
	put_str(o, "device", in->device);
	put_str(o, "device_cc", in->device_cc);
	put_int(o, "device_sms", in->device_sms);
	put_int(o, "device_memory_bytes", in->device_memory_bytes);
	put_str(o, "cuda_driver", in->cuda_driver);
	put_str(o, "cuda_runtime", in->cuda_runtime);
	put_str(o, "browser", in->browser);
	put_str(o, "dtype", in->dtype);
	put_str(o, "problem_size", in->problem_size);
	put_str(o, "tile", in->tile);
	if (in->valgrind)
		put_str(o, "valgrind", in->valgrind);
	if (in->workload_compiler) {
		put_str(o, "workload_compiler", in->workload_compiler);
		put_str(o, "workload_compiler_major",
			in->workload_compiler_major);
		json_object_object_add(
			o, "workload_optimized",
			json_object_new_boolean(in->workload_optimized));
		json_object_object_add(
			o, "workload_isa",
			json_object_new_string(in->workload_isa ?
						       in->workload_isa :
						       ""));
	}
	if (in->program)
		put_str(o, "program", in->program);
	if (in->build_facts)
		json_object_object_add(o, "build_facts",
				       json_object_get(in->build_facts));
	return o;
}

/* The keys only instruction counts have (prof-count's samples key them;
 * prof_env_segment_count_pair()), NULL-terminated. */
static const char *const count_keys[] = {"valgrind", NULL};

/* The keyed fields of env as an object (prof_env_segment()'s, before it
 * is made text); NULL when out of memory. */
static struct json_object *
segment_object(struct json_object *env)
{
	static const char *const where_present[] = {
		"valgrind", "workload_compiler_major", "workload_optimized",
		"gbench_build_type", NULL,
	};
	struct json_object *key = json_object_new_object();
	size_t i;

	if (!key)
		return NULL;
	for (i = 0; keyed[i]; i++) {
		struct json_object *v = NULL;

		json_object_object_get_ex(env, keyed[i], &v);
		json_object_object_add(key, keyed[i],
				       json_object_get(v));
	}
	/* Keyed only where present, so that the keys of every sample that
	 * lacks them stay what they were. */
	for (i = 0; where_present[i]; i++) {
		struct json_object *v = NULL;

		if (json_object_object_get_ex(env, where_present[i], &v) && v)
			json_object_object_add(key, where_present[i],
					       json_object_get(v));
	}
	return key;
}

char *
prof_env_segment(struct json_object *env)
{
	struct json_object *key = segment_object(env);
	char *text;

	if (!key)
		return NULL;
	text = prof_json_canonical(key);
	json_object_put(key);
	return text;
}

/* A value for a message: its JSON text, cut at 80 bytes. */
static const char *
value_text(struct json_object *v, char *buf, size_t n)
{
	const char *t = v ? json_object_to_json_string_ext(
				    v, JSON_C_TO_STRING_PLAIN |
					       JSON_C_TO_STRING_NOSLASHESCAPE) :
			    "null";

	snprintf(buf, n, "%.80s%s", t, strlen(t) > 80 ? "..." : "");
	return buf;
}

int
prof_env_segment_check(struct json_object *env, const char *segment,
		       char *why, size_t n)
{
	struct json_object *want = segment_object(env), *got;
	struct json_object *g = NULL, *w = NULL;
	char a[96], b[96];
	int rc = 1;

	if (!want)
		return -1;
	got = segment ? json_tokener_parse(segment) : NULL;
	if (!json_object_is_type(got, json_type_object)) {
		snprintf(why, n, "the segment key is not a JSON object");
		goto out;
	}
	/* Compared as JSON, not as text: a key any canonical writer made
	 * (jq's tojson too) is the same key. */
	json_object_object_foreach(want, k, wv)
	{
		if (!json_object_object_get_ex(got, k, &g)) {
			snprintf(why, n,
				 "the segment key lacks %s, which its env "
				 "gives as %s",
				 k, value_text(wv, a, sizeof(a)));
			goto out;
		}
		if (!json_object_equal(g, wv)) {
			snprintf(why, n,
				 "%s is %s in the segment key, %s in its env",
				 k, value_text(g, a, sizeof(a)),
				 value_text(wv, b, sizeof(b)));
			goto out;
		}
	}
	json_object_object_foreach(got, gk, gv)
	{
		if (!json_object_object_get_ex(want, gk, &w)) {
			snprintf(why, n,
				 "the segment key has %s (%s), which its env "
				 "does not key",
				 gk, value_text(gv, a, sizeof(a)));
			goto out;
		}
	}
	rc = 0;
out:
	json_object_put(got);
	json_object_put(want);
	return rc;
}

/* A segment key's object without the count keys; NULL when it is not a
 * JSON object or out of memory. */
static struct json_object *
without_count_keys(const char *segment)
{
	struct json_object *o = segment ? json_tokener_parse(segment) : NULL;
	size_t i;

	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return NULL;
	}
	for (i = 0; count_keys[i]; i++)
		json_object_object_del(o, count_keys[i]);
	return o;
}

int
prof_env_segment_count_pair(const char *a, const char *b)
{
	struct json_object *x = without_count_keys(a);
	struct json_object *y = x ? without_count_keys(b) : NULL;
	int rc = x && y && json_object_equal(x, y);

	json_object_put(x);
	json_object_put(y);
	return rc;
}
