/* lib-id.c: the one rule for workload ids and baseline names. */
#include <string.h>

#include "id.h"
#include "tap.h"

static const char *
why(const char *id)
{
	static char buf[256];

	if (prof_id_valid(id, buf, sizeof(buf)))
		return "(valid)";
	return buf;
}

int
main(void)
{
	char long_id[PROF_ID_MAX + 2];

	plan(12);
	is_str(why("pipeline.svg_dense_circles"), "(valid)", "a dotted id");
	is_str(why("gzip.1mb"), "(valid)", "digits and dots");
	is_str(why("cpu-ci"), "(valid)", "a baseline name");
	is_str(why("A9"), "(valid)", "upper case and a digit");
	is_str(why(""), "empty", "empty");
	is_str(why(NULL), "missing", "NULL");
	is_str(why("c.bg\n::error ::x"),
	       "byte 0x0a at offset 4 is not allowed (letters, digits, '.', "
	       "'_' and '-')",
	       "a newline is refused with its offset");
	is_str(why("a b"),
	       "byte 0x20 at offset 1 is not allowed (letters, digits, '.', "
	       "'_' and '-')",
	       "a space");
	is_str(why("../evil"),
	       "'/' at offset 2 is not allowed (letters, digits, '.', '_' and "
	       "'-')",
	       "a slash");
	is_str(why("--help"),
	       "starts with '-' (the first must be a letter or a digit)",
	       "an option is not an id");
	memset(long_id, 'a', sizeof(long_id) - 1);
	long_id[sizeof(long_id) - 1] = '\0';
	is_str(why(long_id), "longer than 200 bytes", "too long");
	long_id[PROF_ID_MAX] = '\0';
	is_str(why(long_id), "(valid)", "exactly the longest");
	return done();
}
