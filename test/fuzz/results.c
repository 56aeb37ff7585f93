/* results.c: fuzz target: sample lines and results documents checked. */
#include <stdint.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "json.h"
#include "sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input is read both ways prof-merge and prof-diff read their
 * inputs: as JSON lines of samples, and as one results document.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prof_err err;
	struct json_object *arr, *doc;

	arr = json_object_new_array();
	if (!arr)
		abort();
	prof_samples_parse_lines((const char *)data, size, "fuzz", arr, &err);
	json_object_put(arr);
	doc = prof_json_parse((const char *)data, size, "fuzz", 1, &err);
	if (doc) {
		if (prof_results_expand(doc, &err) == 0)
			prof_results_check(doc, &err);
		json_object_put(doc);
	}
	return 0;
}
