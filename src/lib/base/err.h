/* err.h: the one error record the library fills and the tools print. */
#ifndef PROF_ERR_H
#define PROF_ERR_H

#include <stddef.h>

/*
 * A place and a reason. Library functions that fail return -1 (or NULL)
 * and fill one of these; they never print. Each field is optional:
 *   file:line:col: reason      a syntax error (line and col from 1)
 *   file:line: reason          a bad line of a JSON-lines stream
 *   file: .path: reason        a schema error, by JSON path
 *   file:line: .path: reason   a schema error inside a JSON-lines stream
 */
struct prof_err {
	char file[512];
	int line;
	int col;
	char path[256];
	char reason[768];
};

/* Clear every field. Returns 0. */
int prof_err_clear(struct prof_err *e);

/* Set the reason (printf-style) and keep the place. Returns -1. */
int prof_err_set(struct prof_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Set file, line, column and reason. Returns -1. */
int prof_err_at(struct prof_err *e, const char *file, int line, int col,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Set the file and the JSON path of a schema error. Returns -1. */
int prof_err_path(struct prof_err *e, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Set file, line and column and keep the reason (one that a helper such
 * as range.h's set). Returns -1. */
int prof_err_place(struct prof_err *e, const char *file, int line, int col);

/* Set the file name if none is set yet; a NULL e is allowed. */
void prof_err_file(struct prof_err *e, const char *file);

/* Write the one-line form into buf (always terminated). Returns buf. */
const char *prof_err_str(const struct prof_err *e, char *buf, size_t n);

#endif /* PROF_ERR_H */
