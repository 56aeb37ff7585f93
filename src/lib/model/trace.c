/* trace.c: collecting and writing Chrome Trace Event JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/afile.h"
#include "base/json.h"
#include "model/trace.h"

struct prof_trace {
	struct json_object *events;	/* array */
	size_t cap;
	size_t dropped;
	int pid;
	int tid;
};

struct prof_trace *
prof_trace_new(const char *process_name, int pid, size_t cap)
{
	struct prof_trace *t = calloc(1, sizeof(*t));
	struct json_object *m, *args;

	if (!t)
		return NULL;
	t->events = json_object_new_array();
	t->cap = cap;
	t->pid = pid ? pid : (int)getpid();
	t->tid = pid ? pid : (int)syscall(SYS_gettid);
	m = json_object_new_object();
	json_object_object_add(m, "name", json_object_new_string("process_name"));
	json_object_object_add(m, "ph", json_object_new_string("M"));
	json_object_object_add(m, "pid", json_object_new_int(t->pid));
	json_object_object_add(m, "tid", json_object_new_int(t->tid));
	args = json_object_new_object();
	json_object_object_add(args, "name",
			       json_object_new_string(process_name));
	json_object_object_add(m, "args", args);
	json_object_array_add(t->events, m);
	return t;
}

void
prof_trace_free(struct prof_trace *t)
{
	if (!t)
		return;
	json_object_put(t->events);
	free(t);
}

static int
room(struct prof_trace *t)
{
	if (json_object_array_length(t->events) >= t->cap) {
		t->dropped++;
		return 0;
	}
	return 1;
}

void
prof_trace_complete(struct prof_trace *t, const char *name, const char *cat,
		    double start_ms, double end_ms)
{
	struct json_object *e;

	if (!t || !room(t))
		return;
	e = json_object_new_object();
	json_object_object_add(e, "name", json_object_new_string(name));
	json_object_object_add(e, "cat", json_object_new_string(cat));
	json_object_object_add(e, "ph", json_object_new_string("X"));
	json_object_object_add(e, "ts", prof_json_double(start_ms * 1e3));
	json_object_object_add(e, "dur",
			       prof_json_double((end_ms - start_ms) * 1e3));
	json_object_object_add(e, "pid", json_object_new_int(t->pid));
	json_object_object_add(e, "tid", json_object_new_int(t->tid));
	json_object_array_add(t->events, e);
}

/* event_json as a JSON object, read by prof's strict reader (json.h:
 * trailing data, bytes that are not UTF-8 and the like refused); else
 * NULL. */
static struct json_object *
parse_event(const char *event_json)
{
	struct prof_err err = {0};
	struct json_object *e;

	if (!event_json)
		return NULL;
	e = prof_json_parse(event_json, strlen(event_json), "event", 1, &err);
	if (e && !json_object_is_type(e, json_type_object)) {
		json_object_put(e);
		e = NULL;
	}
	return e;
}

void
prof_trace_raw(struct prof_trace *t, const char *event_json)
{
	struct json_object *e;

	if (!t || !room(t))
		return;
	e = parse_event(event_json);
	if (!e) {
		t->dropped++;	/* not an event: lost, and said so */
		return;
	}
	json_object_array_add(t->events, e);
}

size_t
prof_trace_dropped(const struct prof_trace *t)
{
	return t ? t->dropped : 0;
}

int
prof_trace_write(struct prof_trace *t, const char *path, struct prof_err *err)
{
	struct json_object *doc = json_object_new_object();
	const char *text;
	int rc;

	json_object_object_add(doc, "traceEvents", json_object_get(t->events));
	json_object_object_add(doc, "displayTimeUnit",
			       json_object_new_string("ms"));
	json_object_object_add(doc, "droppedEvents",
			       json_object_new_int64((int64_t)t->dropped));
	text = json_object_to_json_string_ext(
		doc, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	rc = prof_afile_write(path, text, strlen(text), err);
	json_object_put(doc);
	return rc;
}
