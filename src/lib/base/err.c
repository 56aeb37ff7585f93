/* err.c: filling and formatting struct prof_err. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"

int
prof_err_clear(struct prof_err *e)
{
	if (e)
		memset(e, 0, sizeof(*e));
	return 0;
}

int
prof_err_set(struct prof_err *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
	va_end(ap);
	return -1;
}

int
prof_err_at(struct prof_err *e, const char *file, int line, int col,
	    const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	prof_err_place(e, file, line, col);
	va_start(ap, fmt);
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
	va_end(ap);
	return -1;
}

int
prof_err_path(struct prof_err *e, const char *path, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	snprintf(e->path, sizeof(e->path), "%s", path ? path : "");
	va_start(ap, fmt);
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
	va_end(ap);
	return -1;
}

int
prof_err_place(struct prof_err *e, const char *file, int line, int col)
{
	if (!e)
		return -1;
	if (file)
		snprintf(e->file, sizeof(e->file), "%s", file);
	e->line = line;
	e->col = col;
	return -1;
}

void
prof_err_file(struct prof_err *e, const char *file)
{
	if (e && file && !e->file[0])
		snprintf(e->file, sizeof(e->file), "%s", file);
}

const char *
prof_err_str(const struct prof_err *e, char *buf, size_t n)
{
	size_t off = 0;

#define PUT(...)                                                               \
	do {                                                                   \
		int k_ = snprintf(buf + off, off < n ? n - off : 0,            \
				  __VA_ARGS__);                                \
		if (k_ > 0)                                                    \
			off += (size_t)k_;                                     \
	} while (0)

	if (!n)
		return buf;
	buf[0] = '\0';
	if (e->file[0]) {
		PUT("%s", e->file);
		if (e->line > 0)
			PUT(":%d", e->line);
		if (e->line > 0 && e->col > 0)
			PUT(":%d", e->col);
		PUT(": ");
	} else if (e->line > 0) {
		PUT("line %d", e->line);
		if (e->col > 0)
			PUT(", column %d", e->col);
		PUT(": ");
	}
	if (e->path[0])
		PUT("%s: ", e->path);
	PUT("%s", e->reason[0] ? e->reason : "unknown error");
#undef PUT
	return buf;
}
