/* err.h: the error record the engine fills: a line of the input and why. */
#ifndef PK_ERR_H
#define PK_ERR_H

/*
 * Engine functions never print and never exit: they return -1 and fill one
 * of these. line is the 1-based line of the input the error is about, or 0
 * when the error has no place (out of memory, a bad parameter). reason is
 * lowercase with no full stop, in the tools' wording.
 */
struct pk_err {
	int line;
	char reason[256];
};

/* Clear e (a NULL e is allowed). */
void pk_err_clear(struct pk_err *e);

/* Set line and reason, printf-style (a NULL e is allowed). Returns -1. */
int pk_err_set(struct pk_err *e, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* PK_ERR_H */
