#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "error.h"
#include "tls.h"

#define CERT_CN_PREFIX		"chessd"
#define CERT_CN_MAX		64	/* ub-common-name in RFC 5280 */
#define CERT_SERIAL_BYTES	16
#define CERT_BACKDATE_SECONDS	3600	/* tolerate clients whose clock is a little behind */
#define HOSTNAME_MAX		253

struct tls {
	SSL_CTX *ctx;
	char *cert_path;
	char *key_path;
	char fingerprint[TLS_FINGERPRINT_MAX];
};

static int fail_ssl(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Like error_set(), with the first error on OpenSSL's queue (the root cause; later
 * entries are callers' summaries) and its detail text appended, and the queue emptied so it
 * cannot leak into the next connection's error reporting.
 */
static int fail_ssl(char *err, size_t errlen, const char *fmt, ...)
{
	const char *data = NULL;
	int flags = 0;
	unsigned long code = ERR_get_error_all(NULL, NULL, NULL, &data, &flags);
	char what[512], reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (!(flags & ERR_TXT_STRING) || !data || strchr(data, '\n'))
		data = "";
	if (code) {
		ERR_error_string_n(code, reason, sizeof reason);
		error_set(err, errlen, "%s: %s%s%s%s", what, reason, *data ? " (" : "", data,
		    *data ? ")" : "");
	} else {
		error_set(err, errlen, "%s", what);
	}
	ERR_clear_error();
	return -1;
}

static char *path_join(const char *dir, const char *name)
{
	size_t len = strlen(dir) + 1 + strlen(name) + 1;
	char *path = malloc(len);

	if (path)
		snprintf(path, len, "%s/%s", dir, name);
	return path;
}

/* Never prompt on the terminal for a passphrase: an encrypted key is an error. */
static int no_passphrase(char *buf, int size, int rwflag, void *arg)
{
	(void)buf;
	(void)size;
	(void)rwflag;
	(void)arg;
	return 0;
}

static int pem_write_key(FILE *f, void *obj)
{
	return PEM_write_PrivateKey(f, obj, NULL, NULL, 0, NULL, NULL);
}

static int pem_write_cert(FILE *f, void *obj)
{
	return PEM_write_X509(f, obj);
}

static void dir_sync(const char *path)
{
	char *dir = strdup(path), *slash;
	int fd;

	if (!dir)
		return;
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd != -1) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/*
 * Writes a PEM object to path through a new temporary file beside it (made
 * with O_EXCL and mode 0600, so a key is never readable by others even for
 * a moment), synced and renamed over path: a crash leaves either no file
 * or the complete one.
 */
static int file_write_atomic(const char *path, mode_t mode, int (*write_pem)(FILE *, void *),
    void *obj, char *err, size_t errlen)
{
	char *tmp = malloc(strlen(path) + sizeof ".XXXXXX");
	FILE *f = NULL;
	int fd, rc = -1;

	if (!tmp)
		return error_set(err, errlen, "out of memory");
	sprintf(tmp, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd == -1) {
		error_set(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (fchmod(fd, mode) == -1) {
		error_set(err, errlen, "cannot set mode of %s: %s", tmp, strerror(errno));
		close(fd);
		goto out;
	}
	f = fdopen(fd, "w");
	if (!f) {
		error_set(err, errlen, "cannot open %s: %s", tmp, strerror(errno));
		close(fd);
		goto out;
	}
	if (!write_pem(f, obj)) {
		fail_ssl(err, errlen, "cannot write %s", tmp);
		fclose(f);
		goto out;
	}
	if (fflush(f) == EOF || fsync(fileno(f)) == -1) {
		error_set(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		fclose(f);
		goto out;
	}
	if (fclose(f) == EOF) {
		error_set(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (rename(tmp, path) == -1) {
		error_set(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		goto out;
	}
	dir_sync(path);
	rc = 0;
out:
	if (rc == -1)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* The host name if it can appear in a dNSName (letters, digits, '-', '.'), else "". */
static void hostname_for_cert(char out[HOSTNAME_MAX + 1])
{
	char name[HOSTNAME_MAX + 2];

	out[0] = '\0';
	if (gethostname(name, sizeof name) == -1)
		return;
	name[sizeof name - 1] = '\0';
	if (name[0] == '\0' || strlen(name) > HOSTNAME_MAX || strcmp(name, "localhost") == 0)
		return;
	for (const char *p = name; *p; p++) {
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && *p != '-' && *p != '.')
			return;
	}
	memcpy(out, name, strlen(name) + 1);
}

static int cert_add_ext(X509 *x, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;
	int ok;

	X509V3_set_ctx_nodb(&ctx);
	X509V3_set_ctx(&ctx, x, x, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	if (!ext)
		return -1;
	ok = X509_add_ext(x, ext, -1);
	X509_EXTENSION_free(ext);
	return ok ? 0 : -1;
}

/* A random positive serial of CERT_SERIAL_BYTES, never zero. */
static int cert_set_serial(X509 *x)
{
	unsigned char bytes[CERT_SERIAL_BYTES];
	BIGNUM *bn;
	int ok;

	if (RAND_bytes(bytes, sizeof bytes) != 1)
		return -1;
	bytes[0] = (unsigned char)((bytes[0] & 0x7f) | 0x01);
	bn = BN_bin2bn(bytes, sizeof bytes, NULL);
	if (!bn)
		return -1;
	ok = BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x)) != NULL;
	BN_free(bn);
	return ok ? 0 : -1;
}

/* A self-signed server certificate for key, good for localhost and this host's name. */
static X509 *cert_make(EVP_PKEY *key, char *err, size_t errlen)
{
	char host[HOSTNAME_MAX + 1], cn[CERT_CN_MAX + 1], san[HOSTNAME_MAX + 64];
	X509_NAME *name;
	X509 *x;

	hostname_for_cert(host);
	/* The CN is cosmetic (clients match the SAN), so a long name is cut to fit. */
	snprintf(cn, sizeof cn, CERT_CN_PREFIX "%s%.*s", host[0] ? " " : "",
	    CERT_CN_MAX - (int)sizeof CERT_CN_PREFIX, host);
	snprintf(san, sizeof san, "DNS:localhost%s%s,IP:127.0.0.1,IP:::1",
	    host[0] ? ",DNS:" : "", host);

	x = X509_new();
	if (!x) {
		fail_ssl(err, errlen, "cannot make certificate");
		return NULL;
	}
	name = X509_get_subject_name(x);
	if (!X509_set_version(x, X509_VERSION_3) || cert_set_serial(x) == -1 ||
	    !X509_gmtime_adj(X509_getm_notBefore(x), -CERT_BACKDATE_SECONDS) ||
	    !X509_time_adj_ex(X509_getm_notAfter(x), TLS_CERT_DAYS, -CERT_BACKDATE_SECONDS, NULL) ||
	    !X509_set_pubkey(x, key) ||
	    !X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)cn,
	    -1, -1, 0) ||
	    !X509_set_issuer_name(x, name)) {
		fail_ssl(err, errlen, "cannot fill in certificate");
		X509_free(x);
		return NULL;
	}
	if (cert_add_ext(x, NID_basic_constraints, "critical,CA:FALSE") == -1 ||
	    cert_add_ext(x, NID_key_usage, "critical,digitalSignature") == -1 ||
	    cert_add_ext(x, NID_ext_key_usage, "serverAuth") == -1 ||
	    cert_add_ext(x, NID_subject_key_identifier, "hash") == -1 ||
	    cert_add_ext(x, NID_subject_alt_name, san) == -1) {
		fail_ssl(err, errlen, "cannot add certificate extensions");
		X509_free(x);
		return NULL;
	}
	if (!X509_sign(x, key, EVP_sha256())) {
		fail_ssl(err, errlen, "cannot sign certificate");
		X509_free(x);
		return NULL;
	}
	return x;
}

/*
 * Creates a fresh key and self-signed certificate.  The key goes first, so
 * an existing certificate file always means the pair is complete.
 */
static int cert_generate(const char *cert_path, const char *key_path, char *err, size_t errlen)
{
	EVP_PKEY *key;
	X509 *x;
	int rc = -1;

	key = EVP_EC_gen("P-256");
	if (!key)
		return fail_ssl(err, errlen, "cannot generate EC P-256 key");
	x = cert_make(key, err, errlen);
	if (x && file_write_atomic(key_path, 0600, pem_write_key, key, err, errlen) == 0 &&
	    file_write_atomic(cert_path, 0644, pem_write_cert, x, err, errlen) == 0)
		rc = 0;
	X509_free(x);
	EVP_PKEY_free(key);
	return rc;
}

/*
 * Makes sure DATA_DIR/tls holds a certificate and key: creates the directory
 * and, when there is no certificate yet (first start, or a crash between
 * writing the key and the certificate), a new pair.
 */
static int default_files_ensure(const char *dir, const char *cert_path, const char *key_path,
    char *err, size_t errlen)
{
	struct stat st;

	if (mkdir(dir, 0700) == -1 && errno != EEXIST)
		return error_set(err, errlen, "cannot create %s: %s", dir, strerror(errno));
	if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode))
		return error_set(err, errlen, "%s is not a directory", dir);
	if (stat(cert_path, &st) == 0) {
		if (stat(key_path, &st) == -1)
			return error_set(err, errlen, "%s exists but %s does not: %s", cert_path,
			    key_path, strerror(errno));
		return 0;
	}
	if (errno != ENOENT)
		return error_set(err, errlen, "cannot read %s: %s", cert_path, strerror(errno));
	return cert_generate(cert_path, key_path, err, errlen);
}

static int fingerprint_format(X509 *x, char out[TLS_FINGERPRINT_MAX])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len;
	char *p;

	if (!X509_digest(x, EVP_sha256(), md, &len) || len != 32)
		return -1;
	p = out + sprintf(out, "SHA256:");
	for (unsigned int i = 0; i < len; i++) {
		*p++ = hex[md[i] >> 4];
		*p++ = hex[md[i] & 15];
	}
	*p = '\0';
	return 0;
}

/* A server context from the files, and the certificate's fingerprint. */
static SSL_CTX *ctx_build(const char *cert_path, const char *key_path,
    char fingerprint[TLS_FINGERPRINT_MAX], char *err, size_t errlen)
{
	SSL_CTX *ctx;
	X509 *cert;

	ERR_clear_error();
	ctx = SSL_CTX_new(TLS_server_method());
	if (!ctx) {
		fail_ssl(err, errlen, "cannot create TLS context");
		return NULL;
	}
	SSL_CTX_set_default_passwd_cb(ctx, no_passphrase);
	if (!SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION)) {
		fail_ssl(err, errlen, "cannot set minimum TLS version");
		goto fail;
	}
	SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
	/* One session per login: no resumption, so no cache and no tickets to keep. */
	SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_TICKET);
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_num_tickets(ctx, 0);

	if (SSL_CTX_use_certificate_chain_file(ctx, cert_path) != 1) {
		fail_ssl(err, errlen, "cannot load certificate %s", cert_path);
		goto fail;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, key_path, SSL_FILETYPE_PEM) != 1) {
		unsigned long code = ERR_peek_error();
		if (ERR_GET_LIB(code) == ERR_LIB_X509 &&
		    ERR_GET_REASON(code) == X509_R_KEY_VALUES_MISMATCH)
			fail_ssl(err, errlen, "private key %s does not match certificate %s",
			    key_path, cert_path);
		else
			fail_ssl(err, errlen, "cannot load private key %s", key_path);
		goto fail;
	}
	if (SSL_CTX_check_private_key(ctx) != 1) {
		fail_ssl(err, errlen, "private key %s does not match certificate %s", key_path,
		    cert_path);
		goto fail;
	}
	cert = SSL_CTX_get0_certificate(ctx);
	if (!cert || fingerprint_format(cert, fingerprint) == -1) {
		fail_ssl(err, errlen, "cannot fingerprint certificate %s", cert_path);
		goto fail;
	}
	return ctx;
fail:
	SSL_CTX_free(ctx);
	return NULL;
}

struct tls *tls_new(const char *data_dir, const char *cert_file, const char *key_file,
    char *err, size_t errlen)
{
	struct tls *t;
	char *dir = NULL;

	if (!cert_file != !key_file) {
		error_set(err, errlen, "give both a certificate and a key file, or neither");
		return NULL;
	}
	if (!cert_file && !data_dir) {
		error_set(err, errlen, "no data directory for the TLS certificate");
		return NULL;
	}
	t = calloc(1, sizeof *t);
	if (!t) {
		error_set(err, errlen, "out of memory");
		return NULL;
	}
	if (cert_file) {
		t->cert_path = strdup(cert_file);
		t->key_path = strdup(key_file);
	} else {
		dir = path_join(data_dir, TLS_DIR);
		if (dir) {
			t->cert_path = path_join(dir, TLS_CERT_NAME);
			t->key_path = path_join(dir, TLS_KEY_NAME);
		}
	}
	if (!t->cert_path || !t->key_path) {
		error_set(err, errlen, "out of memory");
		goto fail;
	}
	if (!cert_file && default_files_ensure(dir, t->cert_path, t->key_path, err, errlen) == -1)
		goto fail;
	t->ctx = ctx_build(t->cert_path, t->key_path, t->fingerprint, err, errlen);
	if (!t->ctx)
		goto fail;
	free(dir);
	return t;
fail:
	free(dir);
	tls_free(t);
	return NULL;
}

SSL *tls_accept_ssl(struct tls *t)
{
	SSL *ssl = SSL_new(t->ctx);

	if (!ssl)
		ERR_clear_error();
	return ssl;
}

/*
 * The swap needs no bookkeeping: each SSL took its own reference on the
 * context it was made from, so dropping ours frees the old context only
 * after its last connection is freed.
 */
int tls_reload(struct tls *t, char *err, size_t errlen)
{
	char fingerprint[TLS_FINGERPRINT_MAX];
	SSL_CTX *ctx;

	ctx = ctx_build(t->cert_path, t->key_path, fingerprint, err, errlen);
	if (!ctx)
		return -1;
	SSL_CTX_free(t->ctx);
	t->ctx = ctx;
	memcpy(t->fingerprint, fingerprint, sizeof fingerprint);
	return 0;
}

const char *tls_fingerprint(const struct tls *t)
{
	return t->fingerprint;
}

void tls_free(struct tls *t)
{
	if (!t)
		return;
	SSL_CTX_free(t->ctx);
	free(t->cert_path);
	free(t->key_path);
	free(t);
}

void tls_errors_clear(void)
{
	if (ERR_peek_error())
		ERR_clear_error();
}

void tls_close_notify(SSL *ssl)
{
	SSL_shutdown(ssl);
	/* Refused, harmlessly, while part of the alert still waits for the socket. */
	SSL_free_buffers(ssl);
	/* What a failed close_notify left must not reach another connection's SSL_get_error(). */
	tls_errors_clear();
}
