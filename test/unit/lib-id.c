/* lib-id.c: the one rule for workload ids and baseline names. */
#include <string.h>

#include "base/id.h"
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

	plan(12 + 5);
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
	{
		char pwhy[128], name[300];

		is_int(prof_project_valid("a\nb", pwhy, sizeof(pwhy)), 0,
		       "a project name with a newline is none");
		is_str(pwhy, "byte 0x0a at offset 1 is a control character",
		       "and says where");
		is_int(prof_project_valid("\xc3\xa9t\xc3\xa9 x", pwhy,
					  sizeof(pwhy)), 1,
		       "UTF-8 and spaces make one");
		memset(name, 'p', 255);
		name[255] = '\0';
		is_int(prof_project_valid(name, pwhy, sizeof(pwhy)), 1,
		       "255 bytes are one");
		strcpy(name + 255, "q");
		prof_project_valid(name, pwhy, sizeof(pwhy));
		is_str(pwhy, "longer than 255 bytes (256)",
		       "256 are not, said with the length");
	}
	return done();
}
