/* pk-http-fuzz.c: seeded junk, truncations and stalls at a plotkit server. */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "engine/buf.h"
#include "engine/rng.h"

static const char usage_text[] =
	"usage: pk-http-fuzz [--seed N] [--requests N] PORT\n"
	"\n"
	"Send N (2000) deterministic bad, truncated, stalled and good\n"
	"requests to 127.0.0.1:PORT, one connection each, checking every\n"
	"250 that the server still answers GET /viewer.js, and hold 40\n"
	"half-sent requests open while it must still answer. Every answer\n"
	"must be well-formed HTTP with a status the server gives; a whole\n"
	"request must be answered or closed, never left hanging. Prints one\n"
	"line of JSON: {seed, requests, answered, closed, mhd_double_heads,\n"
	"statuses: {code: n}, kinds: {kind: n}}.\n"
	"\n"
	"Exit status: 0 the server held up, 1 it did not (the first failure\n"
	"on stderr, with the request's index), 2 bad arguments.\n";

/* How long a complete request may wait for its answer. */
#define ANSWER_MS 10000
#define CHECK_EVERY 250
#define HOLD_OPEN 40

enum kind {
	K_RANDOM,	/* random bytes */
	K_CUT_HEAD,	/* a request cut inside its line or headers */
	K_CUT_BODY,	/* a POST whose body stops short */
	K_BAD_LENGTH,	/* a bogus or conflicting Content-Length */
	K_DRIP,		/* a request sent a few bytes at a time, then closed */
	K_GOOD,		/* a whole request, maybe mutated, answered */
	K_HEADERS,	/* junk header lines, or far too many */
	K_CHUNKED,	/* chunked bodies, well and badly formed */
	K_PIPELINE,	/* two requests in one write */
	K_VERSION,	/* odd HTTP versions and request lines */
	NKINDS,
};

static const char *const kind_names[NKINDS] = {
	"random", "cut_head", "cut_body", "bad_length", "drip",
	"good", "headers", "chunked", "pipeline", "version",
};

static const char svg_ok[] =
	"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100mm\" "
	"height=\"100mm\" viewBox=\"0 0 100 100\">\n"
	"<g stroke=\"#000\" fill=\"none\">\n"
	"<circle cx=\"50\" cy=\"50\" r=\"20\"/>\n"
	"<path d=\"M10 10 C 20 0 30 20 40 10 A5 5 0 0 1 50 10 Z\"/>\n"
	"<rect x=\"5\" y=\"5\" width=\"10\" height=\"8\" rx=\"2\"/>\n"
	"<polyline points=\"1,1 2,3 4,1 5,5\"/>\n"
	"</g>\n</svg>\n";

static const char *const methods[] = {
	"GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "BREW", "get",
	"P\x01ST", "",
};

static const char *const paths[] = {
	"/", "/viewer.js", "/fixtures/dense-circles.svg", "/api/flatten",
	"/api/plan", "/api/preview.svg", "/api/flatten?step=2",
	"/api/flatten?tolerance=0", "/api/plan?step=-1&tolerance=nan",
	"/api/flatten?step=1e308", "/nope", "//", "/api/../api/flatten",
	"/%00", "/%zz", "*", "http://127.0.0.1/api/plan", "/api/flatten#x",
	"/index.html?a=1&a=2&b", "",
};

/* The statuses this server (or libmicrohttpd for it) may answer with. */
static int
status_known(int st)
{
	switch (st) {
	case 100: case 200: case 400: case 404: case 405: case 413: case 414:
	case 417: case 431: case 500: case 501: case 505:
		return 1;
	}
	return 0;
}

struct fuzz {
	struct pk_rng rng;
	int port;
	unsigned long index;
	unsigned long answered, closed, double_heads;
	unsigned long statuses[600];
	unsigned long kinds[NKINDS];
	struct pk_buf req;
	char *in;
	size_t in_len, in_cap;
	int failed;
};

static void
fail(struct fuzz *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
fail(struct fuzz *f, const char *fmt, ...)
{
	va_list ap;

	if (f->failed)
		return;
	f->failed = 1;
	fprintf(stderr, "pk-http-fuzz: request %lu: ", f->index);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t
below(struct fuzz *f, uint64_t n)
{
	return pk_rng_below(&f->rng, n);
}

static int
dial(struct fuzz *f)
{
	struct timeval tv = {ANSWER_MS / 1000, 0};
	struct sockaddr_in a;
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		fail(f, "socket: %s", strerror(errno));
		return -1;
	}
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)f->port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		fail(f, "cannot connect: %s (is the server down?)",
		     strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Send p[0..n); a reset by the server is fine (it may close early). */
static int
put(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t k = send(fd, c, n, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Parse whole responses from f->in; how many, or -1 when malformed. */
static int
responses(struct fuzz *f, size_t *used, int record)
{
	size_t at = 0;
	int n = 0;

	for (;;) {
		const char *p = f->in + at, *end = f->in + f->in_len, *h, *l;
		long long len = -1;
		int st;

		if (at == f->in_len)
			break;
		h = memmem(p, (size_t)(end - p), "\r\n\r\n", 4);
		if (!h)
			break;
		/*
		 * libmicrohttpd 0.9.75 writes the head of its own answer to
		 * a malformed Content-Length twice: known, counted, let be.
		 */
		if ((size_t)(end - (h + 4)) >= (size_t)(h + 4 - p) &&
		    !memcmp(p, h + 4, (size_t)(h + 4 - p))) {
			if (record)
				f->double_heads++;
			at += (size_t)(h + 4 - p);
			continue;
		}
		if (end - p < 13 || memcmp(p, "HTTP/1.", 7) != 0 ||
		    sscanf(p + 9, "%3d", &st) != 1 || !status_known(st))
			return -1;
		for (l = p; l < h; l++)
			if ((l == p || l[-1] == '\n') &&
			    !strncasecmp(l, "Content-Length:", 15))
				len = strtoll(l + 15, NULL, 10);
		if (len < 0)
			len = 0;
		if ((size_t)(end - (h + 4)) < (size_t)len)
			break;
		if (record)
			f->statuses[st]++;
		at = (size_t)(h + 4 - f->in) + (size_t)len;
		n++;
	}
	*used = at;
	return n;
}

/*
 * Read until the server closes or `want` whole responses are in (0: until
 * it closes). Returns 0, 1 when the server reset the connection (what it
 * sent last may be lost), or -1 when the wait timed out.
 */
static int
drain(struct fuzz *f, int fd, int want)
{
	size_t used;

	f->in_len = 0;
	for (;;) {
		ssize_t k;
		int n;

		if (f->in_cap - f->in_len < 65536) {
			f->in_cap = f->in_cap ? 2 * f->in_cap : 1 << 17;
			f->in = realloc(f->in, f->in_cap);
			if (!f->in) {
				fail(f, "out of memory");
				return -1;
			}
		}
		n = responses(f, &used, 0);
		if (want && n >= want)
			break;
		k = recv(fd, f->in + f->in_len, f->in_cap - f->in_len, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return -1;
		if (k < 0)
			return 1;
		if (k == 0)
			break;
		f->in_len += (size_t)k;
	}
	return 0;
}

/* Check what came back: whole, well-formed responses, nothing else. */
static void
judge(struct fuzz *f, int fd, int want, const char *what)
{
	size_t used;
	int n, reset;

	reset = drain(f, fd, want);
	if (reset < 0) {
		fail(f, "%s: no answer and no close in %d ms", what,
		     ANSWER_MS);
		return;
	}
	n = responses(f, &used, 1);
	if (n < 0) {
		fail(f, "%s: a malformed answer: %.80s", what, f->in);
		return;
	}
	if (n == 0 && f->in_len == 0)
		f->closed++;
	else
		f->answered++;
	/* Bytes past the last whole response: a response cut short. */
	if (used != f->in_len && !reset)
		fail(f, "%s: %zu stray bytes after %d response(s)", what,
		     f->in_len - used, n);
}

/* A request into f->req: method, path, headers, body (mutated or not). */
static void
build(struct fuzz *f, int with_body, int mutate)
{
	const char *m = methods[below(f, sizeof(methods) / sizeof(*methods))];
	const char *p = paths[below(f, sizeof(paths) / sizeof(*paths))];
	size_t blen = sizeof(svg_ok) - 1, i;
	char body[sizeof(svg_ok)];

	memcpy(body, svg_ok, sizeof(svg_ok));
	if (with_body && mutate) {
		size_t flips = 1 + below(f, 8);

		for (i = 0; i < flips; i++)
			body[below(f, blen)] = (char)below(f, 256);
		if (below(f, 3) == 0)
			blen = below(f, blen + 1);
	}
	if (with_body && below(f, 2))
		m = "POST";
	pk_buf_reset(&f->req);
	pk_buf_printf(&f->req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n", m, p);
	if (with_body) {
		pk_buf_printf(&f->req, "Content-Length: %zu\r\n"
				       "Content-Type: image/svg+xml\r\n\r\n",
			      blen);
		pk_buf_add(&f->req, body, blen);
	} else {
		pk_buf_str(&f->req, "\r\n");
	}
}

/* Close now (maybe with a reset), or half-close and read to the end. */
static void
finish_cut(struct fuzz *f, int fd, const char *what)
{
	if (below(f, 2)) {
		if (below(f, 2)) {
			struct linger l = {1, 0};

			setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
		}
		return;
	}
	shutdown(fd, SHUT_WR);
	judge(f, fd, 0, what);
}

static void
one(struct fuzz *f)
{
	enum kind k = (enum kind)below(f, NKINDS);
	size_t n, i, cut;
	int fd;

	f->kinds[k]++;
	fd = dial(f);
	if (fd < 0)
		return;
	switch (k) {
	case K_RANDOM:
		n = 1 + below(f, 4096);
		pk_buf_reset(&f->req);
		for (i = 0; i < n; i++) {
			char c = (char)below(f, 256);

			pk_buf_add(&f->req, &c, 1);
		}
		put(fd, f->req.data, f->req.len);
		finish_cut(f, fd, "random bytes");
		break;
	case K_CUT_HEAD:
		build(f, below(f, 2), 0);
		cut = below(f, (uint64_t)(strstr(f->req.data, "\r\n\r\n") -
					  f->req.data) + 3);
		put(fd, f->req.data, cut);
		finish_cut(f, fd, "a cut head");
		break;
	case K_CUT_BODY:
		build(f, 1, 0);
		cut = (size_t)(strstr(f->req.data, "\r\n\r\n") - f->req.data) +
		      4;
		cut += below(f, f->req.len - cut);
		put(fd, f->req.data, cut);
		finish_cut(f, fd, "a cut body");
		break;
	case K_BAD_LENGTH: {
		static const char *const lens[] = {
			"abc", "-1", "99999999999999999999999", "1e3", " ",
			"0x10", "18446744073709551615", "17, 17", "4294967296",
			"",
		};
		const char *l = lens[below(f, sizeof(lens) / sizeof(*lens))];

		pk_buf_reset(&f->req);
		pk_buf_printf(&f->req, "POST /api/flatten HTTP/1.1\r\n"
				       "Host: x\r\nContent-Length: %s\r\n",
			      l);
		if (below(f, 2))
			pk_buf_str(&f->req, "Content-Length: 3\r\n");
		pk_buf_str(&f->req, "\r\n<svg");
		put(fd, f->req.data, f->req.len);
		shutdown(fd, SHUT_WR);
		judge(f, fd, 0, "a bad Content-Length");
		break;
	}
	case K_DRIP:
		build(f, below(f, 2), below(f, 2));
		cut = below(f, f->req.len);
		for (i = 0; i < cut;) {
			size_t step = 1 + below(f, 7);

			if (step > cut - i)
				step = cut - i;
			if (put(fd, f->req.data + i, step) < 0)
				break;
			i += step;
		}
		finish_cut(f, fd, "a drip");
		break;
	case K_GOOD:
		build(f, below(f, 2), below(f, 2));
		put(fd, f->req.data, f->req.len);
		judge(f, fd, 1, "a whole request");
		break;
	case K_HEADERS:
		pk_buf_reset(&f->req);
		pk_buf_str(&f->req, "GET / HTTP/1.1\r\nHost: x\r\n");
		n = below(f, 3) == 0 ? 20000 : 1 + below(f, 20);
		for (i = 0; i < n; i++) {
			switch (below(f, 4)) {
			case 0:
				pk_buf_str(&f->req, "X-Junk: yes\r\n");
				break;
			case 1:
				pk_buf_str(&f->req, "no colon here\r\n");
				break;
			case 2:
				pk_buf_str(&f->req, " folded: line\r\n");
				break;
			default:
				pk_buf_printf(&f->req, "X-%lu:%c\r\n",
					      (unsigned long)i,
					      (char)(1 + below(f, 255)));
			}
		}
		pk_buf_str(&f->req, "\r\n");
		put(fd, f->req.data, f->req.len);
		shutdown(fd, SHUT_WR);
		judge(f, fd, 0, "junk headers");
		break;
	case K_CHUNKED: {
		static const char *const bodies[] = {
			"5\r\n<svg \r\n0\r\n\r\n",
			"zz\r\nabc\r\n0\r\n\r\n",
			"ffffffffffffffff\r\nab\r\n",
			"3\r\nabcdef\r\n0\r\n\r\n",
			"1;ext=1\r\n<\r\n0\r\n\r\n",
			"0\r\n\r\n",
			"-1\r\n\r\n",
		};

		pk_buf_reset(&f->req);
		pk_buf_str(&f->req, "POST /api/plan HTTP/1.1\r\nHost: x\r\n"
				    "Transfer-Encoding: chunked\r\n\r\n");
		pk_buf_str(&f->req,
			   bodies[below(f, sizeof(bodies) / sizeof(*bodies))]);
		put(fd, f->req.data, f->req.len);
		shutdown(fd, SHUT_WR);
		judge(f, fd, 0, "a chunked body");
		break;
	}
	case K_PIPELINE:
		build(f, below(f, 2), 0);
		/* The copy comes from the buffer itself: room first. */
		n = f->req.len;
		if (pk_buf_reserve(&f->req, n) == 0) {
			memcpy(f->req.data + n, f->req.data, n);
			f->req.len += n;
			f->req.data[f->req.len] = '\0';
		}
		put(fd, f->req.data, f->req.len);
		shutdown(fd, SHUT_WR);
		judge(f, fd, 0, "two requests in one write");
		break;
	case K_VERSION: {
		static const char *const lines[] = {
			"GET / HTTP/1.0\r\n\r\n",
			"GET / HTTP/2.0\r\n\r\n",
			"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
			"GET /\r\n\r\n",
			"GET\r\n\r\n",
			"GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n",
			"\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
			"GET / HTTP/1.1\nHost: x\n\n",
			"GET / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
			"\r\n",
			"POST /api/flatten HTTP/1.1\r\nHost: x\r\nExpect: "
			"100-continue\r\nContent-Length: 4\r\n\r\n<svg",
		};

		pk_buf_reset(&f->req);
		pk_buf_str(&f->req,
			   lines[below(f, sizeof(lines) / sizeof(*lines))]);
		put(fd, f->req.data, f->req.len);
		shutdown(fd, SHUT_WR);
		judge(f, fd, 0, "an odd request line");
		break;
	}
	case NKINDS:
		break;
	}
	close(fd);
}

/* A good request on a fresh connection must be answered 200. */
static void
check_alive(struct fuzz *f, const char *when)
{
	static const char req[] = "GET /viewer.js HTTP/1.1\r\nHost: x\r\n\r\n";
	size_t used;
	int fd = dial(f);

	if (fd < 0)
		return;
	put(fd, req, sizeof(req) - 1);
	if (drain(f, fd, 1) < 0 || responses(f, &used, 0) != 1 ||
	    strncmp(f->in, "HTTP/1.1 200 ", 13) != 0)
		fail(f, "%s: GET /viewer.js was not answered 200", when);
	close(fd);
}

/* Half-sent requests held open must not stop others being answered. */
static void
hold_open(struct fuzz *f)
{
	static const char part[] = "POST /api/flatten HTTP/1.1\r\nHost: x\r\n"
				   "Content-Length: 1000\r\n\r\n<svg";
	int fds[HOLD_OPEN], i;

	for (i = 0; i < HOLD_OPEN; i++) {
		fds[i] = dial(f);
		if (fds[i] >= 0)
			put(fds[i], part, below(f, sizeof(part)));
	}
	check_alive(f, "with requests held open");
	for (i = 0; i < HOLD_OPEN; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static int
number(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || end == s || *end || *s == '-' || *out > max ? -1 : 0;
}

int
main(int argc, char **argv)
{
	struct fuzz f;
	unsigned long seed = 20260710, requests = 2000, port = 0, i;
	int a, rc = 2, k, first = 1;

	memset(&f, 0, sizeof(f));
	pk_buf_init(&f.req);
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--seed") && a + 1 < argc) {
			if (number(argv[++a], ULONG_MAX, &seed) < 0)
				goto usage;
		} else if (!strcmp(argv[a], "--requests") && a + 1 < argc) {
			if (number(argv[++a], 10000000, &requests) < 0)
				goto usage;
		} else if (argv[a][0] != '-' && !port) {
			if (number(argv[a], 65535, &port) < 0 || !port)
				goto usage;
		} else {
			goto usage;
		}
	}
	if (!port)
		goto usage;
	pk_rng_seed(&f.rng, seed);
	f.port = (int)port;
	for (i = 0; i < requests && !f.failed; i++) {
		f.index = i;
		one(&f);
		if ((i + 1) % CHECK_EVERY == 0 && !f.failed)
			check_alive(&f, "after a batch");
		if (i == requests / 2 && !f.failed)
			hold_open(&f);
	}
	if (!f.failed)
		check_alive(&f, "at the end");
	printf("{\"seed\":%lu,\"requests\":%lu,\"answered\":%lu,"
	       "\"closed\":%lu,\"mhd_double_heads\":%lu,\"statuses\":{",
	       seed, i, f.answered, f.closed, f.double_heads);
	for (k = 0; k < 600; k++) {
		if (!f.statuses[k])
			continue;
		printf("%s\"%d\":%lu", first ? "" : ",", k, f.statuses[k]);
		first = 0;
	}
	printf("},\"kinds\":{");
	for (k = 0; k < NKINDS; k++)
		printf("%s\"%s\":%lu", k ? "," : "", kind_names[k],
		       f.kinds[k]);
	printf("}}\n");
	rc = f.failed ? 1 : 0;
	goto out;
usage:
	fputs(usage_text, stderr);
out:
	pk_buf_free(&f.req);
	free(f.in);
	return rc;
}
