/* trace.h: Chrome Trace Event files of workers and commands. */
#ifndef PROF_TRACE_H
#define PROF_TRACE_H

#include <stddef.h>

#include "base/err.h"

/*
 * Complete events ("ph": "X") in microseconds of CLOCK_MONOTONIC, kept in
 * memory and written once, atomically, as {"traceEvents": [...],
 * "displayTimeUnit": "ms", "droppedEvents": N}: the form Perfetto and
 * chrome://tracing load. The cap counts every event, the process's name
 * first among them; events past it are counted (N), not kept, and so are
 * raw events that are not one JSON object.
 */
struct prof_trace;

/* A trace of this process (pid 0: of this process; else of that one). */
struct prof_trace *prof_trace_new(const char *process_name, int pid,
				  size_t cap);
void prof_trace_free(struct prof_trace *t);

/* A complete event on the trace's process and main thread. */
void prof_trace_complete(struct prof_trace *t, const char *name,
			 const char *cat, double start_ms, double end_ms);

/* An event already in JSON (a GPU kernel, say), appended as is; text that
 * is not one JSON object (a cut or garbled event) is counted as dropped. */
void prof_trace_raw(struct prof_trace *t, const char *event_json);

/* Events that did not fit under the cap, or were not JSON objects. */
size_t prof_trace_dropped(const struct prof_trace *t);

/* Write the file. Returns 0, or -1 with err filled. */
int prof_trace_write(struct prof_trace *t, const char *path,
		     struct prof_err *err);

#endif /* PROF_TRACE_H */
