/* client.h: a small blocking HTTP/1.1 client on one keep-alive connection. */
#ifndef PK_CLIENT_H
#define PK_CLIENT_H

#include <stddef.h>

#include "engine/buf.h"
#include "engine/err.h"

/*
 * Enough HTTP for the server's workloads and tests: a request is written
 * whole (with Content-Length when it has a body), then the response's
 * headers are read and exactly Content-Length bytes of body. No chunked
 * responses, no redirects, no TLS; 127.0.0.1 only. Reads and writes give
 * up after timeout_ms (a server that hangs is an error, never a hang).
 * The client never reconnects on its own: a connection the server closed
 * stays closed until pk_client_connect() is called again.
 */
struct pk_client {
	int fd;			/* -1 when not connected */
	int port;
	int timeout_ms;		/* 0: PK_CLIENT_TIMEOUT_MS */
	struct pk_buf head;	/* the request's head, reused */
	char *in;		/* bytes read past the headers */
	size_t in_len, in_cap;
};

#define PK_CLIENT_TIMEOUT_MS 30000

struct pk_response {
	int status;		/* 200, 404, ... */
	char content_type[128];	/* "" when absent */
	char allow[64];		/* the Allow header, "" when absent */
	int close;		/* the server will close the connection */
	struct pk_buf body;	/* exactly Content-Length bytes */
};

void pk_client_init(struct pk_client *c);

/* Connect to 127.0.0.1:port (closing any connection first). 0 or -1. */
int pk_client_connect(struct pk_client *c, int port, struct pk_err *err);

/* Close the connection; the buffers stay for the next one. */
void pk_client_close(struct pk_client *c);

/* Close and free everything. */
void pk_client_free(struct pk_client *c);

void pk_response_init(struct pk_response *r);
void pk_response_free(struct pk_response *r);

/*
 * Send method path (body may be NULL when len is 0; ctype, when not NULL,
 * is its Content-Type) and read the answer into r (its body reset first,
 * its memory reused). Returns 0, or -1 with err saying why ("the server
 * closed the connection"); the connection is closed then. After a response
 * with r->close set, the connection is closed too.
 */
int pk_client_request(struct pk_client *c, const char *method,
		      const char *path, const char *ctype, const void *body,
		      size_t len, struct pk_response *r, struct pk_err *err);

/*
 * Whether the connection is still open: not closed here, and no end of
 * file or error waiting on it (the server closed an idle connection, say).
 * Never blocks.
 */
int pk_client_alive(struct pk_client *c);

#endif /* PK_CLIENT_H */
