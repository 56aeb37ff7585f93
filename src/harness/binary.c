/* binary.c: what a workload binary knows of itself (its name, its build,
 * its GPU) and how it prints a sample line; below worker.c and phases.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/prof.h"
#include "internal.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#if defined(__clang__)
const char prof_build_compiler[] = "clang";
const char prof_build_compiler_version[] = STR(__clang_major__) "." STR(
	__clang_minor__) "." STR(__clang_patchlevel__);
#elif defined(__GNUC__)
const char prof_build_compiler[] = "gcc";
const char prof_build_compiler_version[] = STR(__GNUC__) "." STR(
	__GNUC_MINOR__) "." STR(__GNUC_PATCHLEVEL__);
#else
const char prof_build_compiler[] = "cc";
const char prof_build_compiler_version[] = "unknown";
#endif
#ifndef PROF_BUILD_CFLAGS
#define PROF_BUILD_CFLAGS ""
#endif
const char prof_build_cflags[] = PROF_BUILD_CFLAGS;

const char *prof_progname = "workloads";

/* Print one JSON value as a line; a failed write is fatal. */
int
prof_emit(struct json_object *o)
{
	const char *text = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF ||
	    fflush(stdout) == EOF) {
		fprintf(stderr, "%s: cannot write to stdout: %s\n",
			prof_progname, strerror(errno));
		exit(PROF_EXIT_FAILURE);
	}
	return 0;
}

/* Fill dev from the GPU backend; -1 with why when there is none. */
int
prof_gpu_probe(struct prof_gpu_device *dev, char *why, size_t n)
{
	const struct prof_gpu_ops *gpu = prof_gpu_backend();

	memset(dev, 0, sizeof(*dev));
	if (!gpu) {
		snprintf(why, n,
			 "'%s' has no GPU backend: it was built without "
			 "the CUDA session (no nvcc at build time, or HAVE_CUDA=0)",
			 prof_progname);
		return -1;
	}
	return gpu->probe(dev, why, n);
}
