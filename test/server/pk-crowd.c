/* pk-crowd.c: many slow clients at a plotkit server, and good requests. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: pk-crowd PORT SLOW ADDRS GOOD LIMIT_S\n"
	"\n"
	"Keep SLOW connections open to 127.0.0.1:PORT, each trickling a\n"
	"request head that never ends, a byte every 100 ms, and opening a\n"
	"new one 100 ms after the server closes it. They come from 127.0.0.1\n"
	"when ADDRS is 1, else from ADDRS loopback addresses (127.0.1.1 to\n"
	"127.0.1.ADDRS, in turn). Once they are open, GOOD requests from\n"
	"127.0.0.1, one every 100 ms, each on a connection of its own (GET\n"
	"/viewer.js, Connection: close; 10 s to answer). Stops when the good\n"
	"requests are done, or after LIMIT_S seconds. Prints one line of\n"
	"JSON: {slow, addrs, good, answered (status 200), unanswered,\n"
	"slowest_ms (of the good ones), opened (slow connections in all),\n"
	"closed (slow connections the server closed)}.\n"
	"\n"
	"Exit status: 0 it ran (the test judges), 2 bad arguments or no\n"
	"server.\n";

#define STEP_MS 100
#define MAX_SLOW 2000

static int port;

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int
dial(const char *from, int nonblock)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC |
				     (nonblock ? SOCK_NONBLOCK : 0),
			0);

	if (fd < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	inet_pton(AF_INET, from, &a.sin_addr);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		goto bad;
	a.sin_port = htons((unsigned short)port);
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0 &&
	    errno != EINPROGRESS)
		goto bad;
	return fd;
bad:
	close(fd);
	return -1;
}

/* The good requests, in a thread of their own. */
static int good, answered;
static double slowest;
static volatile int good_done;

static int
get(void)
{
	static const char req[] = "GET /viewer.js HTTP/1.1\r\nHost: x\r\n"
				  "Connection: close\r\n\r\n";
	struct timeval tv = {10, 0};
	char buf[64];
	size_t got = 0;
	int fd = dial("127.0.0.1", 0), st = 0;

	if (fd < 0)
		return 0;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(req) - 1)
		goto out;
	while (got < 12) {
		ssize_t k = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);

		if (k <= 0)
			break;
		got += (size_t)k;
	}
	buf[got] = '\0';
	if (got >= 12 && !strncmp(buf, "HTTP/1.1 ", 9))
		st = atoi(buf + 9);
out:
	close(fd);
	return st;
}

static void *
good_loop(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < good; i++) {
		double t0 = now_ms();

		if (get() == 200)
			answered++;
		if (now_ms() - t0 > slowest)
			slowest = now_ms() - t0;
		usleep(STEP_MS * 1000);
	}
	good_done = 1;
	return NULL;
}

/* Whether a socket poll() found ready was closed by the server (an
 * answer it may have sent first is dropped). */
static int
gone(int fd, short revents)
{
	char junk[256];
	ssize_t k = recv(fd, junk, sizeof(junk), MSG_DONTWAIT);

	if (k > 0)
		return 0;
	if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return (revents & (POLLHUP | POLLERR)) != 0;
	return 1;
}

struct slow {
	int fd;			/* -1: closed, reopened at next */
	size_t sent;
	double next;
};

int
main(int argc, char **argv)
{
	static const char head[] = "GET /viewer.js HTTP/1.1\r\nHost: x\r\n"
				   "X-Slow: ";
	static struct slow t[MAX_SLOW];
	char from[MAX_SLOW][20];
	long opened = 0, closed = 0;
	int n, addrs, limit, i, started = 0;
	double end;
	pthread_t th;

	if (argc != 6 || (port = atoi(argv[1])) <= 0 ||
	    (n = atoi(argv[2])) <= 0 || n > MAX_SLOW ||
	    (addrs = atoi(argv[3])) <= 0 || addrs > 254 ||
	    (good = atoi(argv[4])) < 0 || (limit = atoi(argv[5])) <= 0) {
		fputs(usage_text, stderr);
		return 2;
	}
	end = now_ms() + limit * 1e3;
	for (i = 0; i < n; i++) {
		if (addrs == 1)
			snprintf(from[i], sizeof(from[i]), "127.0.0.1");
		else
			snprintf(from[i], sizeof(from[i]), "127.0.1.%d",
				 1 + i % addrs);
		t[i].fd = -1;
	}
	while (now_ms() < end && !good_done) {
		double now = now_ms();

		for (i = 0; i < n; i++) {
			struct pollfd p = {t[i].fd, POLLIN, 0};
			char c;

			if (t[i].fd < 0) {
				if (now < t[i].next)
					continue;
				t[i].fd = dial(from[i], 1);
				t[i].sent = 0;
				if (t[i].fd < 0) {
					fprintf(stderr, "pk-crowd: cannot "
							"connect: %s\n",
						strerror(errno));
					return 2;
				}
				opened++;
				continue;
			}
			/* Closed by the server: open another next time. */
			if (poll(&p, 1, 0) > 0 && gone(t[i].fd, p.revents)) {
				close(t[i].fd);
				t[i].fd = -1;
				t[i].next = now + STEP_MS;
				closed++;
				continue;
			}
			c = t[i].sent < sizeof(head) - 1 ? head[t[i].sent] :
							   'a';
			if (send(t[i].fd, &c, 1, MSG_NOSIGNAL | MSG_DONTWAIT) ==
			    1)
				t[i].sent++;
		}
		/* The good requests begin once the slow ones are open. */
		if (++started == 3 &&
		    pthread_create(&th, NULL, good_loop, NULL) != 0)
			return 2;
		usleep(STEP_MS * 1000);
	}
	if (started >= 3 && good_done)
		pthread_join(th, NULL);
	printf("{\"slow\":%d,\"addrs\":%d,\"good\":%d,\"answered\":%d,"
	       "\"unanswered\":%d,\"slowest_ms\":%.0f,\"opened\":%ld,"
	       "\"closed\":%ld}\n",
	       n, addrs, good, answered, good_done ? good - answered : -1,
	       slowest, opened, closed);
	for (i = 0; i < n; i++)
		if (t[i].fd >= 0)
			close(t[i].fd);
	return 0;
}
