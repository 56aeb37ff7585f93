/* lib-trace.c: Chrome Trace Event files (trace.h): the process's name
 * first, complete events in microseconds, events past the cap and raw
 * text that is not one event counted, not kept, and the file written
 * whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/json.h"
#include "model/trace.h"
#include "tap.h"

static char dir[] = "/tmp/prof-lib-trace.XXXXXX";

static struct json_object *
event(struct json_object *doc, size_t i)
{
	struct json_object *a = NULL;

	json_object_object_get_ex(doc, "traceEvents", &a);
	return json_object_array_get_idx(a, i);
}

int
main(void)
{
	struct prof_trace *t;
	struct prof_err e = {0};
	struct json_object *doc, *ev, *args = NULL, *a = NULL;
	char path[128], msg[512];

	plan(15);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/t.json", dir);

	t = prof_trace_new("prof-time", 42, 4);
	prof_trace_complete(t, "w.a", "timing", 1.5, 4);
	prof_trace_raw(t, "{\"name\": \"kernel\", \"ph\": \"X\", \"ts\": 7, "
			  "\"dur\": 1, \"pid\": 42, \"tid\": 9}");
	prof_trace_complete(t, "w.b", "timing", 4, 5);
	prof_trace_complete(t, "w.c", "timing", 5, 6);
	prof_trace_raw(t, "{\"name\": \"late\"}");
	is_int((long long)prof_trace_dropped(t), 2,
	       "events past the cap are counted");
	is_int(prof_trace_write(t, path, &e), 0, "the file is written");
	prof_trace_free(t);

	doc = json_object_from_file(path);
	ok(doc != NULL, "it is JSON");
	json_object_object_get_ex(doc, "traceEvents", &a);
	is_int((long long)json_object_array_length(a), 4,
	       "the cap holds the process's name and three events");
	ev = event(doc, 0);
	json_object_object_get_ex(ev, "args", &args);
	ok(!strcmp(prof_json_str(ev, "ph"), "M") &&
	       !strcmp(prof_json_str(args, "name"), "prof-time"),
	   "the process's name first, as metadata");
	ev = event(doc, 1);
	ok(!strcmp(prof_json_str(ev, "ph"), "X") &&
	       !strcmp(prof_json_str(ev, "name"), "w.a") &&
	       !strcmp(prof_json_str(ev, "cat"), "timing"),
	   "a complete event with its name and category");
	is_num(prof_json_numf(ev, "ts"), 1500, 1e-9,
	       "its start in microseconds");
	is_num(prof_json_numf(ev, "dur"), 2500, 1e-9,
	       "its duration in microseconds");
	ok(json_object_get_int(json_object_object_get(ev, "pid")) == 42 &&
	       json_object_get_int(json_object_object_get(ev, "tid")) == 42,
	   "on the process given, and its main thread");
	is_str(prof_json_str(event(doc, 2), "name"), "kernel",
	       "a raw event is appended as it is");
	ok(!strcmp(prof_json_str(doc, "displayTimeUnit"), "ms") &&
	       json_object_get_int(
		   json_object_object_get(doc, "droppedEvents")) == 2,
	   "the time unit, and the dropped events said in the file");
	json_object_put(doc);
	unlink(path);

	/* Raw text that is not one event is lost: counted, not kept. */
	t = prof_trace_new("prof-trace", 42, 8);
	prof_trace_raw(t, "{\"name\": \"cut\", \"ph\": \"X\"");
	prof_trace_raw(t, "[1, 2]");
	prof_trace_raw(t, "{\"name\": \"a\"} {\"name\": \"b\"}");
	prof_trace_raw(t, "{\"name\": \"whole\", \"ph\": \"X\"}\n");
	is_int((long long)prof_trace_dropped(t), 3,
	       "a cut event, a non-object and trailing data are dropped");
	is_int(prof_trace_write(t, path, &e), 0, "that trace is written");
	prof_trace_free(t);
	doc = json_object_from_file(path);
	json_object_object_get_ex(doc, "traceEvents", &a);
	ok(a && json_object_array_length(a) == 2 &&
		   !strcmp(prof_json_str(event(doc, 1), "name"), "whole") &&
		   json_object_get_int(
			   json_object_object_get(doc, "droppedEvents")) == 3,
	   "its file holds the whole event and says 3 dropped");
	json_object_put(doc);
	unlink(path);

	snprintf(path, sizeof(path), "%s/no/such/t.json", dir);
	t = prof_trace_new("x", 1, 8);
	ok(prof_trace_write(t, path, &e) == -1 &&
	       prof_err_str(&e, msg, sizeof(msg)) && msg[0],
	   "a file that cannot be written is an error, with its reason");
	prof_trace_free(t);
	rmdir(dir);
	return done();
}
