/* json.c: fuzz target: libprof's strict JSON reader and canonical writer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static int
drop(void *arg, struct json_object *v, struct prof_err *err)
{
	(void)arg;
	(void)err;
	json_object_put(v);
	return 0;
}

/*
 * Whatever the reader accepts, the canonical writer turns into text that
 * the reader accepts again, and canonical text is a fixed point.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prof_err err;
	struct json_object *o, *again;
	char *text, *text2;

	prof_json_lines((const char *)data, size, "fuzz", drop, NULL, &err);
	o = prof_json_parse((const char *)data, size, "fuzz", 1, &err);
	if (!o)
		return 0;
	text = prof_json_canonical(o);
	if (!text)
		abort();
	again = prof_json_parse(text, strlen(text), "canonical", 1, &err);
	if (!again)
		abort();	/* the writer wrote what the reader refuses */
	text2 = prof_json_canonical(again);
	if (!text2 || strcmp(text, text2) != 0)
		abort();	/* canonical text is not canonical */
	free(text2);
	free(text);
	json_object_put(again);
	json_object_put(o);
	return 0;
}
