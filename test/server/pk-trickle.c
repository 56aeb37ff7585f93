/* pk-trickle.c: slow clients at a plotkit server, and a good one beside. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: pk-trickle PORT N LIMIT_S [body]\n"
	"\n"
	"Open N connections to 127.0.0.1:PORT from 127.0.0.1, wait until the\n"
	"server has closed those it refuses or sheds (none closed for 300\n"
	"ms), then trickle a request head down the others, a byte every 100\n"
	"ms, never finishing it (with body: a whole head, POST /api/flatten\n"
	"with a Content-Length of 1000000, then the body a byte at a time).\n"
	"With them open, GET /viewer.js from 127.0.0.1 (another client, from\n"
	"the same address, as every local client is).\n"
	"Then keep trickling until the server has closed every connection,\n"
	"and GET /viewer.js from 127.0.0.1 again. Gives up after LIMIT_S\n"
	"seconds in all (then 'open' is above 0). Prints one line of JSON:\n"
	"{tricklers, refused (closed before a byte was read), held, cut\n"
	"(closed by the server while trickling), open (still open at the\n"
	"end), other_client (its status, 0: none), same_client_after,\n"
	"cut_after_ms (min and max, from the connection's opening), cut_ms\n"
	"(each cut one's, in order)}.\n"
	"\n"
	"Exit status: 0 it ran (the test judges), 2 bad arguments or no\n"
	"server.\n";

#define STEP_MS 100
#define MAX_CONNS 1000

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int
dial(int port, const char *from)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	inet_pton(AF_INET, from, &a.sin_addr);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		goto bad;
	a.sin_port = htons((unsigned short)port);
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		goto bad;
	return fd;
bad:
	close(fd);
	return -1;
}

/* GET /viewer.js from address from: the status, or 0 with no answer. */
static int
get(int port, const char *from, int limit_ms)
{
	static const char req[] = "GET /viewer.js HTTP/1.1\r\nHost: x\r\n"
				  "Connection: close\r\n\r\n";
	char buf[64];
	size_t got = 0;
	int fd = dial(port, from), st = 0;
	double end = now_ms() + limit_ms;

	if (fd < 0)
		return 0;
	if (send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(req) - 1)
		goto out;
	while (got < 12 && now_ms() < end) {
		struct pollfd p = {fd, POLLIN, 0};
		ssize_t k;

		if (poll(&p, 1, 100) <= 0)
			continue;
		k = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);
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

struct trickler {
	int fd;			/* -1: closed */
	size_t sent;
	double opened;
	double cut_ms;		/* when cut, from opened */
	int state;		/* 0 open, 1 refused, 2 cut */
};

/* What each trickler sends: a head that never ends, or a slow body. */
static const char *head = "GET /viewer.js HTTP/1.1\r\nHost: x\r\nX-Slow: ";
static const char body_head[] = "POST /api/flatten HTTP/1.1\r\nHost: x\r\n"
				"Content-Length: 1000000\r\n\r\n<svg ";

/* One step: a byte down each open connection, and see who was closed. */
static void
step(struct trickler *t, int n, int send_byte, double *min_cut,
     double *max_cut)
{
	size_t hlen = strlen(head);
	int i;

	for (i = 0; i < n; i++) {
		char c = t[i].sent < hlen ? head[t[i].sent] : 'a';
		struct pollfd p = {t[i].fd, POLLIN, 0};
		char junk[256];
		ssize_t k;

		if (t[i].fd < 0)
			continue;
		k = 0;
		if (poll(&p, 1, 0) > 0)
			k = recv(t[i].fd, junk, sizeof(junk), MSG_DONTWAIT);
		if (k <= 0 && (p.revents & (POLLIN | POLLHUP | POLLERR)) &&
		    (k == 0 || errno != EAGAIN)) {
			double ms = now_ms() - t[i].opened;

			t[i].state = t[i].sent ? 2 : 1;
			if (t[i].state == 2) {
				t[i].cut_ms = ms;
				*min_cut = *min_cut < 0 || ms < *min_cut ?
						   ms :
						   *min_cut;
				*max_cut = ms > *max_cut ? ms : *max_cut;
			}
			close(t[i].fd);
			t[i].fd = -1;
			continue;
		}
		if (!send_byte)
			continue;
		/* A slow body: its whole head first, at once. */
		if (head == body_head && t[i].sent == 0) {
			if (send(t[i].fd, head, hlen, MSG_NOSIGNAL) ==
			    (ssize_t)hlen)
				t[i].sent = hlen;
			continue;
		}
		if (send(t[i].fd, &c, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1)
			t[i].sent++;
	}
}

static int
by_cut(const void *a, const void *b)
{
	const struct trickler *x = a, *y = b;

	return (x->cut_ms > y->cut_ms) - (x->cut_ms < y->cut_ms);
}

static int
count(const struct trickler *t, int n, int state)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += t[i].fd < 0 ? t[i].state == state : state == 0;
	return k;
}

int
main(int argc, char **argv)
{
	struct trickler *t;
	double end, min_cut = -1, max_cut = 0;
	int port, n, limit, i, k, other, same, refused;

	if (argc < 4 || argc > 5 || (port = atoi(argv[1])) <= 0 ||
	    (n = atoi(argv[2])) <= 0 || n > MAX_CONNS ||
	    (limit = atoi(argv[3])) <= 0 ||
	    (argc == 5 && strcmp(argv[4], "body") != 0)) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (argc == 5)
		head = body_head;
	t = calloc((size_t)n, sizeof(*t));
	if (!t)
		return 2;
	end = now_ms() + limit * 1e3;
	for (i = 0; i < n; i++) {
		t[i].fd = dial(port, "127.0.0.1");
		if (t[i].fd < 0) {
			fprintf(stderr, "pk-trickle: cannot connect: %s\n",
				strerror(errno));
			return 2;
		}
		t[i].opened = now_ms();
	}
	/*
	 * The refused ones are closed at once, before a byte is sent: wait
	 * until none has closed for 300 ms (2 s at most, well within the
	 * deadline the test gives the server).
	 */
	for (i = 0, k = 0, refused = -1; i < 20 && k < 3; i++, k++) {
		usleep(STEP_MS * 1000);
		step(t, n, 0, &min_cut, &max_cut);
		if (count(t, n, 1) != refused) {
			refused = count(t, n, 1);
			k = 0;
		}
	}
	for (i = 0; i < 3; i++) {
		step(t, n, 1, &min_cut, &max_cut);
		usleep(STEP_MS * 1000);
	}
	other = get(port, "127.0.0.1", 10000);
	while (count(t, n, 0) > 0 && now_ms() < end) {
		step(t, n, 1, &min_cut, &max_cut);
		usleep(STEP_MS * 1000);
	}
	same = count(t, n, 0) ? 0 : get(port, "127.0.0.1", 10000);
	printf("{\"tricklers\":%d,\"refused\":%d,\"held\":%d,\"cut\":%d,"
	       "\"open\":%d,\"other_client\":%d,\"same_client_after\":%d,"
	       "\"cut_after_ms\":[%.0f,%.0f],\"cut_ms\":[",
	       n, refused, n - refused, count(t, n, 2), count(t, n, 0),
	       other, same, min_cut, max_cut);
	qsort(t, (size_t)n, sizeof(*t), by_cut);
	for (i = 0, k = 0; i < n; i++)
		if (t[i].fd < 0 && t[i].state == 2)
			printf("%s%.0f", k++ ? "," : "", t[i].cut_ms);
	printf("]}\n");
	for (i = 0; i < n; i++)
		if (t[i].fd >= 0)
			close(t[i].fd);
	free(t);
	fflush(stdout);
	return 0;
}
