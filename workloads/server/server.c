/* server.c: plotkit's HTTP server on libmicrohttpd. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <microhttpd.h>

#include "engine/buf.h"
#include "engine/compose.h"
#include "engine/fixture.h"
#include "engine/flatten.h"
#include "engine/svg.h"
#include "server/assets.h"
#include "server/plan.h"
#include "server/report.h"
#include "server/server.h"

/* What libmicrohttpd may hold per connection (headers, read buffer). */
#define CONN_MEMORY (64 * 1024)
#define CONN_LIMIT 512
/* Kept for connections whose request is whole (being answered): those
 * waiting for one never take these (PK_SERVER_MAX_WAITING). */
#define CONN_RESERVE (CONN_LIMIT - PK_SERVER_MAX_WAITING)
#define LISTEN_BACKLOG 128

/* A body not kept is read and dropped up to this many times max_body. */
#define DISCARD_FACTOR 4

/*
 * A lingering close: a closed connection's socket stays open while what
 * its client still sends is read and dropped, until the client closes,
 * goes quiet for LINGER_QUIET_MS, has sent DISCARD_FACTOR times max_body,
 * or LINGER_MS have passed; at most LINGER_MAX sockets at a time (others
 * close at once). Closing with unread bytes would send a reset, and the
 * reset makes the client's system drop the answer it has not read yet
 * (a 413 sent while the body was still coming).
 */
#define LINGER_MAX 64
#define LINGER_QUIET_MS 2000
#define LINGER_MS 10000

enum route_id {
	R_INDEX,
	R_SCRIPT,
	R_FIXTURE,
	R_FLATTEN,
	R_PLAN,
	R_PREVIEW,
	R_FAVICON,
};

static const struct route {
	const char *path;
	enum route_id id;
	int post;		/* 1: POST only; 0: GET and HEAD */
} routes[] = {
	{"/", R_INDEX, 0},
	{"/index.html", R_INDEX, 0},
	{"/viewer.js", R_SCRIPT, 0},
	{"/fixtures/dense-circles.svg", R_FIXTURE, 0},
	{"/api/flatten", R_FLATTEN, 1},
	{"/api/plan", R_PLAN, 1},
	{"/api/preview.svg", R_PREVIEW, 0},
	{"/favicon.ico", R_FAVICON, 0},
};

#define NROUTES (sizeof(routes) / sizeof(routes[0]))

/*
 * A drawing and a planner: the last upload, or a request's scratch. They
 * are counted, so that a preview can outlive its upload, and spares are
 * kept for the next request: parsing into memory already touched saves a
 * third of the time of flattening the dense fixture.
 */
struct work {
	unsigned refs;
	struct pk_drawing d;
	struct pk_planner pl;
};

#define SPARES 4
#define SPARE_MAX_PTS ((size_t)1 << 19)	/* larger ones are freed */

/*
 * A connection and the deadline of the request it is waiting for. The
 * watcher thread shuts down (never closes: the socket stays libmicrohttpd's
 * to close) the connections past their deadline; libmicrohttpd then reads
 * the end of the stream and closes them. A connection leaves the list in
 * the NOTIFY_CLOSED callback, which runs before its socket is closed, and
 * both happen under the server's lock: the watcher never touches a file
 * descriptor that was closed and reused.
 */
struct conn {
	struct conn *prev, *next;
	int fd;
	int armed;			/* a whole request is due by due */
	int cut;			/* shut down (deadline, or shed) */
	struct timespec due;
	/* Set and read by the connection's own thread only: */
	struct MHD_Connection *mhd;
	int nul;			/* the URL being read holds a %00 */
	int in_line;			/* its request line read, not begun */
	pthread_t thread;		/* the thread that read it */
};

/* A socket in its lingering close. */
struct lingering {
	int fd;
	size_t dropped;
	struct timespec quiet, end;	/* closed at the earlier */
};

struct pk_server {
	struct MHD_Daemon *mhd;
	int port;
	size_t max_body;
	size_t max_points;
	unsigned request_timeout_s;
	unsigned max_waiting;
	struct conn *conns;		/* guarded by lock */
	pthread_cond_t wake;		/* the watcher's, on lock */
	pthread_t watcher;
	int watching, stopping, has_cond;
	struct lingering linger[LINGER_MAX];	/* guarded by lock */
	int nlinger;
	int linger_wake[2];		/* a pipe: -1 when not made */
	pthread_t lingerer;
	int lingering;			/* the lingerer thread runs */
	struct pk_buf fixture;
	struct MHD_Response *page, *script, *dense, *empty;
	pthread_mutex_t lock;		/* guards last, spare and stats */
	struct work *last;
	struct work *spare[SPARES];
	size_t nspare;
	struct pk_server_stats stats;
};

/* One request, from its headers to its answer. */
struct req {
	const struct route *route;
	struct pk_buf body;
	size_t dropped;			/* body bytes not kept */
	int over;			/* the body is over max_body */
	int nul;			/* its URL holds a %00 */
};

static void
work_free(struct work *w)
{
	pk_drawing_free(&w->d);
	pk_planner_free(&w->pl);
	free(w);
}

/* A spare, or a new one; NULL when out of memory. */
static struct work *
work_get(struct pk_server *s)
{
	struct work *w = NULL;

	pthread_mutex_lock(&s->lock);
	if (s->nspare)
		w = s->spare[--s->nspare];
	pthread_mutex_unlock(&s->lock);
	if (!w) {
		w = calloc(1, sizeof(*w));
		if (!w)
			return NULL;
		pk_drawing_init(&w->d);
		pk_planner_init(&w->pl);
	}
	w->refs = 1;
	w->d.max_pts = s->max_points;
	return w;
}

/* Drop a reference; the last one makes w a spare, or frees it. */
static void
work_put(struct pk_server *s, struct work *w)
{
	int gone, kept = 0;

	if (!w)
		return;
	pthread_mutex_lock(&s->lock);
	gone = --w->refs == 0;
	if (gone && s->nspare < SPARES && w->d.cap_pts <= SPARE_MAX_PTS &&
	    w->pl.ordered.cap_pts <= SPARE_MAX_PTS) {
		s->spare[s->nspare++] = w;
		kept = 1;
	}
	pthread_mutex_unlock(&s->lock);
	if (gone && !kept)
		work_free(w);
}

/*
 * Queue b's bytes (handed over to MHD) as the answer, with ctype. b is
 * left empty either way. An out-of-memory b becomes a 500.
 */
static enum MHD_Result
send_buf(struct MHD_Connection *c, unsigned status, const char *ctype,
	 struct pk_buf *b)
{
	static const char oom[] = "{\"error\":\"out of memory\"}\n";
	struct MHD_Response *resp;
	enum MHD_Result rc;

	if (b->oom || !b->data) {
		pk_buf_free(b);
		status = MHD_HTTP_INTERNAL_SERVER_ERROR;
		ctype = "application/json";
		resp = MHD_create_response_from_buffer(
			sizeof(oom) - 1, (void *)oom, MHD_RESPMEM_PERSISTENT);
	} else {
		resp = MHD_create_response_from_buffer(
			b->len, b->data, MHD_RESPMEM_MUST_FREE);
		if (!resp)
			pk_buf_free(b);
		pk_buf_init(b);
	}
	if (!resp)
		return MHD_NO;
	if (MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				    ctype) == MHD_NO ||
	    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL,
				    "no-store") == MHD_NO)
		rc = MHD_NO;
	else
		rc = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return rc;
}

/*
 * {"error": ...} with status; allow, when not NULL, is the Allow header;
 * close asks the client to close the connection after it (and
 * libmicrohttpd closes it).
 */
static enum MHD_Result
error_response(struct MHD_Connection *c, unsigned status, const char *allow,
	       int close, const char *msg)
{
	struct MHD_Response *resp;
	struct pk_buf b;
	enum MHD_Result rc;

	pk_buf_init(&b);
	if (pk_report_error(&b, msg) < 0 || (!allow && !close))
		return send_buf(c, status, "application/json", &b);
	resp = MHD_create_response_from_buffer(b.len, b.data,
					       MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		pk_buf_free(&b);
		return MHD_NO;
	}
	if (MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				    "application/json") == MHD_NO ||
	    (allow && MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW,
					      allow) == MHD_NO) ||
	    (close && MHD_add_response_header(resp,
					      MHD_HTTP_HEADER_CONNECTION,
					      "close") == MHD_NO))
		rc = MHD_NO;
	else
		rc = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return rc;
}

static enum MHD_Result
send_error(struct MHD_Connection *c, unsigned status, const char *allow,
	   const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error_response(c, status, allow, 0, msg);
}

static void
count_request(struct pk_server *s)
{
	pthread_mutex_lock(&s->lock);
	s->stats.requests++;
	pthread_mutex_unlock(&s->lock);
}

static int
ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/*
 * Arm (on) or disarm the deadline of c's connection: a whole request is
 * due request_timeout_s from now.
 */
static void
deadline(struct pk_server *s, struct MHD_Connection *c, int on)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct conn *k = ci ? ci->socket_context : NULL;

	if (!k)
		return;
	pthread_mutex_lock(&s->lock);
	k->armed = on;
	if (on) {
		clock_gettime(CLOCK_MONOTONIC, &k->due);
		k->due.tv_sec += s->request_timeout_s;
	}
	pthread_mutex_unlock(&s->lock);
}

/*
 * Make room for a new connection among those waiting for a request (a
 * head or a body still coming, or idle after an answer): while more than
 * max_waiting wait, the one that has waited longest is shed (shut down,
 * as at its deadline). Slow clients are capped as a class, whatever
 * their addresses (all are local: a cap per address locked out every
 * other local client), a new client always gets in, and a request that
 * is whole is never shed: the connections answering have the rest of
 * CONN_LIMIT to themselves. Under the lock.
 */
static void
shed_waiting(struct pk_server *s)
{
	struct conn *k, *oldest;
	unsigned waiting;

	for (;;) {
		waiting = 0;
		oldest = NULL;
		for (k = s->conns; k; k = k->next) {
			if (!k->armed || k->cut)
				continue;
			waiting++;
			if (!oldest || ts_before(&k->due, &oldest->due))
				oldest = k;
		}
		if (waiting <= s->max_waiting || !oldest)
			return;
		shutdown(oldest->fd, SHUT_RDWR);
		oldest->cut = 1;
		s->stats.shed++;
	}
}

/*
 * The watcher: cut the connections past their deadline. It sleeps until
 * the earliest one, or request_timeout_s when none is armed (a deadline
 * armed meanwhile is never earlier than that).
 */
static void *
watch(void *arg)
{
	struct pk_server *s = arg;
	struct timespec now, wake;
	struct conn *k;

	pthread_mutex_lock(&s->lock);
	while (!s->stopping) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		wake = now;
		wake.tv_sec += s->request_timeout_s;
		for (k = s->conns; k; k = k->next) {
			if (!k->armed || k->cut)
				continue;
			if (!ts_before(&now, &k->due)) {
				shutdown(k->fd, SHUT_RDWR);
				k->cut = 1;
				s->stats.cut++;
			} else if (ts_before(&k->due, &wake)) {
				wake = k->due;
			}
		}
		pthread_cond_timedwait(&s->wake, &s->lock, &wake);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static struct timespec
ts_after_ms(const struct timespec *t, long ms)
{
	struct timespec r = *t;

	r.tv_sec += ms / 1000;
	r.tv_nsec += (ms % 1000) * 1000000L;
	if (r.tv_nsec >= 1000000000L) {
		r.tv_sec++;
		r.tv_nsec -= 1000000000L;
	}
	return r;
}

/* Milliseconds from now to t, 0 when past. */
static int
ms_until(const struct timespec *now, const struct timespec *t)
{
	long long ms = (long long)(t->tv_sec - now->tv_sec) * 1000 +
		       (t->tv_nsec - now->tv_nsec) / 1000000;

	return ms < 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms + 1;
}

/*
 * Begin the lingering close of a connection's socket fd, which
 * libmicrohttpd is about to close: a duplicate keeps the socket open, its
 * writing side is shut (the client reads the end of the answer), and the
 * lingerer reads what still comes. Under the lock. A socket already cut,
 * a full table or a failed dup: nothing (the socket closes as before).
 */
static void
linger_add(struct pk_server *s, int fd)
{
	struct lingering *l;
	struct timespec now;
	int d;

	if (s->stopping || !s->lingering || s->nlinger >= LINGER_MAX)
		return;
	d = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (d < 0)
		return;
	shutdown(d, SHUT_WR);
	clock_gettime(CLOCK_MONOTONIC, &now);
	l = &s->linger[s->nlinger++];
	l->fd = d;
	l->dropped = 0;
	l->quiet = ts_after_ms(&now, LINGER_QUIET_MS);
	l->end = ts_after_ms(&now, LINGER_MS);
	if (write(s->linger_wake[1], "", 1) < 0) {
		/* The pipe is full: the lingerer is awake already. */
	}
}

/*
 * Read and drop what reached l's socket. Returns 1 while the socket is
 * to stay open, 0 when it is to close.
 */
static int
linger_drain(struct pk_server *s, struct lingering *l,
	     const struct timespec *now)
{
	char buf[16384];
	ssize_t k;

	for (;;) {
		k = recv(l->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (k <= 0)
			return 0;
		l->dropped += (size_t)k;
		l->quiet = ts_after_ms(now, LINGER_QUIET_MS);
		if (l->dropped > DISCARD_FACTOR * s->max_body)
			return 0;
	}
	return ts_before(now, &l->quiet) && ts_before(now, &l->end);
}

/* The lingerer: polls the lingering sockets and closes them when done. */
static void *
linger_loop(void *arg)
{
	struct pk_server *s = arg;
	struct pollfd p[LINGER_MAX + 1];
	struct timespec now;
	char junk[64];
	int i, n, wait;

	pthread_mutex_lock(&s->lock);
	while (!s->stopping) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* Only this thread removes entries; others append. */
		for (i = 0; i < s->nlinger;) {
			if (linger_drain(s, &s->linger[i], &now)) {
				i++;
				continue;
			}
			close(s->linger[i].fd);
			s->linger[i] = s->linger[--s->nlinger];
		}
		n = s->nlinger;
		wait = -1;
		for (i = 0; i < n; i++) {
			int q = ms_until(&now, &s->linger[i].quiet),
			    e = ms_until(&now, &s->linger[i].end);

			p[i + 1].fd = s->linger[i].fd;
			p[i + 1].events = POLLIN;
			if (wait < 0 || q < wait)
				wait = q;
			if (e < wait)
				wait = e;
		}
		pthread_mutex_unlock(&s->lock);
		p[0].fd = s->linger_wake[0];
		p[0].events = POLLIN;
		if (poll(p, (nfds_t)n + 1, wait) > 0 && p[0].revents)
			while (read(s->linger_wake[0], junk, sizeof(junk)) > 0)
				;
		pthread_mutex_lock(&s->lock);
	}
	for (i = 0; i < s->nlinger; i++)
		close(s->linger[i].fd);
	s->nlinger = 0;
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* How many times a parameter is in the query. */
struct arg_count {
	const char *name;
	unsigned n;
};

static enum MHD_Result
count_arg(void *cls, enum MHD_ValueKind kind, const char *key,
	  const char *value)
{
	struct arg_count *a = cls;

	(void)kind;
	(void)value;
	if (!strcmp(key, a->name))
		a->n++;
	return MHD_YES;
}

/*
 * A flattening parameter from the query, or its default: 0; -1 after
 * queueing a 400 (*rc says how that went) for one that is not a number
 * in range (pk_flatten_parse_mm(), as plotkit flatten takes it) or is
 * given twice (libmicrohttpd would give the first; which one the client
 * meant is not ours to guess).
 */
static int
query_mm(struct MHD_Connection *c, const char *name, double *v,
	 enum MHD_Result *rc)
{
	const char *arg = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
						      name);
	struct arg_count a = {name, 0};
	int got;

	if (!arg)
		return 0;
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, count_arg, &a);
	if (a.n > 1) {
		*rc = send_error(c, MHD_HTTP_BAD_REQUEST, NULL,
				 "parameter '%s' is given %u times: give it "
				 "once",
				 name, a.n);
		return -1;
	}
	got = pk_flatten_parse_mm(arg, v);
	if (got == -1)
		*rc = send_error(c, MHD_HTTP_BAD_REQUEST, NULL,
				 "bad %s: expected a positive number of "
				 "millimetres",
				 name);
	else if (got == -2)
		*rc = send_error(c, MHD_HTTP_BAD_REQUEST, NULL,
				 "bad %s: out of range: expected "
				 PK_FLATTEN_MM_RANGE " millimetres",
				 name);
	return got < 0 ? -1 : 0;
}

/*
 * Parse the body into d: 0, or -1 after queueing the error (*rc says
 * how that went).
 */
static int
parse_body(struct pk_server *s, struct MHD_Connection *c,
	   const struct req *r, struct pk_svg_opts *o, struct pk_drawing *d,
	   enum MHD_Result *rc)
{
	struct pk_err err;
	int oom;

	if (query_mm(c, "step", &o->flatten.step, rc) < 0 ||
	    query_mm(c, "tolerance", &o->flatten.tol, rc) < 0)
		return -1;
	if (pk_svg_parse(r->body.data ? r->body.data : "", r->body.len, o, d,
			 &err) == 0)
		return 0;
	/* Out of memory with all the points allowed: the budget, not us. */
	oom = !strcmp(err.reason, "out of memory");
	if (oom && d->cap_pts >= s->max_points)
		*rc = send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, NULL,
				 "request:%d: over the limit of %zu points",
				 err.line, s->max_points);
	else if (oom)
		*rc = send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				 "out of memory");
	else if (err.line > 0)
		*rc = send_error(c, MHD_HTTP_BAD_REQUEST, NULL,
				 "request:%d: %s", err.line, err.reason);
	else
		*rc = send_error(c, MHD_HTTP_BAD_REQUEST, NULL, "request: %s",
				 err.reason);
	return -1;
}

static enum MHD_Result
do_flatten(struct pk_server *s, struct MHD_Connection *c, struct req *r)
{
	struct pk_svg_opts o = {{PK_FLATTEN_STEP, PK_FLATTEN_TOL}, 0};
	struct work *w, *old;
	struct pk_buf out;
	enum MHD_Result rc;

	w = work_get(s);
	if (!w)
		return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				  "out of memory");
	pk_buf_init(&out);
	if (parse_body(s, c, r, &o, &w->d, &rc) < 0)
		goto out;
	if (pk_report_flatten(&w->d, &o.flatten, &out) < 0) {
		rc = send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				"out of memory");
		goto out;
	}
	/* The new drawing replaces the last; the old one goes when unused. */
	pthread_mutex_lock(&s->lock);
	old = s->last;
	s->last = w;
	s->stats.uploads++;
	pthread_mutex_unlock(&s->lock);
	w = old;
	rc = send_buf(c, MHD_HTTP_OK, "application/json", &out);
out:
	work_put(s, w);
	pk_buf_free(&out);
	return rc;
}

static enum MHD_Result
do_plan(struct pk_server *s, struct MHD_Connection *c, struct req *r)
{
	struct pk_svg_opts o = {{PK_FLATTEN_STEP, PK_FLATTEN_TOL}, 0};
	struct pk_plan plan;
	struct pk_err err;
	struct pk_buf out;
	struct work *w;
	enum MHD_Result rc;

	w = work_get(s);
	if (!w)
		return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				  "out of memory");
	pk_buf_init(&out);
	if (parse_body(s, c, r, &o, &w->d, &rc) < 0)
		goto out;
	if (pk_plan_make(&w->pl, &w->d, &plan, &err) < 0) {
		rc = send_error(c, strcmp(err.reason, "out of memory") ?
					   MHD_HTTP_BAD_REQUEST :
					   MHD_HTTP_INTERNAL_SERVER_ERROR,
				NULL, "request: %s", err.reason);
		goto out;
	}
	pk_plan_json(&plan, &out);
	rc = send_buf(c, MHD_HTTP_OK, "application/json", &out);
out:
	work_put(s, w);
	pk_buf_free(&out);
	return rc;
}

static enum MHD_Result
do_preview(struct pk_server *s, struct MHD_Connection *c)
{
	struct work *w;
	struct pk_buf out;
	enum MHD_Result rc;

	pthread_mutex_lock(&s->lock);
	w = s->last;
	if (w)
		w->refs++;
	pthread_mutex_unlock(&s->lock);
	if (!w)
		return send_error(c, MHD_HTTP_NOT_FOUND, NULL,
				  "nothing uploaded yet: POST an SVG to "
				  "/api/flatten first");
	pk_buf_init(&out);
	if (pk_compose_visible(&w->d, &out, NULL) < 0)
		out.oom = 1;
	work_put(s, w);
	rc = send_buf(c, MHD_HTTP_OK, "image/svg+xml", &out);
	pk_buf_free(&out);
	return rc;
}

static enum MHD_Result
send_static(struct MHD_Connection *c, struct MHD_Response *resp)
{
	return MHD_queue_response(c, MHD_HTTP_OK, resp);
}

static const struct route *
find_route(const char *url)
{
	size_t i;

	for (i = 0; i < NROUTES; i++)
		if (!strcmp(url, routes[i].path))
			return &routes[i];
	return NULL;
}

/* How the request says where its body ends. */
struct framing {
	int lengths;		/* Content-Length headers */
	int encodings;		/* Transfer-Encoding headers */
};

static enum MHD_Result
count_framing(void *cls, enum MHD_ValueKind kind, const char *key,
	      const char *value)
{
	struct framing *f = cls;

	(void)kind;
	(void)value;
	if (!strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH))
		f->lengths++;
	else if (!strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING))
		f->encodings++;
	return MHD_YES;
}

/*
 * A request whose body could end in two places (two Content-Length
 * headers, or Transfer-Encoding beside Content-Length: RFC 9112, 6.3) is
 * refused, and its connection closed: whatever follows could be read as
 * the next request (request smuggling). NULL when the framing is clear.
 */
static const char *
framing_error(struct MHD_Connection *c)
{
	struct framing f = {0, 0};

	MHD_get_connection_values(c, MHD_HEADER_KIND, count_framing, &f);
	if (f.lengths > 1)
		return "more than one Content-Length header";
	if (f.lengths && f.encodings)
		return "both Transfer-Encoding and Content-Length headers";
	return NULL;
}

static unsigned long long
content_length(struct MHD_Connection *c, int *known)
{
	const char *v = MHD_lookup_connection_value(
		c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	unsigned long long n;
	char *end;

	*known = 0;
	if (!v)
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno == ERANGE) {
		*known = 1;
		return ULLONG_MAX;
	}
	if (errno || end == v || *end)
		return 0;
	*known = 1;
	return n;
}

/* c's socket context: NULL when it has none (out of memory). */
static struct conn *
conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/*
 * libmicrohttpd's unescaping of a URL's path, and of each name and value
 * of its query, but a "%00" is left as it is: decoded, a NUL would end the
 * string there, and "/viewer.js%00.svg" was served as /viewer.js,
 * "?step=1%00x" read as step 1. The request is marked, and answer()
 * refuses it (400); without a socket context the path still names no
 * route (404) and a value with "%00" is no number (400).
 */
static size_t
unescape(void *cls, struct MHD_Connection *c, char *text)
{
	struct pk_server *s = cls;
	char *in = text, *out = text, *mark;
	struct conn *k;
	size_t n;

	k = conn_of(c);
	if (k) {
		pthread_mutex_lock(&s->lock);
		k->in_line = 1;
		k->thread = pthread_self();
		pthread_mutex_unlock(&s->lock);
	}
	for (;;) {
		mark = strstr(in, "%00");
		if (mark)
			*mark = '\0';
		n = MHD_http_unescape(in);
		/* Decoding never lengthens: out stays at or before in. */
		memmove(out, in, n);
		out += n;
		if (!mark)
			break;
		memcpy(out, "%00", 3);
		out += 3;
		in = mark + 3;
		if (k)
			k->nul = 1;
	}
	*out = '\0';
	return (size_t)(out - text);
}

/* Whether the request line just read held a %00 (and forget it: each
 * request is read after the one before it is answered). */
static int
take_nul(struct pk_server *s, struct MHD_Connection *c)
{
	struct conn *k = conn_of(c);
	int nul = k && k->nul;

	if (k) {
		k->nul = 0;
		pthread_mutex_lock(&s->lock);
		k->in_line = 0;
		pthread_mutex_unlock(&s->lock);
	}
	return nul;
}

/*
 * libmicrohttpd 0.9.75 answers a request whose headers it refuses after
 * reading them all (a Content-Length of -1, or one of 2^64 and more) with
 * its status line and headers twice: its error response builds them into
 * the send buffer, and the state machine, which goes on from where the
 * headers were parsed, builds them again in front of the body. No
 * callback of ours runs on that path but its log message, which comes
 * just before the error is queued. So this logger takes the place of the
 * answer: the connection this thread was reading whose headers are whole
 * but which has no answer queued and which begin() has not seen (there is
 * at most one: a thread takes a connection from its headers to begin()
 * without a break, and this is the only place between) gets one
 * well-framed 400 on its socket, written here, and the socket's writing
 * side is shut, so that the doubled answer libmicrohttpd then tries to
 * send fails and it closes the connection (which lingers, as any other).
 * Other messages are not printed, as without a logger.
 */
static void
on_mhd_log(void *cls, const char *fmt, va_list ap)
{
	static const char head[] =
		"HTTP/1.1 400 Bad Request\r\n"
		"Connection: close\r\n"
		"Cache-Control: no-store\r\n"
		"Content-Type: application/json\r\n";
	struct pk_server *s = cls;
	struct conn *k, *hit = NULL;
	int n = 0;

	(void)ap;
	pthread_mutex_lock(&s->lock);
	for (k = s->conns; k; k = k->next)
		if (k->in_line && !k->cut && k->mhd &&
		    pthread_equal(k->thread, pthread_self()) &&
		    MHD_get_connection_info(
			    k->mhd, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE) &&
		    !MHD_get_connection_info(k->mhd,
					     MHD_CONNECTION_INFO_HTTP_STATUS)) {
			hit = k;
			n++;
		}
	if (n == 1) {
		struct pk_buf b, body;
		char date[64];
		time_t now = time(NULL);
		struct tm tm;

		pk_buf_init(&b);
		pk_buf_init(&body);
		pk_report_error(&body,
				strstr(fmt, "Content-Length") ?
					"bad Content-Length header: expected "
					"a number of bytes below 2^64" :
					"the request's headers were refused");
		strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S GMT",
			 gmtime_r(&now, &tm));
		pk_buf_printf(&b, "%sDate: %s\r\nContent-Length: %zu\r\n\r\n",
			      head, date, body.len);
		pk_buf_add(&b, body.data, body.len);
		if (!b.oom &&
		    send(hit->fd, b.data, b.len, MSG_NOSIGNAL | MSG_DONTWAIT) <
			    0) {
			/* The client is gone: the shutdown below ends it. */
		}
		shutdown(hit->fd, SHUT_WR);
		hit->in_line = 0;
		pk_buf_free(&b);
		pk_buf_free(&body);
	}
	pthread_mutex_unlock(&s->lock);
}

/*
 * The first call for a request: its headers are in. Only a body declared
 * too large is answered now (libmicrohttpd then closes the connection
 * rather than read it); everything else is answered once the request is
 * whole, so that the connection stays open for the next one.
 */
static enum MHD_Result
begin(struct pk_server *s, struct MHD_Connection *c, const char *url,
      const char *method, void **con_cls)
{
	const struct route *rt = find_route(url);
	const char *bad = framing_error(c);
	unsigned long long len;
	struct req *r;
	int known, keep, r_nul;

	count_request(s);
	r_nul = take_nul(s, c);
	if (bad)
		return error_response(c, MHD_HTTP_BAD_REQUEST, NULL, 1, bad);
	len = content_length(c, &known);
	/* A body this request keeps (others are read and dropped). */
	keep = rt && rt->post && !strcmp(method, MHD_HTTP_METHOD_POST);
	if (keep && known && len > s->max_body)
		return send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, NULL,
				  "request body of %llu bytes is over the "
				  "limit of %zu bytes",
				  len, s->max_body);
	r = calloc(1, sizeof(*r));
	if (!r)
		return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				  "out of memory");
	r->route = rt;
	r->nul = r_nul;
	pk_buf_init(&r->body);
	/*
	 * Room for the declared body up front, only where it is kept and
	 * within max_body: a PUT to /api/flatten declaring 2 GB once made
	 * the server allocate 2 GB (found by the http fuzz target).
	 */
	if (keep && known && len > 0 && len <= s->max_body)
		pk_buf_reserve(&r->body, (size_t)len);
	*con_cls = r;
	return MHD_YES;
}

/* The request is whole: answer it. */
static enum MHD_Result
answer(struct pk_server *s, struct MHD_Connection *c, const char *url,
       const char *method, struct req *r)
{
	const struct route *rt = r->route;
	int get = !strcmp(method, MHD_HTTP_METHOD_GET) ||
		  !strcmp(method, MHD_HTTP_METHOD_HEAD);

	/* The request is in: what follows is ours, not the client's. */
	deadline(s, c, 0);
	if (r->nul)
		return send_error(c, MHD_HTTP_BAD_REQUEST, NULL,
				  "the URL holds a NUL byte (%%00): '%.200s'",
				  url);
	if (!rt)
		return send_error(c, MHD_HTTP_NOT_FOUND, NULL,
				  "no such path '%.200s'", url);
	if (rt->post ? strcmp(method, MHD_HTTP_METHOD_POST) != 0 : !get)
		return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				  rt->post ? "POST" : "GET, HEAD",
				  "method '%.32s' is not allowed on '%s' "
				  "(allowed: %s)",
				  method, rt->path,
				  rt->post ? "POST" : "GET, HEAD");
	if (r->over)
		return send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, NULL,
				  "request body is over the limit of %zu "
				  "bytes",
				  s->max_body);
	if (r->body.oom)
		return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				  "out of memory");
	switch (rt->id) {
	case R_INDEX:
		return send_static(c, s->page);
	case R_SCRIPT:
		return send_static(c, s->script);
	case R_FIXTURE:
		return send_static(c, s->dense);
	case R_PREVIEW:
		return do_preview(s, c);
	case R_FAVICON:
		/* Browsers ask; no icon is no error. */
		return MHD_queue_response(c, MHD_HTTP_NO_CONTENT, s->empty);
	case R_FLATTEN:
		return do_flatten(s, c, r);
	case R_PLAN:
		break;
	}
	return do_plan(s, c, r);
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url,
	   const char *method, const char *version, const char *data,
	   size_t *size, void **con_cls)
{
	struct pk_server *s = cls;
	struct req *r = *con_cls;

	(void)version;
	if (!r)
		return begin(s, c, url, method, con_cls);
	if (*size == 0)
		return answer(s, c, url, method, r);
	/*
	 * A body is kept only where it is wanted, and only up to max_body
	 * (a chunked one declares no length to refuse early): the rest is
	 * read and dropped, up to a point, and then the connection is.
	 */
	if (!r->over && r->body.len + *size > s->max_body)
		r->over = 1;
	if (r->over || !r->route || !r->route->post ||
	    strcmp(method, MHD_HTTP_METHOD_POST) != 0)
		r->dropped += *size;
	else
		pk_buf_add(&r->body, data, *size);
	*size = 0;
	return r->dropped > DISCARD_FACTOR * s->max_body ? MHD_NO : MHD_YES;
}

static void
on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
	     enum MHD_RequestTerminationCode toe)
{
	struct pk_server *s = cls;
	struct req *r = *con_cls;

	(void)toe;
	/* Answered: the next request is due from now. */
	deadline(s, c, 1);
	if (!r)
		return;
	pk_buf_free(&r->body);
	free(r);
	*con_cls = NULL;
}

static void
on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
	      enum MHD_ConnectionNotificationCode toe)
{
	struct pk_server *s = cls;
	const union MHD_ConnectionInfo *ci;
	struct conn *k = *socket_context;

	if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (!k)
			return;
		pthread_mutex_lock(&s->lock);
		if (!k->cut)
			linger_add(s, k->fd);
		if (k->prev)
			k->prev->next = k->next;
		else
			s->conns = k->next;
		if (k->next)
			k->next->prev = k->prev;
		pthread_mutex_unlock(&s->lock);
		free(k);
		*socket_context = NULL;
		return;
	}
	if (toe != MHD_CONNECTION_NOTIFY_STARTED)
		return;
	/* Out of memory here: this one connection has no deadline. */
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	k = ci ? calloc(1, sizeof(*k)) : NULL;
	pthread_mutex_lock(&s->lock);
	s->stats.connections++;
	if (k) {
		k->fd = ci->connect_fd;
		k->mhd = c;
		k->armed = 1;
		clock_gettime(CLOCK_MONOTONIC, &k->due);
		k->due.tv_sec += s->request_timeout_s;
		k->next = s->conns;
		if (s->conns)
			s->conns->prev = k;
		s->conns = k;
		*socket_context = k;
		shed_waiting(s);
	}
	pthread_mutex_unlock(&s->lock);
}

static struct MHD_Response *
static_response(const void *data, size_t len, const char *ctype)
{
	struct MHD_Response *r;

	r = MHD_create_response_from_buffer(len, (void *)data,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return NULL;
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype) ==
	    MHD_NO) {
		MHD_destroy_response(r);
		return NULL;
	}
	return r;
}

/* A listening socket on 127.0.0.1:port; -1 with err set otherwise. */
static int
listen_on(int port, int *bound, struct pk_err *err)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		pk_err_set(err, 0, "cannot make a socket: %s",
			   strerror(errno));
		return -1;
	}
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, LISTEN_BACKLOG) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &alen) < 0) {
		pk_err_set(err, 0, "cannot listen on 127.0.0.1:%d: %s", port,
			   strerror(errno));
		close(fd);
		return -1;
	}
	*bound = ntohs(a.sin_port);
	return fd;
}

int
pk_server_start(const struct pk_server_opts *o, struct pk_server **out,
		struct pk_err *err)
{
	static const struct pk_server_opts defaults = {0};
	struct pk_server *s = NULL;
	/*
	 * poll(), not epoll: libmicrohttpd 0.9.75's edge-triggered epoll
	 * misses an end of file that came with the request, and a client
	 * that half-closes after it would wait for the idle timeout.
	 */
	unsigned flags = MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC |
			 MHD_USE_ERROR_LOG;
	pthread_condattr_t ca;
	int fd = -1, rc = -1, locked = 0;

	*out = NULL;
	pk_err_clear(err);
	if (!o)
		o = &defaults;
	if (o->port < 0 || o->port > 65535)
		return pk_err_set(err, 0, "bad port %d: expected 0 to 65535",
				  o->port);
	s = calloc(1, sizeof(*s));
	if (!s)
		return pk_err_set(err, 0, "out of memory");
	s->linger_wake[0] = s->linger_wake[1] = -1;
	pk_buf_init(&s->fixture);
	s->max_body = o->max_body ? o->max_body : PK_SERVER_MAX_BODY;
	s->max_points = o->max_points ? o->max_points : PK_SERVER_MAX_POINTS;
	s->request_timeout_s = o->request_timeout_s ? o->request_timeout_s :
						      PK_SERVER_REQUEST_TIMEOUT;
	s->max_waiting = o->max_waiting && o->max_waiting <
						   PK_SERVER_MAX_WAITING ?
				 o->max_waiting :
				 PK_SERVER_MAX_WAITING;
	if (pthread_mutex_init(&s->lock, NULL) != 0) {
		pk_err_set(err, 0, "cannot make a mutex");
		goto out;
	}
	locked = 1;
	if (pthread_condattr_init(&ca) != 0 ||
	    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) != 0 ||
	    pthread_cond_init(&s->wake, &ca) != 0) {
		pk_err_set(err, 0, "cannot make a condition variable");
		goto out;
	}
	pthread_condattr_destroy(&ca);
	s->has_cond = 1;
	/* libxml2 must be set up once, before threads parse. */
	xmlInitParser();
	if (pk_fixture_dense_circles(&s->fixture) < 0) {
		pk_err_set(err, 0, "out of memory");
		goto out;
	}
	s->page = static_response(pk_asset_viewer_html,
				  pk_asset_viewer_html_len,
				  "text/html; charset=utf-8");
	s->script = static_response(pk_asset_viewer_js, pk_asset_viewer_js_len,
				    "text/javascript; charset=utf-8");
	s->dense = static_response(s->fixture.data, s->fixture.len,
				   "image/svg+xml");
	s->empty = MHD_create_response_from_buffer(0, NULL,
						   MHD_RESPMEM_PERSISTENT);
	if (!s->page || !s->script || !s->dense || !s->empty) {
		pk_err_set(err, 0, "out of memory");
		goto out;
	}
	if (pipe2(s->linger_wake, O_NONBLOCK | O_CLOEXEC) < 0) {
		pk_err_set(err, 0, "cannot make a pipe: %s", strerror(errno));
		goto out;
	}
	fd = listen_on(o->port, &s->port, err);
	if (fd < 0)
		goto out;
	s->mhd = MHD_start_daemon(
		flags, 0, NULL, NULL, on_request, s,
		/* First: the options after it log through it. */
		MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, s,
		MHD_OPTION_LISTEN_SOCKET, fd,
		MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)(o->timeout_s ? o->timeout_s : PK_SERVER_TIMEOUT),
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONN_LIMIT,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY,
		MHD_OPTION_THREAD_POOL_SIZE,
		(unsigned)(o->threads > 1 ? o->threads : 0),
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
		MHD_OPTION_UNESCAPE_CALLBACK, unescape, s,
		MHD_OPTION_END);
	if (!s->mhd) {
		pk_err_set(err, 0, "cannot start the server on "
				   "127.0.0.1:%d",
			   s->port);
		close(fd);
		goto out;
	}
	if (pthread_create(&s->watcher, NULL, watch, s) != 0) {
		pk_err_set(err, 0, "cannot start the server's watcher thread");
		MHD_stop_daemon(s->mhd);
		goto out;
	}
	s->watching = 1;
	/* Without the lingerer, connections close at once, as before. */
	if (pthread_create(&s->lingerer, NULL, linger_loop, s) == 0)
		s->lingering = 1;
	*out = s;
	s = NULL;
	rc = 0;
out:
	if (s) {
		if (s->page)
			MHD_destroy_response(s->page);
		if (s->script)
			MHD_destroy_response(s->script);
		if (s->dense)
			MHD_destroy_response(s->dense);
		if (s->empty)
			MHD_destroy_response(s->empty);
		pk_buf_free(&s->fixture);
		if (s->linger_wake[0] >= 0) {
			close(s->linger_wake[0]);
			close(s->linger_wake[1]);
		}
		if (s->has_cond)
			pthread_cond_destroy(&s->wake);
		if (locked)
			pthread_mutex_destroy(&s->lock);
		free(s);
	}
	return rc;
}

int
pk_server_port(const struct pk_server *s)
{
	return s->port;
}

void
pk_server_stats(struct pk_server *s, struct pk_server_stats *st)
{
	pthread_mutex_lock(&s->lock);
	*st = s->stats;
	pthread_mutex_unlock(&s->lock);
}

void
pk_server_stop(struct pk_server *s)
{
	if (!s)
		return;
	/* The watcher first: it must not cut what the daemon closes. */
	pthread_mutex_lock(&s->lock);
	s->stopping = 1;
	pthread_cond_signal(&s->wake);
	if (write(s->linger_wake[1], "", 1) < 0) {
		/* Full: the lingerer wakes anyway. */
	}
	pthread_mutex_unlock(&s->lock);
	if (s->watching)
		pthread_join(s->watcher, NULL);
	/* The lingerer closes the sockets it holds as it ends. */
	if (s->lingering)
		pthread_join(s->lingerer, NULL);
	MHD_stop_daemon(s->mhd);
	MHD_destroy_response(s->page);
	MHD_destroy_response(s->script);
	MHD_destroy_response(s->dense);
	MHD_destroy_response(s->empty);
	/* The threads are gone: nothing else holds a reference. */
	if (s->last)
		work_free(s->last);
	while (s->nspare)
		work_free(s->spare[--s->nspare]);
	pk_buf_free(&s->fixture);
	while (s->conns) {
		struct conn *k = s->conns;

		s->conns = k->next;
		free(k);
	}
	close(s->linger_wake[0]);
	close(s->linger_wake[1]);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

int
pk_server_add_connection(struct pk_server *s, int fd)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return MHD_add_connection(s->mhd, fd, (struct sockaddr *)&a,
				  sizeof(a)) == MHD_YES ?
		       0 :
		       -1;
}
