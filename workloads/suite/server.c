/* server.c: the server's workloads: the dense fixture POSTed over loopback. */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fixture.h"
#include "engine/flatten.h"
#include "engine/svg.h"
#include "server/client.h"
#include "server/plan.h"
#include "server/report.h"
#include "server/server.h"
#include "suite.h"

/*
 * prepare() starts the server in this process, on an ephemeral port of
 * 127.0.0.1, and opens one keep-alive connection; run() is one whole
 * request and its answer on it. The answer must be byte for byte what the
 * engine gives here, outside the clock. A connection the server closed is
 * opened again in validate(), never in run().
 */
struct srv {
	struct pk_server *server;
	struct pk_client client;
	struct pk_response resp;
	struct pk_buf svg;		/* the dense fixture: the body */
	struct pk_buf want;		/* the answer expected */
	const char *path;		/* /api/flatten or /api/plan */
	size_t want_points;
	unsigned long reconnects;
};

/*
 * The fixture's size, the segment's problem size: prepare() checks it, so
 * a change of the fixture cannot go unnoticed.
 */
#define SERVER_PROBLEM "451768"

/*
 * run() is this thread (the client) and the server's polling thread of
 * this process taking turns: its samples' CPU time is the process's
 * (prof-time(1), CONTENTION).
 */
#define SERVER_THREADS 2

static void
srv_teardown(struct prof_ctx *ctx, void *state)
{
	struct srv *s = state;

	(void)ctx;
	if (!s)
		return;
	pk_client_free(&s->client);
	pk_server_stop(s->server);
	pk_response_free(&s->resp);
	pk_buf_free(&s->svg);
	pk_buf_free(&s->want);
	free(s);
}

static int
srv_connect(struct prof_ctx *ctx, struct srv *s)
{
	struct pk_err err;

	if (pk_client_connect(&s->client, pk_server_port(s->server), &err) < 0)
		return prof_fail(ctx, "%s", err.reason);
	return 0;
}

/* The expected answer of path for the fixture, made by the engine here. */
static int
expect(struct prof_ctx *ctx, struct srv *s)
{
	struct pk_flatten f = {PK_FLATTEN_STEP, PK_FLATTEN_TOL};
	struct pk_drawing d;
	struct pk_stats st;
	struct pk_planner pl;
	struct pk_plan plan;
	struct pk_err err;
	int rc = -1;

	pk_drawing_init(&d);
	if (suite_parse(ctx, &s->svg, 0, &d) < 0)
		goto out;
	pk_drawing_stats(&d, &st);
	s->want_points = st.points;
	if (!strcmp(s->path, "/api/plan")) {
		pk_planner_init(&pl);
		if (pk_plan_make(&pl, &d, &plan, &err) < 0) {
			prof_fail(ctx, "plan: %s", err.reason);
			pk_planner_free(&pl);
			goto out;
		}
		pk_planner_free(&pl);
		pk_plan_json(&plan, &s->want);
	} else {
		pk_report_flatten(&d, &f, &s->want);
	}
	if (s->want.oom) {
		prof_fail(ctx, "out of memory");
		goto out;
	}
	rc = 0;
out:
	pk_drawing_free(&d);
	return rc;
}

static int
srv_prepare(struct prof_ctx *ctx, void **state, const char *path)
{
	struct pk_server_opts o = {.threads = 1, .timeout_s = 3600,
				    .request_timeout_s = 3600};
	struct srv *s = calloc(1, sizeof(*s));
	struct pk_err err;

	if (!s)
		return prof_fail(ctx, "out of memory");
	*state = s;
	pk_client_init(&s->client);
	pk_response_init(&s->resp);
	pk_buf_init(&s->svg);
	pk_buf_init(&s->want);
	s->path = path;
	if (suite_fixture(ctx, pk_fixture_dense_circles, &s->svg) < 0)
		return -1;
	if (s->svg.len != strtoul(SERVER_PROBLEM, NULL, 10))
		return prof_fail(ctx, "the fixture has %zu bytes, not "
				      SERVER_PROBLEM " (the problem size)",
				 s->svg.len);
	if (expect(ctx, s) < 0)
		return -1;
	if (pk_server_start(&o, &s->server, &err) < 0)
		return prof_fail(ctx, "%s", err.reason);
	return srv_connect(ctx, s);
}

static int
flatten_prepare(struct prof_ctx *ctx, void **state)
{
	return srv_prepare(ctx, state, "/api/flatten");
}

static int
plan_prepare(struct prof_ctx *ctx, void **state)
{
	return srv_prepare(ctx, state, "/api/plan");
}

static int
srv_run(struct prof_ctx *ctx, void *state)
{
	struct srv *s = state;
	struct pk_err err;

	if (pk_client_request(&s->client, "POST", s->path, "image/svg+xml",
			      s->svg.data, s->svg.len, &s->resp, &err) < 0)
		return prof_fail(ctx, "POST %s: %s", s->path, err.reason);
	return 0;
}

/* An integer member of o that must equal want. */
static int
expect_int(struct prof_ctx *ctx, json_object *o, const char *key,
	   double want)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return prof_fail(ctx, "the answer has no whole number '%s'",
				 key);
	return suite_expect(ctx, key, (double)json_object_get_int64(v), want);
}

static int
srv_validate(struct prof_ctx *ctx, void *state)
{
	struct srv *s = state;
	const struct pk_response *r = &s->resp;
	json_object *o = NULL, *v;
	char hex[PROF_SUM_HEX];
	int plan = !strcmp(s->path, "/api/plan"), rc = -1;

	if (r->status != 200) {
		prof_fail(ctx, "POST %s: status %d: %.200s", s->path, r->status,
			  r->body.data ? r->body.data : "");
		goto out;
	}
	o = json_tokener_parse(r->body.data ? r->body.data : "");
	if (!o || !json_object_is_type(o, json_type_object)) {
		prof_fail(ctx, "POST %s: the answer is not a JSON object",
			  s->path);
		goto out;
	}
	if (expect_int(ctx, o, "paths", PK_DENSE_CIRCLES) ||
	    expect_int(ctx, o, "points", (double)s->want_points))
		goto out;
	if (plan ? expect_int(ctx, o, "strokes", PK_DENSE_CIRCLES) ||
			   expect_int(ctx, o, "moves", PK_DENSE_CIRCLES) :
		   expect_int(ctx, o, "circles", PK_DENSE_CIRCLES))
		goto out;
	if (!plan && (!json_object_object_get_ex(o, "pens", &v) ||
		      expect_int(ctx, v, "#000000", PK_DENSE_CIRCLES)))
		goto out;
	if (r->body.len != s->want.len ||
	    memcmp(r->body.data, s->want.data, s->want.len) != 0) {
		prof_fail(ctx, "POST %s: the answer is not the engine's: "
			       "%.200s",
			  s->path, r->body.data);
		goto out;
	}
	if (prof_sum_buffer(r->body.data, r->body.len, hex) < 0) {
		prof_fail(ctx, "out of memory");
		goto out;
	}
	prof_output_checksum(ctx, hex);
	prof_metric(ctx, "paths", PK_DENSE_CIRCLES);
	prof_metric(ctx, "request_bytes", (double)s->svg.len);
	prof_metric(ctx, "response_bytes", (double)r->body.len);
	/* Outside the clock: a closed connection is opened again here. */
	if (!pk_client_alive(&s->client)) {
		s->reconnects++;
		if (srv_connect(ctx, s) < 0)
			goto out;
	}
	prof_metric(ctx, "reconnects", (double)s->reconnects);
	rc = 0;
out:
	json_object_put(o);
	return rc;
}

static const struct prof_workload flatten_roundtrip = {
	.id = "server.flatten_roundtrip",
	.version = 1,
	.category = "server",
	.fixture = "dense-circles-8000-seed-20260710",
	.quick = 1,
	.backends = PROF_CPU,
	.warning_floor_ms = 5,
	.dtype = "bytes",
	.problem_size = SERVER_PROBLEM,
	.tile = "none",
	.prepare = flatten_prepare,
	.run = srv_run,
	.threads = SERVER_THREADS,
	.validate = srv_validate,
	.teardown = srv_teardown,
};
PROF_WORKLOAD(flatten_roundtrip)

static const struct prof_workload plan_roundtrip = {
	.id = "server.plan_roundtrip",
	.version = 1,
	.category = "server",
	.fixture = "dense-circles-8000-seed-20260710",
	.quick = 1,
	.backends = PROF_CPU,
	.warning_floor_ms = 5,
	.dtype = "bytes",
	.problem_size = SERVER_PROBLEM,
	.tile = "none",
	.prepare = plan_prepare,
	.run = srv_run,
	.threads = SERVER_THREADS,
	.validate = srv_validate,
	.teardown = srv_teardown,
};
PROF_WORKLOAD(plan_roundtrip)
