/* lib-htab.c: the hash tables, byte-string keys and 64-bit keys. */
#include <stdint.h>

#include "base/htab.h"
#include "tap.h"

int
main(void)
{
	struct prof_htab h = {0};
	struct prof_htab64 h64 = {0};
	int64_t v = -1;
	uint64_t k;
	long bad = 0;

	plan(10);
	is_int(prof_htab_get(&h, "a\0b", 3), -1, "an empty table has nothing");
	prof_htab_put(&h, "a\0b", 3, 7);
	is_int(prof_htab_get(&h, "a\0b", 3), 7, "a key with a NUL in it");
	is_int(prof_htab_get(&h, "a", 1), -1, "its prefix is another key");
	prof_htab_free(&h);

	is_int(prof_htab64_get(&h64, 0, &v), 0, "64-bit keys: empty");
	is_int(prof_htab64_put(&h64, 0, 42), 0, "key 0 is a key");
	is_int(prof_htab64_get(&h64, 0, &v) && v == 42, 1, "and is found");
	/* Keys alike but for their high bits (group << 40 | index), past
	 * several growths. */
	for (k = 1; k <= 100000; k++)
		if (prof_htab64_put(&h64, k << 40 | (k & 7), (int64_t)k) < 0)
			bad++;
	for (k = 1; k <= 100000; k++)
		if (!prof_htab64_get(&h64, k << 40 | (k & 7), &v) ||
		    v != (int64_t)k)
			bad++;
	is_int(bad, 0, "100,000 keys kept through the table's growth");
	is_int(prof_htab64_get(&h64, 1ULL << 40, &v), 0,
	       "a key never put is not there");
	prof_htab64_put(&h64, 0, -5);
	is_int(prof_htab64_get(&h64, 0, &v) && v == -5, 1, "put replaces");
	is_int(prof_htab64_put(&h64, UINT64_MAX, 1), -1,
	       "UINT64_MAX is refused");
	prof_htab64_free(&h64);
	return done();
}
