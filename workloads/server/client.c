/* client.c: a small blocking HTTP/1.1 client on one keep-alive connection. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

#include "server/client.h"

/* The most header bytes a response may have. */
#define HEAD_MAX (64 * 1024)
#define READ_CHUNK (64 * 1024)

void
pk_client_init(struct pk_client *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	pk_buf_init(&c->head);
}

void
pk_client_close(struct pk_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->in_len = 0;
}

void
pk_client_free(struct pk_client *c)
{
	pk_client_close(c);
	pk_buf_free(&c->head);
	free(c->in);
	c->in = NULL;
	c->in_cap = 0;
}

void
pk_response_init(struct pk_response *r)
{
	memset(r, 0, sizeof(*r));
	pk_buf_init(&r->body);
}

void
pk_response_free(struct pk_response *r)
{
	pk_buf_free(&r->body);
}

int
pk_client_connect(struct pk_client *c, int port, struct pk_err *err)
{
	int ms = c->timeout_ms > 0 ? c->timeout_ms : PK_CLIENT_TIMEOUT_MS;
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	struct sockaddr_in a;
	int one = 1;

	pk_client_close(c);
	c->port = port;
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return pk_err_set(err, 0, "cannot make a socket: %s",
				  strerror(errno));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) <
		    0 ||
	    connect(c->fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		pk_err_set(err, 0, "cannot connect to 127.0.0.1:%d: %s", port,
			   strerror(errno));
		pk_client_close(c);
		return -1;
	}
	return 0;
}

/* Why a read or write failed, in words. */
static int
io_error(struct pk_client *c, struct pk_err *err, const char *what)
{
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		pk_err_set(err, 0, "timed out %s", what);
	else
		pk_err_set(err, 0, "error %s: %s", what, strerror(errno));
	pk_client_close(c);
	return -1;
}

static int
send_all(struct pk_client *c, const void *body, size_t len,
	 struct pk_err *err)
{
	struct iovec iov[2];
	struct msghdr m;
	size_t i = 0;

	iov[0].iov_base = c->head.data;
	iov[0].iov_len = c->head.len;
	iov[1].iov_base = (void *)body;
	iov[1].iov_len = len;
	while (i < 2) {
		ssize_t n;

		if (iov[i].iov_len == 0) {
			i++;
			continue;
		}
		memset(&m, 0, sizeof(m));
		m.msg_iov = iov + i;
		m.msg_iovlen = 2 - i;
		n = sendmsg(c->fd, &m, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return io_error(c, err, "sending the request");
		}
		while (n > 0 && i < 2) {
			size_t k = (size_t)n < iov[i].iov_len ? (size_t)n :
								 iov[i].iov_len;

			iov[i].iov_base = (char *)iov[i].iov_base + k;
			iov[i].iov_len -= k;
			n -= (ssize_t)k;
			if (iov[i].iov_len == 0)
				i++;
		}
	}
	return 0;
}

/* Read more into c->in. 1 read, 0 end of file, -1 error (closed). */
static int
read_more(struct pk_client *c, struct pk_err *err)
{
	ssize_t n;

	if (c->in_cap - c->in_len < READ_CHUNK) {
		size_t cap = c->in_cap ? 2 * c->in_cap : 2 * READ_CHUNK;
		char *p = realloc(c->in, cap);

		if (!p) {
			pk_err_set(err, 0, "out of memory");
			pk_client_close(c);
			return -1;
		}
		c->in = p;
		c->in_cap = cap;
	}
	do
		n = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return io_error(c, err, "reading the response");
	c->in_len += (size_t)n;
	return n > 0;
}

/* Drop the first n bytes of c->in. */
static void
consume(struct pk_client *c, size_t n)
{
	memmove(c->in, c->in + n, c->in_len - n);
	c->in_len -= n;
}

/* The header block's end in c->in (after the blank line), or 0. */
static size_t
head_end(const struct pk_client *c)
{
	size_t i;

	for (i = 3; i < c->in_len; i++)
		if (c->in[i] == '\n' && c->in[i - 1] == '\r' &&
		    c->in[i - 2] == '\n' && c->in[i - 3] == '\r')
			return i + 1;
	return 0;
}

static void
copy_value(char *dst, size_t n, const char *v, size_t len)
{
	if (len >= n)
		len = n - 1;
	memcpy(dst, v, len);
	dst[len] = '\0';
}

/*
 * Parse the head in c->in[0..end) into r; *length is Content-Length or -1.
 * Returns 0, or -1 for a malformed head.
 */
static int
parse_head(struct pk_client *c, size_t end, struct pk_response *r,
	   long long *length, int *chunked)
{
	const char *p = c->in, *stop = c->in + end - 2, *eol;
	int minor;

	*length = -1;
	*chunked = 0;
	r->content_type[0] = '\0';
	r->allow[0] = '\0';
	if (end < 14 || memcmp(p, "HTTP/1.", 7) != 0 ||
	    (p[7] != '0' && p[7] != '1') || p[8] != ' ' || p[9] < '1' ||
	    p[9] > '5' || p[10] < '0' || p[10] > '9' || p[11] < '0' ||
	    p[11] > '9' || (p[12] != ' ' && p[12] != '\r'))
		return -1;
	minor = p[7] - '0';
	r->status = (p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0');
	r->close = minor == 0;
	p = memchr(p, '\n', (size_t)(stop - p));
	if (!p)
		return -1;
	for (p++; p < stop; p = eol + 1) {
		const char *colon, *v, *ve;

		eol = memchr(p, '\n', (size_t)(stop + 2 - p));
		if (!eol || eol == p || eol[-1] != '\r')
			return -1;
		colon = memchr(p, ':', (size_t)(eol - p));
		if (!colon)
			return -1;
		for (v = colon + 1; v < eol && (*v == ' ' || *v == '\t'); v++)
			;
		for (ve = eol - 1; ve > v && (ve[-1] == ' ' || ve[-1] == '\t');
		     ve--)
			;
#define IS(name) ((size_t)(colon - p) == sizeof(name) - 1 && \
		  !strncasecmp(p, name, sizeof(name) - 1))
		if (IS("Content-Length")) {
			char num[24], *e;

			if (ve - v < 1 || ve - v > 18)
				return -1;
			copy_value(num, sizeof(num), v, (size_t)(ve - v));
			*length = strtoll(num, &e, 10);
			if (*e || *length < 0)
				return -1;
		} else if (IS("Content-Type")) {
			copy_value(r->content_type, sizeof(r->content_type), v,
				   (size_t)(ve - v));
		} else if (IS("Allow")) {
			copy_value(r->allow, sizeof(r->allow), v,
				   (size_t)(ve - v));
		} else if (IS("Connection")) {
			if (ve - v == 5 && !strncasecmp(v, "close", 5))
				r->close = 1;
			else if (ve - v == 10 &&
				 !strncasecmp(v, "keep-alive", 10))
				r->close = 0;
		} else if (IS("Transfer-Encoding")) {
			*chunked = 1;
		}
#undef IS
	}
	return 0;
}

/* Read one response (skipping 1xx ones) into r. */
static int
read_response(struct pk_client *c, int head_only, struct pk_response *r,
	      struct pk_err *err)
{
	long long length;
	size_t end, have;
	int chunked, got;

	for (;;) {
		while (!(end = head_end(c))) {
			if (c->in_len > HEAD_MAX) {
				pk_err_set(err, 0, "response headers over %d "
						   "bytes",
					   HEAD_MAX);
				goto fail;
			}
			got = read_more(c, err);
			if (got < 0)
				return -1;
			if (got == 0) {
				pk_err_set(err, 0, c->in_len ?
						   "the server closed the "
						   "connection mid-response" :
						   "the server closed the "
						   "connection");
				goto fail;
			}
		}
		if (parse_head(c, end, r, &length, &chunked) < 0) {
			pk_err_set(err, 0, "malformed response head");
			goto fail;
		}
		consume(c, end);
		if (r->status >= 200)
			break;
	}
	if (head_only || r->status == 204 || r->status == 304)
		return 0;
	if (chunked) {
		pk_err_set(err, 0, "chunked responses are not supported");
		goto fail;
	}
	if (length < 0) {
		/* No length: the body runs to the end of the connection. */
		while ((got = read_more(c, err)) > 0)
			;
		if (got < 0)
			return -1;
		pk_buf_add(&r->body, c->in, c->in_len);
		r->close = 1;
		c->in_len = 0;
		return r->body.oom ? pk_err_set(err, 0, "out of memory") : 0;
	}
	if (pk_buf_reserve(&r->body, (size_t)length) < 0) {
		pk_err_set(err, 0, "out of memory");
		goto fail;
	}
	have = c->in_len < (size_t)length ? c->in_len : (size_t)length;
	pk_buf_add(&r->body, c->in, have);
	consume(c, have);
	while (r->body.len < (size_t)length) {
		ssize_t n = recv(c->fd, r->body.data + r->body.len,
				 (size_t)length - r->body.len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return io_error(c, err, "reading the response body");
		if (n == 0) {
			pk_err_set(err, 0, "the server closed the connection "
					   "after %zu of %lld body bytes",
				   r->body.len, length);
			goto fail;
		}
		r->body.len += (size_t)n;
	}
	r->body.data[r->body.len] = '\0';
	return 0;
fail:
	pk_client_close(c);
	return -1;
}

int
pk_client_request(struct pk_client *c, const char *method,
		  const char *path, const char *ctype, const void *body,
		  size_t len, struct pk_response *r, struct pk_err *err)
{
	pk_buf_reset(&r->body);
	r->status = 0;
	r->close = 0;
	if (c->fd < 0)
		return pk_err_set(err, 0, "not connected");
	pk_buf_reset(&c->head);
	pk_buf_printf(&c->head, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n",
		      method, path, c->port);
	if (len || body)
		pk_buf_printf(&c->head, "Content-Length: %zu\r\n", len);
	if (ctype)
		pk_buf_printf(&c->head, "Content-Type: %s\r\n", ctype);
	pk_buf_str(&c->head, "\r\n");
	if (c->head.oom) {
		pk_client_close(c);
		return pk_err_set(err, 0, "out of memory");
	}
	if (send_all(c, body, len, err) < 0 ||
	    read_response(c, !strcmp(method, "HEAD"), r, err) < 0)
		return -1;
	if (r->close)
		pk_client_close(c);
	return 0;
}

int
pk_client_alive(struct pk_client *c)
{
	struct pollfd p;
	char byte;

	if (c->fd < 0)
		return 0;
	p.fd = c->fd;
	p.events = POLLIN;
	p.revents = 0;
	if (poll(&p, 1, 0) == 0)
		return 1;
	if (p.revents & (POLLERR | POLLHUP | POLLNVAL))
		return 0;
	/* Readable with nothing asked: end of file, or bytes nobody wants. */
	return recv(c->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) < 0 &&
	       (errno == EAGAIN || errno == EWOULDBLOCK);
}
