/*
 * Account passwords: scrypt hashes stored as self-describing strings,
 *	scrypt$<log2 N>$<r>$<p>$<salt base64>$<key base64>
 * so the cost can be raised later without invalidating old rows.  All
 * functions are thread-safe (no shared state; OpenSSL 3 is thread-safe) and
 * meant to run on a worker thread: one hash or verify takes tens of ms.
 */
#ifndef CHESS_PASSWORD_H
#define CHESS_PASSWORD_H

#include <stdbool.h>
#include <stddef.h>

/* Cost of new hashes: 128 * N * r = 32 MiB and ~50-100 ms per hash. */
#define PASSWORD_SCRYPT_LOG2_N	15
#define PASSWORD_SCRYPT_N	(1u << PASSWORD_SCRYPT_LOG2_N)
#define PASSWORD_SCRYPT_R	8
#define PASSWORD_SCRYPT_P	1
#define PASSWORD_SALT_BYTES	16
#define PASSWORD_KEY_BYTES	32

/*
 * What password_verify() accepts from a stored string.  A tampered row must
 * not make the server allocate or spin without bound, so 128 * N * r * p
 * (memory when p is 1, and proportional to time) is capped at 8x the default.
 */
#define PASSWORD_VERIFY_LOG2_N_MIN	10
#define PASSWORD_VERIFY_LOG2_N_MAX	20
#define PASSWORD_VERIFY_R_MAX		32
#define PASSWORD_VERIFY_P_MAX		16
#define PASSWORD_VERIFY_MAX_BYTES	(256ull << 20)
#define PASSWORD_VERIFY_SALT_MIN	8	/* bytes, decoded */
#define PASSWORD_VERIFY_SALT_MAX	32
#define PASSWORD_VERIFY_KEY_MIN		16
#define PASSWORD_VERIFY_KEY_MAX		64

/* Policy for new passwords, in bytes. */
#define PASSWORD_MIN_LEN	4
#define PASSWORD_MAX_LEN	64

/* Room for any string password_verify() accepts, plus the NUL. */
#define PASSWORD_HASH_MAX	160

/*
 * Hashes password with a fresh random salt into out, which must hold
 * PASSWORD_HASH_MAX bytes.  Returns 0, or -1 (out is then "").
 */
int password_hash(const char *password, char *out, size_t outlen);
/*
 * Checks password against a string made by password_hash().  Returns 1 on a
 * match, 0 on a mismatch, -1 when stored is malformed or asks for parameters
 * outside the PASSWORD_VERIFY_* limits (or scrypt itself failed).
 */
int password_verify(const char *password, const char *stored);
/* True when password may be set on an account; otherwise a one-line reason in why. */
bool password_acceptable(const char *password, char *why, size_t len);

#endif
