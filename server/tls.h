/*
 * The server's TLS context: certificate and key from files given on the
 * command line, or a self-signed pair kept in DATA_DIR/tls/ and created on
 * first start.  Reloadable on SIGHUP.  Not thread-safe: use from the event
 * loop thread only.
 */
#ifndef CHESS_TLS_H
#define CHESS_TLS_H

#include <stddef.h>

#include <openssl/ssl.h>

#define TLS_DIR			"tls"		/* under the data directory, mode 0700 */
#define TLS_CERT_NAME		"cert.pem"
#define TLS_KEY_NAME		"key.pem"
#define TLS_CERT_DAYS		3650		/* validity of the generated certificate */
#define TLS_FINGERPRINT_MAX	72		/* "SHA256:" + 64 hex digits + NUL */

struct tls;

/*
 * Loads cert_file and key_file (PEM; the certificate file may carry the
 * chain), or, when both are NULL, DATA_DIR/tls/cert.pem and key.pem,
 * generating a self-signed pair there if there is no certificate yet.  On
 * error returns NULL with one line in err, including OpenSSL's reason.
 */
struct tls *tls_new(const char *data_dir, const char *cert_file, const char *key_file,
    char *err, size_t errlen);
/* A new SSL for an accepted connection, from the current context; NULL on failure. */
SSL *tls_accept_ssl(struct tls *t);
/*
 * Rebuilds the context from the same files and swaps it in; SSL objects
 * made earlier keep the old context alive.  On error the old context stays
 * in use and -1 is returned with the reason in err.  Never generates files.
 */
int tls_reload(struct tls *t, char *err, size_t errlen);
/* "SHA256:" + 64 lowercase hex digits of the certificate in use, for logs and pinning. */
const char *tls_fingerprint(const struct tls *t);
void tls_free(struct tls *t);
/*
 * Empties this thread's OpenSSL error queue, as SSL_get_error() needs before
 * each call; costs a look when it is already empty, as it nearly always is
 * (ERR_clear_error() itself wipes all its slots every time).
 */
void tls_errors_clear(void);
/*
 * Sends close_notify and gives back the record buffer that took it, which
 * OpenSSL otherwise keeps until the SSL is freed: a server closing all its
 * connections in one pass would hold one for each.
 */
void tls_close_notify(SSL *ssl);

#endif
