/* sum.h: stable SHA-256 checksums of data, floats rounded to six decimals. */
#ifndef PROF_SUM_H
#define PROF_SUM_H

#include <stddef.h>
#include <stdint.h>

struct json_object;

/*
 * A streaming checksum over a canonical encoding: every value is written
 * as a one-byte tag and a fixed-size or length-prefixed body. Floats are
 * rounded to six decimals first (llround(x * 1e6)), so 1.00000001 and
 * 1.00000002 hash alike and 1.0001 and 1.0002 do not; -0 is 0; from 9e12
 * up, where a millionth is below a double's precision, the value itself
 * is hashed (llround() would overflow). The same
 * calls give the same digest on every machine.
 */
#define PROF_SUM_HEX 65

struct prof_sum {
	void *md;		/* EVP_MD_CTX, owned */
	size_t used;
	unsigned char buf[4096];
};

/* Start a checksum. Returns 0, or -1 when out of memory. */
int prof_sum_init(struct prof_sum *s);

void prof_sum_bytes(struct prof_sum *s, const void *p, size_t n);
/* Bytes as they are, no tag and no length: a checksum fed only by these
 * is the SHA-256 of the bytes (sha256sum's), however they were split. */
void prof_sum_raw(struct prof_sum *s, const void *p, size_t n);
void prof_sum_str(struct prof_sum *s, const char *str);
void prof_sum_i64(struct prof_sum *s, int64_t v);
void prof_sum_f64(struct prof_sum *s, double v);
void prof_sum_f32s(struct prof_sum *s, const float *v, size_t n);
void prof_sum_f64s(struct prof_sum *s, const double *v, size_t n);
void prof_sum_i32s(struct prof_sum *s, const int32_t *v, size_t n);

/* Finish into 64 hex digits and a NUL; frees the state. */
void prof_sum_final(struct prof_sum *s, char hex[PROF_SUM_HEX]);

/* The checksum of o's canonical JSON text. Returns 0 or -1. */
int prof_sum_json(struct json_object *o, char hex[PROF_SUM_HEX]);

/* The checksum of a plain byte buffer (a fixture file, say). */
int prof_sum_buffer(const void *p, size_t n, char hex[PROF_SUM_HEX]);

#endif /* PROF_SUM_H */
