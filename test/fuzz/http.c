/* http.c: fuzz target: raw bytes as an HTTP connection to the server. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/server.h"

/* How long the server may take to answer or close: past it, a hang. */
#define HANG_MS 5000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pk_server *srv;

/*
 * Every status this server (or libmicrohttpd for it) answers with; an
 * answer must begin "HTTP/1.x NNN " with one of them.
 */
static int
status_known(const char *p, size_t n)
{
	static const char *const known[] = {
		"100", "200", "204", "400", "404", "405", "413", "414",
		"417", "431", "500", "501", "505",
	};
	size_t i;

	if (n < 13 || memcmp(p, "HTTP/1.", 7) != 0 || p[12] != ' ')
		return 0;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!memcmp(p + 9, known[i], 3))
			return 1;
	return 0;
}

/*
 * Whether the first answer in p[0..n) is framed: when its header block
 * ends there and declares a body, the body does not begin with another
 * status line (libmicrohttpd 0.9.75 sent its error's status line and
 * headers twice for a Content-Length of -1: issue 28, item 5). A HEAD
 * answer declares a body it does not send, so the caller skips inputs
 * that hold one.
 */
static int
first_framed(const char *p, size_t n)
{
	const char *end = memmem(p, n, "\r\n\r\n", 4), *cl;
	size_t hlen;

	if (!end)
		return 1;
	hlen = (size_t)(end - p) + 4;
	cl = memmem(p, hlen, "\r\nContent-Length: ", 18);
	if (!cl || cl[18] == '0')
		return 1;
	return n - hlen < 7 || memcmp(end + 4, "HTTP/1.", 7) != 0;
}

/*
 * The input goes down one end of a socketpair that the server took as a
 * connection from 127.0.0.1, and the write side is then shut: the server
 * must answer (well-formed) or close, within HANG_MS, and keep running.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pollfd pfd;
	char buf[65536], head[4096];
	size_t sent = 0, got = 0;
	int sv[2];

	if (!srv) {
		struct pk_server_opts o = {.max_body = 1 << 20,
					   .max_points = 1 << 18};
		struct pk_err err;

		signal(SIGPIPE, SIG_IGN);
		if (pk_server_start(&o, &srv, &err) < 0) {
			fprintf(stderr, "http fuzz: %s\n", err.reason);
			abort();
		}
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		abort();
	if (pk_server_add_connection(srv, sv[1]) < 0)
		abort();
	pfd.fd = sv[0];
	if (size == 0)
		shutdown(sv[0], SHUT_WR);
	for (;;) {
		ssize_t k;
		int n;

		pfd.events = POLLIN | (sent < size ? POLLOUT : 0);
		n = poll(&pfd, 1, HANG_MS);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "http fuzz: no answer and no close "
					"within %d ms\n", HANG_MS);
			abort();
		}
		if (pfd.revents & POLLOUT) {
			k = send(sv[0], data + sent, size - sent,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
			if (k > 0)
				sent += (size_t)k;
			else if (k < 0 && errno != EAGAIN && errno != EINTR)
				sent = size;	/* the server closed: fine */
			if (sent == size)
				shutdown(sv[0], SHUT_WR);
		}
		if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) {
			k = recv(sv[0], buf, sizeof(buf), MSG_DONTWAIT);
			if (k == 0 || (k < 0 && errno != EAGAIN &&
				       errno != EINTR))
				break;
			if (k > 0) {
				if (got < sizeof(head))
					memcpy(head + got, buf,
					       (size_t)k < sizeof(head) - got ?
						       (size_t)k :
						       sizeof(head) - got);
				got += (size_t)k;
			}
		}
	}
	close(sv[0]);
	if (got && !status_known(head, got < sizeof(head) ? got :
							      sizeof(head)))
		abort();	/* an answer that is not well-formed HTTP */
	if (!memmem(data, size, "HEAD", 4) &&
	    !first_framed(head, got < sizeof(head) ? got : sizeof(head)))
		abort();	/* a status line where a body should be */
	return 0;
}
