/* out.h: writing a tool's whole output to a file, stdout, or a device. */
#ifndef PROF_OUT_H
#define PROF_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

/*
 * Write len bytes of text to path: "-" is the stream dash, which the caller
 * gives (flushed; a failed write is an error, named "<stdout>"); any other
 * path through afile.h, so a file appears whole or not at all and a device
 * is written through. Returns 0 or -1 with err filled.
 *
 * The library names no standard stream (test/cli/t0102): the tools call
 * prof_out_write() below, whose dash is their stdout.
 */
int prof_out_write_to(const char *path, FILE *dash, const char *text,
		      size_t len, struct prof_err *err);

/* The pretty-printed text of a JSON document and a newline, written as
 * above. */
struct json_object;
int prof_out_json_to(const char *path, FILE *dash, struct json_object *o,
		     struct prof_err *err);

/*
 * The pretty-printed array of n JSON values and a newline, byte for byte
 * what prof_out_json_to() writes of the whole array, made and written one
 * element at a time: item(arg, k) returns element k (new; released here)
 * or NULL when out of memory. So a writer of 40,000 comparisons holds one
 * of them at a time, not a tree of them all and its text twice. A file
 * still appears whole or not at all; "-" (dash) gets what was written
 * before an error. Returns 0 or -1 with err filled.
 */
int prof_out_json_array_to(const char *path, FILE *dash, size_t n,
			   struct json_object *(*item)(void *arg, size_t k),
			   void *arg, struct prof_err *err);

/* The same, "-" being the caller's stdout. */
static inline int
prof_out_write(const char *path, const char *text, size_t len,
	       struct prof_err *err)
{
	return prof_out_write_to(path, stdout, text, len, err);
}

static inline int
prof_out_json(const char *path, struct json_object *o, struct prof_err *err)
{
	return prof_out_json_to(path, stdout, o, err);
}

static inline int
prof_out_json_array(const char *path, size_t n,
		    struct json_object *(*item)(void *arg, size_t k), void *arg,
		    struct prof_err *err)
{
	return prof_out_json_array_to(path, stdout, n, item, arg, err);
}

#endif /* PROF_OUT_H */
