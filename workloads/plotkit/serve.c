/* serve.c: plotkit serve: the viewer and the engine's API over HTTP. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plotkit.h"
#include "server/server.h"

static const char usage_text[] =
	"usage: plotkit serve [--port N] [--max-body BYTES] [--max-points N]\n"
	"                     [--threads N] [--timeout SECONDS]\n"
	"                     [--max-waiting N] [--request-timeout SECONDS]\n"
	"\n"
	"Serve the viewer page and the engine's API on http://127.0.0.1:N/\n"
	"(127.0.0.1 only) until SIGINT or SIGTERM. Once connections are\n"
	"accepted, one line goes to stdout: listening on "
	"http://127.0.0.1:PORT/\n"
	"\n"
	"  GET  /  /viewer.js  /fixtures/dense-circles.svg  /api/preview.svg\n"
	"  POST /api/flatten  /api/plan     (an SVG body; ?step=&tolerance=)\n"
	"\n"
	"  --port N           the port, 0 for any free one (8080)\n"
	"  --max-body BYTES   the largest request body (16777216)\n"
	"  --max-points N     the most points a body may flatten to "
	"(16777216)\n"
	"  --threads N        worker threads (1)\n"
	"  --timeout SECONDS  close idle connections after (30)\n"
	"  --max-waiting N    connections waiting for a request, all clients\n"
	"                     together (448 of 512); a new one over that\n"
	"                     sheds the one that has waited longest\n"
	"  --request-timeout SECONDS\n"
	"                     a whole request must arrive within this of the\n"
	"                     connection's opening or its last answer (10)\n"
	"\n"
	"Exit status: 0 stopped by a signal, 2 bad arguments or the server\n"
	"could not start.\n";

/* A whole number in [lo, hi] for option opt, or -1 after saying why. */
static int
parse_count(const char *opt, const char *arg, unsigned long long lo,
	    unsigned long long hi, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < lo ||
	    v > hi) {
		cli_error("serve: %s: '%s' is not a whole number from %llu "
			  "to %llu",
			  opt, arg, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int
cmd_serve(int argc, char **argv)
{
	static const struct option opts[] = {
		{"port", required_argument, NULL, 'p'},
		{"max-body", required_argument, NULL, 'm'},
		{"max-points", required_argument, NULL, 'P'},
		{"threads", required_argument, NULL, 'j'},
		{"timeout", required_argument, NULL, 't'},
		{"max-waiting", required_argument, NULL, 'c'},
		{"request-timeout", required_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct pk_server_opts o = {.port = 8080, .threads = 1};
	struct pk_server *s = NULL;
	unsigned long long v;
	struct pk_err err;
	sigset_t stop;
	int c, sig, rc = PLOTKIT_EXIT_FAILURE;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_count("--port", optarg, 0, 65535, &v) < 0)
				return rc;
			o.port = (int)v;
			break;
		case 'm':
			if (parse_count("--max-body", optarg, 1, SIZE_MAX, &v) <
			    0)
				return rc;
			o.max_body = (size_t)v;
			break;
		case 'P':
			if (parse_count("--max-points", optarg, 1, SIZE_MAX,
					&v) < 0)
				return rc;
			o.max_points = (size_t)v;
			break;
		case 'j':
			if (parse_count("--threads", optarg, 1, 64, &v) < 0)
				return rc;
			o.threads = (unsigned)v;
			break;
		case 't':
			if (parse_count("--timeout", optarg, 1, 86400, &v) < 0)
				return rc;
			o.timeout_s = (unsigned)v;
			break;
		case 'c':
			if (parse_count("--max-waiting", optarg, 1, 448, &v) <
			    0)
				return rc;
			o.max_waiting = (unsigned)v;
			break;
		case 'r':
			if (parse_count("--request-timeout", optarg, 1, 86400,
					&v) < 0)
				return rc;
			o.request_timeout_s = (unsigned)v;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return PLOTKIT_EXIT_OK;
		case ':':
			return cli_error("serve: option '%s' needs a value",
					 argv[optind - 1]);
		default:
			cli_error("serve: unknown option '%s'",
				  argv[optind - 1]);
			fputs(usage_text, stderr);
			return rc;
		}
	}
	if (optind != argc) {
		cli_error("serve: unexpected argument '%s'", argv[optind]);
		fputs(usage_text, stderr);
		return rc;
	}
	signal(SIGPIPE, SIG_IGN);
	/*
	 * The server's threads inherit this mask, so the signals wait for
	 * sigwait() here. It stays blocked to the end: a second signal
	 * while stopping must not kill a clean exit.
	 */
	if (pthread_sigmask(SIG_BLOCK, &stop, NULL) != 0) {
		cli_error("serve: cannot block signals");
		return rc;
	}
	if (pk_server_start(&o, &s, &err) < 0) {
		cli_error("serve: %s", err.reason);
		goto out;
	}
	printf("listening on http://127.0.0.1:%d/\n", pk_server_port(s));
	if (fflush(stdout) == EOF) {
		cli_error("cannot write to stdout: %s", strerror(errno));
		goto out;
	}
	if (sigwait(&stop, &sig) != 0) {
		cli_error("serve: sigwait failed");
		goto out;
	}
	rc = PLOTKIT_EXIT_OK;
out:
	pk_server_stop(s);
	return rc;
}
