/* pk-server-test.c: the server library in process, against its client (TAP). */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/compose.h"
#include "engine/fixture.h"
#include "engine/svg.h"
#include "server/assets.h"
#include "server/client.h"
#include "server/plan.h"
#include "server/report.h"
#include "server/server.h"
#include "tap.h"

static const char bad_svg[] =
	"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10mm\"\n"
	"     height=\"10mm\" viewBox=\"0 0 10 10\">\n"
	"<g stroke=\"black\">\n"
	"  <circle cx=\"5\" cy=\"5\" r=\"2\"/>\n"
	"</g>\n"
	"<line x1=\"0\" y1=\"0\" x2=\"1\" y2=\"1\" stroke=\"red\"/>\n"
	"<g>\n"
	"</svg>\n";

static struct pk_client cl;
static struct pk_response resp;
static struct pk_err err;

/* One request on cl; the status, or -1 (with the reason on stderr). */
static int
req(const char *method, const char *path, const void *body, size_t len)
{
	if (pk_client_request(&cl, method, path, body ? "image/svg+xml" : NULL,
			      body, len, &resp, &err) < 0) {
		fprintf(stderr, "# %s %s: %s\n", method, path, err.reason);
		return -1;
	}
	return resp.status;
}

static int
body_is(const void *want, size_t len)
{
	return resp.body.len == len && !memcmp(resp.body.data, want, len);
}

static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static int
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n++;
	closedir(d);
	return n;
}

/* Concurrent uploads and previews: every answer whole, none torn. */
struct worker {
	int port, id, bad;
	char svg[1024];
};

static void *
work(void *arg)
{
	struct worker *w = arg;
	struct pk_client c;
	struct pk_response r;
	struct pk_err e;
	int i;

	pk_client_init(&c);
	pk_response_init(&r);
	if (pk_client_connect(&c, w->port, &e) < 0) {
		w->bad++;
		goto out;
	}
	for (i = 0; i < 25; i++) {
		size_t n;

		if (pk_client_request(&c, "POST", "/api/flatten", NULL, w->svg,
				      strlen(w->svg), &r, &e) < 0 ||
		    r.status != 200) {
			w->bad++;
			continue;
		}
		if (pk_client_request(&c, "GET", "/api/preview.svg", NULL,
				      NULL, 0, &r, &e) < 0 ||
		    r.status != 200 || !strstr(r.body.data, "</svg>")) {
			w->bad++;
			continue;
		}
		/* Some worker's drawing: 1 to 4 circles, all of it. */
		n = count(r.body.data, "<circle");
		if (n < 1 || n > 4)
			w->bad++;
	}
out:
	pk_client_free(&c);
	pk_response_free(&r);
	return NULL;
}

static void
concurrent(void)
{
	struct pk_server_opts o = {.threads = 4};
	struct pk_server_stats st;
	struct pk_server *s;
	struct worker w[4];
	pthread_t t[4];
	int i, k, bad = 0;

	if (!ok(pk_server_start(&o, &s, &err) == 0,
		"a server with a pool of 4 threads")) {
		ok(0, "4 clients upload and preview at once");
		ok(0, "every upload stored");
		return;
	}
	for (i = 0; i < 4; i++) {
		char *p = w[i].svg;

		w[i].port = pk_server_port(s);
		w[i].id = i;
		w[i].bad = 0;
		p += sprintf(p, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
				"width=\"50mm\" height=\"50mm\" "
				"viewBox=\"0 0 50 50\">\n");
		for (k = 0; k <= i; k++)
			p += sprintf(p, "<circle cx=\"%d\" cy=\"10\" r=\"3\" "
					"stroke=\"blue\"/>\n",
				     10 * (k + 1));
		strcpy(p, "</svg>\n");
		pthread_create(&t[i], NULL, work, &w[i]);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		bad += w[i].bad;
	}
	is_int(bad, 0, "4 clients upload and preview at once, 200 "
		       "requests, every answer whole");
	pk_server_stats(s, &st);
	is_int((long long)st.uploads, 100, "every upload stored");
	pk_server_stop(s);
}

int
main(void)
{
	struct pk_server_opts small = {.max_body = 1000, .max_points = 1000};
	struct pk_server *s = NULL, *s2 = NULL, *s3;
	struct pk_server_stats st;
	struct pk_drawing d;
	struct pk_buf fix, want;
	struct pk_planner planner;
	struct pk_plan pl;
	char msg[256], *big;
	int port, fds, i, started = 1;

	plan(48);
	pk_client_init(&cl);
	pk_response_init(&resp);
	pk_drawing_init(&d);
	pk_buf_init(&fix);
	pk_buf_init(&want);
	if (pk_fixture_dense_circles(&fix) < 0 ||
	    pk_svg_parse(fix.data, fix.len, NULL, &d, &err) < 0)
		return 1;

	fds = open_fds();
	for (i = 0; i < 20; i++) {
		if (pk_server_start(NULL, &s, &err) < 0) {
			started = 0;
			break;
		}
		pk_server_stop(s);
	}
	ok(started, "20 servers start and stop");
	is_int(open_fds(), fds, "and leave no descriptor open");

	ok(pk_server_start(NULL, &s, &err) == 0, "start on port 0");
	port = pk_server_port(s);
	ok(port > 0 && port < 65536, "an ephemeral port is chosen");
	s3 = (struct pk_server *)1;
	{
		struct pk_server_opts taken = {.port = port};

		snprintf(msg, sizeof(msg),
			 "cannot listen on 127.0.0.1:%d: Address already in "
			 "use",
			 port);
		ok(pk_server_start(&taken, &s3, &err) < 0 && !s3,
		   "a port in use is an error");
		is_str(err.reason, msg, "saying so");
	}
	ok(pk_client_connect(&cl, port, &err) == 0, "connect");

	is_int(req("GET", "/", NULL, 0), 200, "GET /: 200");
	is_str(resp.content_type, "text/html; charset=utf-8", "text/html");
	ok(body_is(pk_asset_viewer_html, pk_asset_viewer_html_len),
	   "the viewer page, as built in");
	is_int(req("GET", "/viewer.js", NULL, 0), 200, "GET /viewer.js: 200");
	ok(!strcmp(resp.content_type, "text/javascript; charset=utf-8") &&
		   body_is(pk_asset_viewer_js, pk_asset_viewer_js_len),
	   "the script, text/javascript");
	is_int(req("HEAD", "/viewer.js", NULL, 0), 200, "HEAD /viewer.js");
	is_int((long long)resp.body.len, 0, "has no body");
	is_int(req("GET", "/fixtures/dense-circles.svg", NULL, 0), 200,
	       "GET the dense fixture");
	ok(!strcmp(resp.content_type, "image/svg+xml") &&
		   body_is(fix.data, fix.len),
	   "image/svg+xml, the engine's fixture");

	is_int(req("GET", "/api/preview.svg", NULL, 0), 404,
	       "no preview before an upload: 404");
	ok(body_is("{\"error\":\"nothing uploaded yet: POST an SVG to "
		   "/api/flatten first\"}\n",
		   68),
	   "saying so");

	is_int(req("POST", "/api/flatten", fix.data, fix.len), 200,
	       "POST /api/flatten: 200");
	pk_report_flatten(&d, &(struct pk_flatten){PK_FLATTEN_STEP,
						   PK_FLATTEN_TOL},
			  &want);
	ok(!strcmp(resp.content_type, "application/json") &&
		   body_is(want.data, want.len),
	   "the engine's report, as plotkit flatten prints it");
	is_int(req("GET", "/api/preview.svg", NULL, 0), 200, "then a preview");
	pk_buf_reset(&want);
	pk_compose_visible(&d, &want, NULL);
	ok(body_is(want.data, want.len), "the upload, composed");
	is_int((long long)count(resp.body.data, "<circle"), PK_DENSE_CIRCLES,
	       "8000 circles");

	is_int(req("POST", "/api/plan", fix.data, fix.len), 200,
	       "POST /api/plan: 200");
	pk_buf_reset(&want);
	pk_planner_init(&planner);
	pk_plan_make(&planner, &d, &pl, &err);
	pk_planner_free(&planner);
	pk_plan_json(&pl, &want);
	ok(body_is(want.data, want.len), "the engine's plan");

	is_int(req("POST", "/api/flatten", bad_svg, sizeof(bad_svg) - 1), 400,
	       "a bad SVG: 400");
	is_str(resp.body.data,
	       "{\"error\":\"request:7: unclosed element 'g'\"}\n",
	       "with the line and the reason");
	is_int(req("POST", "/api/flatten", "", 0), 400, "an empty body: 400");
	is_str(resp.body.data, "{\"error\":\"request:1: document is empty\"}\n",
	       "saying so");
	is_int(req("POST", "/api/flatten?step=x", fix.data, fix.len), 400,
	       "a bad step: 400");
	is_int(req("GET", "/api/preview.svg", NULL, 0), 200,
	       "failed uploads leave the last one");
	is_int((long long)count(resp.body.data, "<circle"), PK_DENSE_CIRCLES,
	       "in place");

	is_int(req("GET", "/nope", NULL, 0), 404, "an unknown path: 404");
	is_int(req("DELETE", "/api/plan", NULL, 0), 405,
	       "DELETE /api/plan: 405");
	is_str(resp.allow, "POST", "Allow: POST");
	is_int(req("POST", "/", "x", 1), 405, "POST /: 405");
	is_str(resp.allow, "GET, HEAD", "Allow: GET, HEAD");

	pk_server_stats(s, &st);
	ok(st.connections == 1 && st.requests == 15,
	   "15 requests on one keep-alive connection");

	/* Limits: body and points. */
	ok(pk_server_start(&small, &s2, &err) == 0 &&
		   pk_client_connect(&cl, pk_server_port(s2), &err) == 0,
	   "a server with a 1000-byte, 1000-point limit");
	big = malloc(1001);
	memset(big, ' ', 1001);
	is_int(req("POST", "/api/flatten", big, 1001), 413,
	       "1001 bytes: 413");
	is_str(resp.body.data, "{\"error\":\"request body of 1001 bytes is "
			       "over the limit of 1000 bytes\"}\n",
	       "saying why");
	free(big);
	pk_client_connect(&cl, pk_server_port(s2), &err);
	{
		/* A circle of 900 mm: 11,000 chords of 0.5 mm, and more. */
		static const char many[] =
			"<svg xmlns=\"http://www.w3.org/2000/svg\" "
			"width=\"10mm\" height=\"10mm\">\n"
			"<circle r=\"900\" stroke=\"red\"/>\n"
			"<circle r=\"900\" stroke=\"red\"/>\n"
			"</svg>\n";

		is_int(req("POST", "/api/plan", many, sizeof(many) - 1), 413,
		       "a body that flattens to too many points: 413");
		is_str(resp.body.data, "{\"error\":\"request:2: over the "
				       "limit of 1000 points\"}\n",
		       "naming the line");
	}

	/* Stopping closes the connections; the client says so. */
	pk_server_stop(s2);
	ok(!pk_client_alive(&cl), "a stopped server's connection is closed");
	ok(pk_client_request(&cl, "GET", "/", NULL, NULL, 0, &resp, &err) < 0,
	   "and a request on it fails");

	concurrent();

	pk_server_stop(s);
	pk_client_free(&cl);
	pk_response_free(&resp);
	pk_drawing_free(&d);
	pk_buf_free(&fix);
	pk_buf_free(&want);
	return done();
}
