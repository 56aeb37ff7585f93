/* out.h: writing a tool's whole output to a file, stdout, or a device. */
#ifndef PROF_OUT_H
#define PROF_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"

/*
 * Write len bytes of text to path: "-" is the stream dash, which the caller
 * gives (flushed; a failed write is an error, named "<stdout>"); any other
 * path through afile.h, so a file appears whole or not at all and a device
 * is written through. Returns 0 or -1 with err filled.
 *
 * The library names no standard stream (test/cli/t1521): the tools call
 * prof_out_write() below, whose dash is their stdout.
 */
int prof_out_write_to(const char *path, FILE *dash, const char *text,
		      size_t len, struct prof_err *err);

/* The pretty-printed text of a JSON document and a newline, written as
 * above. */
struct json_object;
int prof_out_json_to(const char *path, FILE *dash, struct json_object *o,
		     struct prof_err *err);

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

#endif /* PROF_OUT_H */
