/* server.h: plotkit's HTTP server: the viewer page and the engine's API. */
#ifndef PK_SERVER_H
#define PK_SERVER_H

#include <stddef.h>

#include "engine/err.h"

/*
 * An HTTP/1.1 server on libmicrohttpd, on 127.0.0.1 only, run by its own
 * threads (so a client may live in the same process). Keep-alive is on.
 *
 *   GET  /                          the viewer page (text/html)
 *   GET  /viewer.js                 its script (text/javascript)
 *   GET  /fixtures/dense-circles.svg  the dense 8,000-circle fixture
 *   POST /api/flatten               SVG in, pk_report_flatten() out (JSON);
 *                                   the drawing becomes "the last upload"
 *   POST /api/plan                  SVG in, pk_plan_json() out (JSON)
 *   GET  /api/preview.svg           the last upload as SVG (compose.h)
 *   GET  /favicon.ico               204 No Content (browsers ask)
 *
 * GET routes answer HEAD too. The POST routes take ?step=MM and
 * ?tolerance=MM (the flattening defaults otherwise), each once and from
 * 0.000001 to 1000000 mm (pk_flatten_parse_mm(), as plotkit flatten
 * takes them). Every error is one line of JSON, {"error":"why"}: 400 for
 * a bad SVG ("request:7: unclosed element 'g'"), a bad parameter or a URL
 * with a NUL (%00) anywhere in it, 404 for an unknown path (and for the
 * preview before any upload), 405 with Allow for a method a path does not
 * take, 413 for a body over max_body or one that flattens to more than
 * max_points points ("request:3: over the limit of 1000 points": a few
 * bytes can ask for gigabytes), 500 when out of memory. A request whose
 * body could end in two places (two Content-Length headers, or
 * Transfer-Encoding beside Content-Length) is a 400, and its connection
 * is closed; so is one whose Content-Length is not a number of bytes
 * below 2^64 (libmicrohttpd refuses it, and its own answer is not well
 * framed: the server answers in its place, see on_mhd_log()).
 *
 * Slow clients lock no one out. A connection waiting for a request (its
 * head or body still coming, or idle after an answer) is cut at its
 * deadline (request_timeout_s after its opening or its last answer), and
 * at most max_waiting wait at a time, all clients together: a new
 * connection over that sheds the one that has waited longest. A request
 * that is whole is never shed, and the 64 connections above
 * PK_SERVER_MAX_WAITING are left to those being answered.
 *
 * A connection the server closes lingers: its socket stays open while
 * what the client still sends (a body refused with 413 while it was
 * coming) is read and dropped, until the client closes, goes quiet for
 * 2 s, has sent 4 times max_body or 10 s have passed; the client reads
 * the answer instead of meeting a reset.
 *
 * The library never prints; MHD's own log is off.
 */
struct pk_server_opts {
	int port;		/* 0: an ephemeral port */
	size_t max_body;	/* the largest request body; 0: the default */
	unsigned threads;	/* 0 or 1: one thread; more: a pool */
	unsigned timeout_s;	/* idle connections close after; 0: default */
	size_t max_points;	/* the most points a body may flatten to;
				   0: the default */
	unsigned max_waiting;	/* connections waiting for a request, all
				   clients together; 0 (and above the
				   default): the default */
	unsigned request_timeout_s; /* a whole request's deadline; 0: the
				       default */
};

#define PK_SERVER_MAX_BODY ((size_t)16 << 20)
#define PK_SERVER_MAX_POINTS ((size_t)16 << 20)
#define PK_SERVER_TIMEOUT 30
#define PK_SERVER_MAX_WAITING 448	/* of 512 connections */
#define PK_SERVER_REQUEST_TIMEOUT 10

/* What a server has done so far. */
struct pk_server_stats {
	unsigned long connections;	/* TCP connections accepted */
	unsigned long requests;		/* requests answered */
	unsigned long uploads;		/* drawings stored by /api/flatten */
	unsigned long cut;		/* connections closed at the deadline */
	unsigned long shed;		/* shed for a newer one */
};

struct pk_server;

/*
 * Start a server (o NULL: every default; port 0). It accepts connections
 * when this returns. Returns 0 and *out, or -1 with err saying why
 * ("cannot listen on 127.0.0.1:80: Permission denied").
 */
int pk_server_start(const struct pk_server_opts *o, struct pk_server **out,
		    struct pk_err *err);

/* The port it listens on (the one chosen, for port 0). */
int pk_server_port(const struct pk_server *s);

void pk_server_stats(struct pk_server *s, struct pk_server_stats *st);

/*
 * Hand fd, a connected stream socket (a socketpair's end, say), to the
 * server as a connection from 127.0.0.1: the fuzzer's way in, without the
 * network. The server owns and closes fd either way. Returns 0, or -1.
 */
int pk_server_add_connection(struct pk_server *s, int fd);

/*
 * Stop accepting, close every connection, wait for the threads and free
 * everything (s NULL is allowed).
 */
void pk_server_stop(struct pk_server *s);

#endif /* PK_SERVER_H */
