/* err.c: filling the engine's error record. */
#include <stdarg.h>
#include <stdio.h>

#include "err.h"

void
pk_err_clear(struct pk_err *e)
{
	if (!e)
		return;
	e->line = 0;
	e->reason[0] = '\0';
}

int
pk_err_set(struct pk_err *e, int line, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	e->line = line;
	va_start(ap, fmt);
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
	va_end(ap);
	return -1;
}
