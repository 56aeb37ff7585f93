/* pk-linger.c: a body that is still coming when the server refuses it. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: pk-linger PORT LENGTH\n"
	"\n"
	"POST /api/flatten to 127.0.0.1:PORT declaring a body of LENGTH bytes\n"
	"(more than the server's --max-body), send the head and 64 KiB of\n"
	"it, wait for the server's answer and the end of its stream (10 s at\n"
	"most), then send the rest, 64 KiB at a time, 10 ms apart (a reset\n"
	"from the server has come back by then). Then read the answer.\n"
	"Prints one line: 'sent N of LENGTH; STATUS-LINE' (the status line\n"
	"empty when none could be read; the error after it, if any).\n"
	"A server that closes at once resets the connection: the client's\n"
	"next write fails, and a client that stops there never reads the\n"
	"answer. A lingering close reads what still comes.\n"
	"\n"
	"Exit status: 0 it ran (the test judges), 2 bad arguments or no\n"
	"server.\n";

#define CHUNK 65536

int
main(int argc, char **argv)
{
	static char body[CHUNK];
	char head[256], in[4096];
	struct sockaddr_in a;
	struct pollfd p;
	long long length, sent = 0;
	size_t got = 0;
	const char *why = "";
	int port, fd, n;

	if (argc != 3 || (port = atoi(argv[1])) <= 0 ||
	    (length = atoll(argv[2])) <= CHUNK) {
		fputs(usage_text, stderr);
		return 2;
	}
	memset(body, ' ', sizeof(body));
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		fprintf(stderr, "pk-linger: cannot connect: %s\n",
			strerror(errno));
		return 2;
	}
	n = snprintf(head, sizeof(head),
		     "POST /api/flatten HTTP/1.1\r\nHost: x\r\n"
		     "Content-Length: %lld\r\n\r\n",
		     length);
	if (send(fd, head, (size_t)n, MSG_NOSIGNAL) != n ||
	    send(fd, body, CHUNK, MSG_NOSIGNAL) != CHUNK) {
		fprintf(stderr, "pk-linger: cannot send: %s\n",
			strerror(errno));
		return 2;
	}
	sent = CHUNK;
	/* The answer and the end of the server's stream: it is done. */
	p.fd = fd;
	p.events = POLLRDHUP;
	p.revents = 0;
	poll(&p, 1, 10000);
	while (sent < length) {
		size_t k = length - sent < CHUNK ? (size_t)(length - sent) :
						   CHUNK;
		ssize_t w = send(fd, body, k, MSG_NOSIGNAL);

		if (w < 0) {
			why = strerror(errno);
			break;
		}
		sent += w;
		usleep(10000);
	}
	if (!*why) {
		/* What a client that got its body out reads. */
		for (;;) {
			ssize_t k = recv(fd, in + got, sizeof(in) - 1 - got, 0);

			if (k <= 0) {
				if (k < 0)
					why = strerror(errno);
				break;
			}
			got += (size_t)k;
			if (memchr(in, '\n', got) || got == sizeof(in) - 1)
				break;
		}
	}
	in[got] = '\0';
	in[strcspn(in, "\r\n")] = '\0';
	printf("sent %lld of %lld; %s%s%s\n", sent, length, in,
	       *why ? "; " : "", why);
	close(fd);
	return 0;
}
