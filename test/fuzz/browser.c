/* browser.c: fuzz target: Playwright rows read as browser samples. */
#include <stdint.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "model/browser.h"
#include "model/sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every sample made from rows that were accepted is a valid sample. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prof_err err;
	struct json_object *arr;
	long n;
	size_t i;

	arr = json_object_new_array();
	if (!arr)
		abort();
	n = prof_browser_parse_lines((const char *)data, size, "fuzz", arr,
				     &err);
	if (n >= 0)
		for (i = 0; i < json_object_array_length(arr); i++)
			if (prof_sample_check(json_object_array_get_idx(arr, i),
					      "", &err) < 0)
				abort();
	json_object_put(arr);
	return 0;
}
