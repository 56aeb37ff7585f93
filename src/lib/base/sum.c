/* sum.c: SHA-256 over a canonical, rounding encoding (OpenSSL libcrypto). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "base/json.h"
#include "prof/sum.h"

enum { TAG_BYTES = 'b', TAG_STR = 's', TAG_INT = 'i', TAG_FLOAT = 'f',
       TAG_NAN = 'n', TAG_BIG = 'F' };

static void
flush(struct prof_sum *s)
{
	if (s->md && s->used)
		EVP_DigestUpdate(s->md, s->buf, s->used);
	s->used = 0;
}

static void
put(struct prof_sum *s, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n) {
		size_t k = sizeof(s->buf) - s->used;

		if (k > n)
			k = n;
		memcpy(s->buf + s->used, c, k);
		s->used += k;
		c += k;
		n -= k;
		if (s->used == sizeof(s->buf))
			flush(s);
	}
}

/* Little-endian, so the digest does not depend on the machine. */
static void
put_u64(struct prof_sum *s, uint64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	put(s, b, 8);
}

int
prof_sum_init(struct prof_sum *s)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();

	s->used = 0;
	s->md = md;
	if (!md)
		return -1;
	if (EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(md);
		s->md = NULL;
		return -1;
	}
	return 0;
}

void
prof_sum_bytes(struct prof_sum *s, const void *p, size_t n)
{
	unsigned char tag = TAG_BYTES;

	put(s, &tag, 1);
	put_u64(s, n);
	put(s, p, n);
}

void
prof_sum_raw(struct prof_sum *s, const void *p, size_t n)
{
	put(s, p, n);
}

void
prof_sum_str(struct prof_sum *s, const char *str)
{
	unsigned char tag = TAG_STR;
	size_t n = strlen(str);

	put(s, &tag, 1);
	put_u64(s, n);
	put(s, str, n);
}

void
prof_sum_i64(struct prof_sum *s, int64_t v)
{
	unsigned char tag = TAG_INT;

	put(s, &tag, 1);
	put_u64(s, (uint64_t)v);
}

void
prof_sum_f64(struct prof_sum *s, double v)
{
	unsigned char tag = TAG_FLOAT;
	long long q;

	if (!isfinite(v)) {
		tag = TAG_NAN;
		put(s, &tag, 1);
		put_u64(s, isnan(v) ? 0 : (v > 0 ? 1 : 2));
		return;
	}
	if (fabs(v) >= 9e12) {
		/* v * 1e6 would overflow int64 (llround() is undefined there,
		 * and gave every such value one code). A double this large has
		 * no digits below a millionth to round: hash its bits. */
		uint64_t bits;

		memcpy(&bits, &v, sizeof(bits));
		tag = TAG_BIG;
		put(s, &tag, 1);
		put_u64(s, bits);
		return;
	}
	q = llround(v * 1e6);
	put(s, &tag, 1);
	put_u64(s, (uint64_t)q);
}

void
prof_sum_f32s(struct prof_sum *s, const float *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		prof_sum_f64(s, (double)v[i]);
}

void
prof_sum_f64s(struct prof_sum *s, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		prof_sum_f64(s, v[i]);
}

void
prof_sum_i32s(struct prof_sum *s, const int32_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		prof_sum_i64(s, v[i]);
}

void
prof_sum_final(struct prof_sum *s, char hex[PROF_SUM_HEX])
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;
	static const char digits[] = "0123456789abcdef";

	hex[0] = '\0';
	if (!s->md)
		return;
	flush(s);
	EVP_DigestFinal_ex(s->md, d, &n);
	EVP_MD_CTX_free(s->md);
	s->md = NULL;
	for (i = 0; i < n && i < 32; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[2 * i] = '\0';
}

int
prof_sum_json(struct json_object *o, char hex[PROF_SUM_HEX])
{
	char *text = prof_json_canonical(o);
	int rc;

	if (!text)
		return -1;
	rc = prof_sum_buffer(text, strlen(text), hex);
	free(text);
	return rc;
}

int
prof_sum_buffer(const void *p, size_t n, char hex[PROF_SUM_HEX])
{
	struct prof_sum s;

	if (prof_sum_init(&s) < 0)
		return -1;
	prof_sum_bytes(&s, p, n);
	prof_sum_final(&s, hex);
	return 0;
}
