/* lib-err.c: the error record (err.h): each one-line form, what each
 * setter keeps and what it replaces, a NULL record, and a line that does
 * not fit its buffer. */
#include <string.h>

#include "base/err.h"
#include "tap.h"

static char line[2048];

static const char *
str(const struct prof_err *e)
{
	return prof_err_str(e, line, sizeof(line));
}

int
main(void)
{
	struct prof_err e = {0};
	char small[12], long_reason[1000];

	plan(21);
	is_str(str(&e), "unknown error", "an empty record says so");
	is_int(prof_err_set(&e, "bad %s %d", "thing", 3), -1,
	       "set returns -1, for 'return prof_err_set(...)'");
	is_str(str(&e), "bad thing 3", "a reason alone");

	prof_err_at(&e, "run.json", 12, 7, "expected '%c'", ',');
	is_str(str(&e), "run.json:12:7: expected ','",
	       "a syntax error: file, line and column");
	prof_err_set(&e, "another");
	is_str(str(&e), "run.json:12:7: another", "set keeps the place");
	prof_err_at(&e, NULL, 3, 0, "cut");
	is_str(str(&e), "run.json:3: cut",
	       "at with no file keeps the file; column 0 is not shown");

	prof_err_clear(&e);
	prof_err_at(&e, "s.jsonl", 2, 0, "x");
	prof_err_path(&e, ".workload", "missing");
	is_str(str(&e), "s.jsonl:2: .workload: missing",
	       "a schema error inside a JSON-lines stream");
	ok(prof_err_path(&e, NULL, "plain") == -1 && !e.path[0],
	   "path NULL clears the path (and returns -1)");

	prof_err_clear(&e);
	prof_err_path(&e, ".samples[3].duration_ms", "expected a number");
	prof_err_file(&e, "run.json");
	is_str(str(&e), "run.json: .samples[3].duration_ms: expected a number",
	       "a schema error by JSON path, its file set after");
	prof_err_file(&e, "other.json");
	is_str(e.file, "run.json", "the file is set only once");
	prof_err_file(NULL, "x");
	ok(1, "and a NULL record is allowed");

	prof_err_clear(&e);
	prof_err_set(&e, "out of range");
	is_int(prof_err_place(&e, "f.json", 4, 9), -1, "place returns -1");
	is_str(str(&e), "f.json:4:9: out of range",
	       "place sets file, line and column and keeps the reason");
	prof_err_place(&e, NULL, 0, 5);
	is_str(str(&e), "f.json: out of range",
	       "a column without a line is not shown");

	prof_err_clear(&e);
	prof_err_at(&e, NULL, 3, 4, "no file");
	is_str(str(&e), "line 3, column 4: no file",
	       "without a file: line and column in words");
	prof_err_at(&e, NULL, 3, 0, "no file");
	is_str(str(&e), "line 3: no file", "and the line alone");

	ok(prof_err_clear(&e) == 0 && !e.file[0] && !e.line && !e.col &&
		   !e.path[0] && !e.reason[0],
	   "clear empties every field and returns 0");
	ok(prof_err_clear(NULL) == 0 && prof_err_set(NULL, "x") == -1 &&
		   prof_err_at(NULL, "f", 1, 1, "x") == -1 &&
		   prof_err_path(NULL, ".a", "x") == -1 &&
		   prof_err_place(NULL, "f", 1, 1) == -1,
	   "every setter takes a NULL record and still returns -1");

	memset(long_reason, 'r', sizeof(long_reason) - 1);
	long_reason[sizeof(long_reason) - 1] = '\0';
	prof_err_at(&e, "f.json", 1, 2, "%s", long_reason);
	is_int((long long)strlen(e.reason), (long long)sizeof(e.reason) - 1,
	       "a long reason is cut to the record's room");
	is_str(prof_err_str(&e, small, sizeof(small)), "f.json:1:2:",
	       "a line longer than its buffer is cut and terminated");
	ok(prof_err_str(&e, small, 0) == small,
	   "a buffer of no room is given back untouched");
	return done();
}
