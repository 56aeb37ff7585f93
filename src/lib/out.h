/* out.h: writing a tool's whole output to a file, stdout, or a device. */
#ifndef PROF_OUT_H
#define PROF_OUT_H

#include <stddef.h>

#include "err.h"

/*
 * Write len bytes of text to path: "-" is stdout (flushed; a failed write
 * is an error); any other path through afile.h, so a file appears whole or
 * not at all and a device is written through. Returns 0 or -1 with err
 * filled.
 */
int prof_out_write(const char *path, const char *text, size_t len,
		   struct prof_err *err);

/* The pretty-printed text of a JSON document and a newline, written as
 * above. */
struct json_object;
int prof_out_json(const char *path, struct json_object *o,
		  struct prof_err *err);

#endif /* PROF_OUT_H */
