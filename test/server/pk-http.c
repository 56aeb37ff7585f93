/* pk-http.c: requests on one keep-alive connection, for the shell tests. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/client.h"

static const char usage_text[] =
	"usage: pk-http [-d DIR] [-r] PORT METHOD PATH [@FILE] "
	"[METHOD PATH [@FILE]]...\n"
	"\n"
	"Send the requests in order on one connection to 127.0.0.1:PORT\n"
	"(@FILE is a body, @- stdin) and print one line per answer:\n"
	"STATUS CONTENT-TYPE (and ' allow=...' when there is an Allow\n"
	"header).\n"
	"The last line is 'connections N'. -d writes body i (from 1) to\n"
	"DIR/i. The connection is never opened again unless -r is given: a\n"
	"server that closes it makes the next request fail.\n"
	"\n"
	"Exit status: 0 every request was answered, 1 one was not, 2 bad\n"
	"arguments.\n";

static int
read_body(const char *path, char **buf, size_t *len)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, n = 0, got;
	char *p = NULL, *q;
	int rc = -1;

	if (!fp) {
		fprintf(stderr, "pk-http: cannot open '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	for (;;) {
		if (!p || n == cap) {
			if (p)
				cap *= 2;
			q = realloc(p, cap);
			if (!q)
				goto out;
			p = q;
		}
		got = fread(p + n, 1, cap - n, fp);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(fp))
		goto out;
	*buf = p;
	*len = n;
	p = NULL;
	rc = 0;
out:
	if (rc < 0)
		fprintf(stderr, "pk-http: cannot read '%s'\n", path);
	free(p);
	if (fp != stdin)
		fclose(fp);
	return rc;
}

static int
write_body(const char *dir, int i, const struct pk_buf *b)
{
	char path[4096];
	FILE *fp;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%d", dir, i);
	fp = fopen(path, "wb");
	if (!fp)
		return -1;
	if (b->len && fwrite(b->data, 1, b->len, fp) != b->len)
		rc = -1;
	if (fclose(fp) != 0)
		rc = -1;
	return rc;
}

int
main(int argc, char **argv)
{
	struct pk_client c;
	struct pk_response r;
	struct pk_err err;
	const char *dir = NULL;
	unsigned long connections = 0;
	int i, n = 0, port, reconnect = 0, rc = 2;
	char *end;

	pk_client_init(&c);
	pk_response_init(&r);
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "-d") && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(argv[i], "-r")) {
			reconnect = 1;
		} else {
			fputs(usage_text, stderr);
			goto out;
		}
	}
	if (argc - i < 3) {
		fputs(usage_text, stderr);
		goto out;
	}
	port = (int)strtol(argv[i], &end, 10);
	if (*end || port <= 0 || port > 65535) {
		fprintf(stderr, "pk-http: bad port '%s'\n", argv[i]);
		goto out;
	}
	rc = 1;
	if (pk_client_connect(&c, port, &err) < 0) {
		fprintf(stderr, "pk-http: %s\n", err.reason);
		goto out;
	}
	connections++;
	for (i++; i + 1 < argc; i += 2) {
		const char *method = argv[i], *path = argv[i + 1];
		char *body = NULL;
		size_t len = 0;
		int failed;

		if (i + 2 < argc && argv[i + 2][0] == '@') {
			if (read_body(argv[i + 2] + 1, &body, &len) < 0)
				goto out;
			if (!body)
				body = calloc(1, 1);
			i++;
		}
		if (c.fd < 0 && reconnect) {
			if (pk_client_connect(&c, port, &err) < 0) {
				fprintf(stderr, "pk-http: %s\n", err.reason);
				free(body);
				goto out;
			}
			connections++;
		}
		n++;
		failed = pk_client_request(&c, method, path,
					   body ? "image/svg+xml" : NULL,
					   body ? body : NULL, len, &r, &err);
		free(body);
		if (failed) {
			fprintf(stderr, "pk-http: %s %s: %s\n", method, path,
				err.reason);
			goto out;
		}
		printf("%d %s%s%s\n", r.status, r.content_type,
		       r.allow[0] ? " allow=" : "", r.allow);
		if (dir && write_body(dir, n, &r.body) < 0) {
			fprintf(stderr, "pk-http: cannot write %s/%d\n", dir,
				n);
			goto out;
		}
	}
	if (i < argc) {
		fprintf(stderr, "pk-http: '%s' has no PATH\n", argv[i]);
		rc = 2;
		goto out;
	}
	printf("connections %lu\n", connections);
	rc = fflush(stdout) == EOF;
out:
	pk_client_free(&c);
	pk_response_free(&r);
	return rc;
}
