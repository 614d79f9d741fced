#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "password.h"

#define SCHEME		"scrypt"
#define FIELD_COUNT	6	/* scheme, log2 N, r, p, salt, key */
#define BASE64_LEN(n)	(((n) + 2) / 3 * 4)

struct scrypt_params {
	unsigned log2_n, r, p;
	unsigned char salt[PASSWORD_VERIFY_SALT_MAX];
	size_t salt_len;
	unsigned char key[PASSWORD_VERIFY_KEY_MAX];
	size_t key_len;
};

static bool reject(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool reject(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return false;
}

/*
 * Runs scrypt with OpenSSL's memory limit set just above what these
 * parameters need (its default of 32 MiB is a hair too small for N = 2^15,
 * r = 8).  Callers have already bounded the parameters.
 */
static int scrypt_derive(const char *password, const unsigned char *salt, size_t salt_len,
    unsigned log2_n, unsigned r, unsigned p, unsigned char *key, size_t key_len)
{
	uint64_t n = (uint64_t)1 << log2_n;
	uint64_t need_bytes = 128 * (uint64_t)r * (n + 2) + 128 * (uint64_t)r * p;

	if (EVP_PBE_scrypt(password, strlen(password), salt, salt_len, n, r, p,
	    need_bytes + 4096, key, key_len) != 1)
		return -1;
	return 0;
}

/* Reads a decimal field of at most three digits with no sign or leading zero. */
static int parse_number(const char *s, size_t len, unsigned min, unsigned max, unsigned *out)
{
	unsigned v = 0;

	if (len == 0 || len > 3 || (s[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/*
 * Decodes canonical, padded base64 of min..max bytes.  EVP_DecodeBlock is
 * lenient (whitespace, stray bits), so the result must re-encode to exactly
 * the input: one spelling per value.
 */
static int parse_base64(const char *s, size_t len, size_t min, size_t max,
    unsigned char *out, size_t *out_len)
{
	unsigned char bytes[BASE64_LEN(PASSWORD_VERIFY_KEY_MAX) / 4 * 3];
	char in[BASE64_LEN(PASSWORD_VERIFY_KEY_MAX) + 1], again[sizeof in];
	size_t pad = 0;
	int n;

	if (len == 0 || len % 4 || len > BASE64_LEN(max))
		return -1;
	memcpy(in, s, len);
	in[len] = '\0';
	while (pad < 2 && in[len - 1 - pad] == '=')
		pad++;
	n = EVP_DecodeBlock(bytes, (const unsigned char *)in, (int)len);
	if (n < 0 || (size_t)n < pad)
		return -1;
	n -= (int)pad;
	if ((size_t)n < min || (size_t)n > max)
		return -1;
	if (EVP_EncodeBlock((unsigned char *)again, bytes, n) != (int)len ||
	    memcmp(again, in, len) != 0)
		return -1;
	memcpy(out, bytes, (size_t)n);
	*out_len = (size_t)n;
	return 0;
}

/*
 * Splits and checks a stored string.  Everything is validated before any
 * derivation, so garbage costs microseconds and never reaches scrypt.
 */
static int params_parse(const char *stored, struct scrypt_params *sp)
{
	const char *field[FIELD_COUNT];
	size_t flen[FIELD_COUNT];
	const char *p = stored;
	size_t total;
	int n = 0;

	total = strnlen(stored, PASSWORD_HASH_MAX);
	if (total == PASSWORD_HASH_MAX)
		return -1;
	for (;;) {
		const char *end = memchr(p, '$', total - (size_t)(p - stored));
		if (n == FIELD_COUNT)
			return -1;
		field[n] = p;
		flen[n] = end ? (size_t)(end - p) : total - (size_t)(p - stored);
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	if (n != FIELD_COUNT)
		return -1;
	if (flen[0] != strlen(SCHEME) || memcmp(field[0], SCHEME, flen[0]) != 0)
		return -1;
	if (parse_number(field[1], flen[1], PASSWORD_VERIFY_LOG2_N_MIN,
	    PASSWORD_VERIFY_LOG2_N_MAX, &sp->log2_n) == -1 ||
	    parse_number(field[2], flen[2], 1, PASSWORD_VERIFY_R_MAX, &sp->r) == -1 ||
	    parse_number(field[3], flen[3], 1, PASSWORD_VERIFY_P_MAX, &sp->p) == -1)
		return -1;
	if (128 * ((uint64_t)1 << sp->log2_n) * sp->r * sp->p > PASSWORD_VERIFY_MAX_BYTES)
		return -1;
	if (parse_base64(field[4], flen[4], PASSWORD_VERIFY_SALT_MIN, PASSWORD_VERIFY_SALT_MAX,
	    sp->salt, &sp->salt_len) == -1 ||
	    parse_base64(field[5], flen[5], PASSWORD_VERIFY_KEY_MIN, PASSWORD_VERIFY_KEY_MAX,
	    sp->key, &sp->key_len) == -1)
		return -1;
	return 0;
}

int password_hash(const char *password, char *out, size_t outlen)
{
	unsigned char salt[PASSWORD_SALT_BYTES], key[PASSWORD_KEY_BYTES];
	char salt64[BASE64_LEN(PASSWORD_SALT_BYTES) + 1], key64[BASE64_LEN(PASSWORD_KEY_BYTES) + 1];
	int n;

	if (!out || outlen == 0)
		return -1;
	out[0] = '\0';
	if (!password || outlen < PASSWORD_HASH_MAX)
		return -1;
	if (RAND_bytes(salt, sizeof salt) != 1)
		return -1;
	if (scrypt_derive(password, salt, sizeof salt, PASSWORD_SCRYPT_LOG2_N,
	    PASSWORD_SCRYPT_R, PASSWORD_SCRYPT_P, key, sizeof key) == -1)
		return -1;
	EVP_EncodeBlock((unsigned char *)salt64, salt, sizeof salt);
	EVP_EncodeBlock((unsigned char *)key64, key, sizeof key);
	OPENSSL_cleanse(key, sizeof key);
	n = snprintf(out, outlen, SCHEME "$%d$%d$%d$%s$%s", PASSWORD_SCRYPT_LOG2_N,
	    PASSWORD_SCRYPT_R, PASSWORD_SCRYPT_P, salt64, key64);
	OPENSSL_cleanse(key64, sizeof key64);
	if (n < 0 || (size_t)n >= outlen) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

int password_verify(const char *password, const char *stored)
{
	struct scrypt_params sp;
	unsigned char key[PASSWORD_VERIFY_KEY_MAX];
	int match;

	if (!stored || params_parse(stored, &sp) == -1)
		return -1;
	if (!password)
		return 0;
	if (scrypt_derive(password, sp.salt, sp.salt_len, sp.log2_n, sp.r, sp.p,
	    key, sp.key_len) == -1)
		return -1;
	match = CRYPTO_memcmp(key, sp.key, sp.key_len) == 0;
	OPENSSL_cleanse(key, sizeof key);
	return match;
}

bool password_acceptable(const char *password, char *why, size_t len)
{
	size_t n;

	if (why && len)
		why[0] = '\0';
	if (!password)
		return reject(why, len, "no password given");
	n = strnlen(password, PASSWORD_MAX_LEN + 1);
	if (n < PASSWORD_MIN_LEN)
		return reject(why, len, "password must be at least %d characters", PASSWORD_MIN_LEN);
	if (n > PASSWORD_MAX_LEN)
		return reject(why, len, "password must be at most %d characters", PASSWORD_MAX_LEN);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)password[i];
		if (c < 0x20 || c == 0x7f)
			return reject(why, len, "password must not contain control characters");
		if (c > 0x7f)
			return reject(why, len,
			    "password must use printable ASCII only (letters, digits, punctuation, space)");
	}
	if (password[0] == ' ' || password[n - 1] == ' ')
		return reject(why, len, "password must not begin or end with a space");
	return true;
}
