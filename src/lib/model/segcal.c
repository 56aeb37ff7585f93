/* segcal.c: a fleet baseline's calibration, one per segment. */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/calib.h"
#include "model/segcal.h"

int
prof_segcal_check(struct json_object *results, struct prof_err *err)
{
	return prof_calib_check_map(results, "segment_calibrations", err);
}

/* The calibration in segs of the first segment of the run that the
 * baseline has too (matched by segment key), or NULL. */
static struct json_object *
find_calibration(struct json_object *segs, struct json_object *base_segments,
		 struct json_object *run_segments)
{
	if (!json_object_is_type(run_segments, json_type_object) ||
	    !json_object_is_type(base_segments, json_type_object))
		return NULL;
	json_object_object_foreach(run_segments, rid, rkey)
	{
		const char *key = json_object_get_string(rkey);

		(void)rid;
		json_object_object_foreach(base_segments, bid, bkey)
		{
			struct json_object *cal;

			if (!key || strcmp(key, json_object_get_string(bkey)) ||
			    !json_object_object_get_ex(segs, bid, &cal) || !cal)
				continue;
			return cal;
		}
	}
	return NULL;
}

struct json_object *
prof_segcal_reference(struct json_object *baseline,
		      struct json_object *base_segments,
		      struct json_object *run_segments)
{
	struct json_object *segs = NULL, *found, *view;

	if (!baseline)
		return NULL;
	if (!json_object_object_get_ex(baseline, "segment_calibrations",
				       &segs) ||
	    !json_object_is_type(segs, json_type_object))
		return json_object_get(baseline);
	found = find_calibration(segs, base_segments, run_segments);
	view = json_object_new_object();
	if (!view)
		return NULL;
	json_object_object_foreach(baseline, k, v)
	{
		if (strcmp(k, "calibration") && strcmp(k, "shard_calibrations"))
			json_object_object_add(view, k, json_object_get(v));
	}
	json_object_object_add(view, "calibration", json_object_get(found));
	return view;
}
