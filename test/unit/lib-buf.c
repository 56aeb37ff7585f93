/* lib-buf.c: the growing byte buffer (buf.h): appends kept whole and
 * NUL-terminated, the room doubled from 256, reserve, free and reuse, and
 * sizes no buffer can hold refused with the buffer as it was. */
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "tap.h"

int
main(void)
{
	struct prof_buf b = {0};
	char big[300];
	char *p;
	size_t cap;

	plan(18);
	ok(b.p == NULL && b.len == 0 && b.cap == 0, "a zeroed buffer is empty");
	ok(prof_buf_put(&b, "", 0) == 0 && b.p && !strcmp(b.p, "") &&
		   b.len == 0,
	   "an empty append gives an empty string");
	is_int((long long)b.cap, 256, "the first room is 256 bytes");
	ok(prof_buf_put(&b, "abc", 3) == 0 && prof_buf_put(&b, "de", 2) == 0,
	   "appends succeed");
	is_str(b.p, "abcde", "appends are kept in order");
	is_int((long long)b.len, 5, "len counts the bytes, not the NUL");
	ok(prof_buf_put(&b, "x\0y", 3) == 0 && b.len == 8 &&
		   !memcmp(b.p + 5, "x\0y", 4),
	   "bytes are bytes: a NUL inside is kept, and one ends the buffer");

	memset(big, 'z', sizeof(big));
	ok(prof_buf_put(&b, big, sizeof(big)) == 0 && b.len == 308 &&
		   b.p[308] == '\0' && b.p[307] == 'z' && !memcmp(b.p, "abcde", 5),
	   "past the room: it grows and keeps what it held");
	is_int((long long)b.cap, 512, "the room doubles");
	ok(prof_buf_reserve(&b, 1000) == 0 && b.cap == 1024 && b.len == 308 &&
		   !memcmp(b.p, "abcde", 5),
	   "reserve: room for n bytes and the NUL, the content unchanged");
	p = b.p;
	cap = b.cap;
	ok(prof_buf_reserve(&b, 1023) == 0 && b.p == p && b.cap == cap,
	   "reserve within the room moves nothing");

	ok(prof_buf_reserve(&b, SIZE_MAX) == -1 && b.p == p && b.cap == cap,
	   "reserve beyond any memory is refused, the buffer as it was");
	ok(prof_buf_reserve(&b, SIZE_MAX / 2 + 1) == -1 && b.cap == cap,
	   "and so is one that no doubling of the room reaches");
	ok(prof_buf_put(&b, "q", SIZE_MAX - 4) == -1 && b.len == 308 &&
		   b.p[308] == '\0',
	   "an append whose length overflows is refused, nothing written");

	prof_buf_free(&b);
	ok(b.p == NULL && b.len == 0 && b.cap == 0, "free empties it");
	prof_buf_free(&b);
	ok(prof_buf_put(&b, "again", 5) == 0 && !strcmp(b.p, "again"),
	   "free twice is harmless, and the buffer is used again");
	prof_buf_free(&b);

	ok(prof_buf_printf(&b, "%s %d", "n", 42) == 0 && !strcmp(b.p, "n 42") &&
		   b.len == 4,
	   "printf appends what the format says");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ok(prof_buf_printf(&b, "[%s%s]", big, big) == 0 &&
		   b.len == 4 + 2 + 2 * (sizeof(big) - 1) &&
		   b.p[b.len - 1] == ']' && b.p[b.len] == '\0' &&
		   b.p[b.len - 2] == 'y' && !memcmp(b.p, "n 42[y", 6),
	   "past its own room (512 bytes) whole, never cut");
	prof_buf_free(&b);
	return done();
}
