#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>

#include <dirent.h>
#include <malloc.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "tls.h"

#define SOCKET_TIMEOUT_SECONDS 10

struct fixture {
	char dir[64];		/* mkdtemp() data directory */
	char cert[128];		/* dir/tls/cert.pem */
	char key[128];		/* dir/tls/key.pem */
};

/* Removes a mkdtemp() directory and up to two levels below it. */
static void dir_remove(const char *path, int depth)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char sub[512];

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		if (unlink(sub) == -1 && depth > 0)
			dir_remove(sub, depth - 1);
	}
	closedir(d);
	rmdir(path);
}

static struct fixture *fixture_new(void)
{
	struct fixture *f = calloc(1, sizeof *f);

	if (!f)
		return NULL;
	strcpy(f->dir, "/tmp/chessd-tls-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return NULL;
	}
	snprintf(f->cert, sizeof f->cert, "%s/" TLS_DIR "/" TLS_CERT_NAME, f->dir);
	snprintf(f->key, sizeof f->key, "%s/" TLS_DIR "/" TLS_KEY_NAME, f->dir);
	return f;
}

static void fixture_free(struct fixture *f)
{
	dir_remove(f->dir, 2);
	free(f);
}

static int setup(void **state)
{
	*state = fixture_new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	fixture_free(*state);
	return 0;
}

static struct tls *tls_new_ok(const char *dir, const char *cert, const char *key)
{
	char err[512] = "";
	struct tls *t = tls_new(dir, cert, key, err, sizeof err);

	if (!t)
		fail_msg("tls_new: %s", err);
	return t;
}

static X509 *cert_read(const char *path)
{
	FILE *fp = fopen(path, "r");
	X509 *x;

	assert_non_null(fp);
	x = PEM_read_X509(fp, NULL, NULL, NULL);
	fclose(fp);
	assert_non_null(x);
	return x;
}

static void file_read(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
}

static void file_write(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static mode_t file_mode(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_mode & 07777;
}

/* Server side of a handshake, on its own thread so both sides can block. */
struct server_side {
	SSL *ssl;
	int fd;
	int accepted;		/* SSL_accept() returned 1 */
	char line[16];		/* what the client sent after the handshake */
};

static void *server_run(void *arg)
{
	struct server_side *s = arg;
	int n;

	SSL_set_fd(s->ssl, s->fd);
	s->accepted = SSL_accept(s->ssl) == 1;
	if (s->accepted) {
		n = SSL_read(s->ssl, s->line, sizeof s->line - 1);
		if (n > 0) {
			s->line[n] = '\0';
			SSL_write(s->ssl, "pong\n", 5);
		}
	}
	ERR_clear_error();
	return NULL;
}

/*
 * Handshakes server_ssl (from tls_accept_ssl) over a socketpair with a client
 * that trusts only the certificate in ca_file and expects host.  Returns
 * whether the client's SSL_connect succeeded and, through verify, its result;
 * when it did, checks one line goes each way.
 */
static int handshake(SSL *server_ssl, const char *ca_file, const char *host, long *verify)
{
	struct timeval tv = { SOCKET_TIMEOUT_SECONDS, 0 };
	struct server_side s = { .ssl = server_ssl };
	pthread_t thread;
	SSL_CTX *cctx;
	SSL *c;
	char buf[16];
	int fds[2], connected, n;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	for (int i = 0; i < 2; i++) {
		setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		setsockopt(fds[i], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	}
	s.fd = fds[0];

	cctx = SSL_CTX_new(TLS_client_method());
	assert_non_null(cctx);
	assert_int_equal(SSL_CTX_load_verify_locations(cctx, ca_file, NULL), 1);
	SSL_CTX_set_verify(cctx, SSL_VERIFY_PEER, NULL);
	c = SSL_new(cctx);
	assert_non_null(c);
	assert_int_equal(SSL_set1_host(c, host), 1);
	SSL_set_tlsext_host_name(c, host);
	SSL_set_fd(c, fds[1]);

	assert_int_equal(pthread_create(&thread, NULL, server_run, &s), 0);
	connected = SSL_connect(c) == 1;
	*verify = SSL_get_verify_result(c);
	if (connected) {
		assert_int_equal(SSL_write(c, "ping\n", 5), 5);
		n = SSL_read(c, buf, sizeof buf - 1);
		assert_int_equal(n, 5);
		buf[n] = '\0';
		assert_string_equal(buf, "pong\n");
	}
	/* A failed client has sent its alert; closing also unblocks the server. */
	shutdown(fds[1], SHUT_RDWR);
	pthread_join(thread, NULL);
	if (connected) {
		assert_true(s.accepted);
		assert_string_equal(s.line, "ping\n");
	} else {
		assert_false(s.accepted);
	}
	SSL_free(c);
	SSL_CTX_free(cctx);
	close(fds[0]);
	close(fds[1]);
	ERR_clear_error();
	return connected;
}

static void assert_fingerprint_format(const char *fp)
{
	assert_int_equal(strlen(fp), strlen("SHA256:") + 64);
	assert_memory_equal(fp, "SHA256:", 7);
	for (const char *p = fp + 7; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			fail_msg("fingerprint %s has '%c'", fp, *p);
}

static void test_new_creates_files(void **state)
{
	struct fixture *f = *state;
	char dir[128], expected[TLS_FINGERPRINT_MAX];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len;
	struct tls *t;
	X509 *x;

	t = tls_new_ok(f->dir, NULL, NULL);
	snprintf(dir, sizeof dir, "%s/" TLS_DIR, f->dir);
	assert_int_equal(file_mode(dir), 0700);
	assert_int_equal(file_mode(f->key), 0600);
	assert_int_equal(file_mode(f->cert), 0644);

	/* The fingerprint is of the certificate on disk, computed independently. */
	assert_fingerprint_format(tls_fingerprint(t));
	x = cert_read(f->cert);
	assert_int_equal(X509_digest(x, EVP_sha256(), md, &len), 1);
	strcpy(expected, "SHA256:");
	for (unsigned int i = 0; i < len; i++)
		sprintf(expected + 7 + 2 * i, "%02x", md[i]);
	assert_string_equal(tls_fingerprint(t), expected);
	X509_free(x);

	/* No temporary files left behind: exactly the two PEM files. */
	DIR *d = opendir(dir);
	struct dirent *e;
	int files = 0;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			files++;
	closedir(d);
	assert_int_equal(files, 2);
	tls_free(t);
}

static void test_new_reuses_cert(void **state)
{
	struct fixture *f = *state;
	char fp[TLS_FINGERPRINT_MAX], key_before[1024], key_after[1024];
	struct tls *t;

	t = tls_new_ok(f->dir, NULL, NULL);
	strcpy(fp, tls_fingerprint(t));
	tls_free(t);
	file_read(f->key, key_before, sizeof key_before);

	t = tls_new_ok(f->dir, NULL, NULL);
	assert_string_equal(tls_fingerprint(t), fp);
	tls_free(t);
	file_read(f->key, key_after, sizeof key_after);
	assert_string_equal(key_before, key_after);

	/* The same files named explicitly load the same certificate. */
	t = tls_new_ok(NULL, f->cert, f->key);
	assert_string_equal(tls_fingerprint(t), fp);
	tls_free(t);
}

static void test_cert_contents(void **state)
{
	struct fixture *f = *state;
	struct tls *t = tls_new_ok(f->dir, NULL, NULL);
	X509 *x = cert_read(f->cert);
	GENERAL_NAMES *san;
	BASIC_CONSTRAINTS *bc;
	EVP_PKEY *key;
	char group[32], cn[128], host[256] = "";
	int dns = 0, ip4 = 0, ip6 = 0, crit;
	size_t group_len;
	time_t now = time(NULL), later;

	tls_free(t);
	assert_int_equal(X509_get_version(x), X509_VERSION_3);

	san = X509_get_ext_d2i(x, NID_subject_alt_name, NULL, NULL);
	assert_non_null(san);
	for (int i = 0; i < sk_GENERAL_NAME_num(san); i++) {
		const GENERAL_NAME *gn = sk_GENERAL_NAME_value(san, i);
		if (gn->type == GEN_DNS &&
		    strcmp((const char *)ASN1_STRING_get0_data(gn->d.dNSName), "localhost") == 0)
			dns++;
		if (gn->type == GEN_IPADD && ASN1_STRING_length(gn->d.iPAddress) == 4 &&
		    memcmp(ASN1_STRING_get0_data(gn->d.iPAddress), "\x7f\0\0\1", 4) == 0)
			ip4++;
		if (gn->type == GEN_IPADD && ASN1_STRING_length(gn->d.iPAddress) == 16 &&
		    memcmp(ASN1_STRING_get0_data(gn->d.iPAddress),
		    "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\1", 16) == 0)
			ip6++;
	}
	GENERAL_NAMES_free(san);
	assert_int_equal(dns, 1);
	assert_int_equal(ip4, 1);
	assert_int_equal(ip6, 1);
	assert_int_equal(X509_check_host(x, "localhost", 0, 0, NULL), 1);
	assert_int_equal(X509_check_ip_asc(x, "127.0.0.1", 0), 1);
	assert_int_equal(X509_check_ip_asc(x, "::1", 0), 1);
	assert_int_not_equal(X509_check_host(x, "example.com", 0, 0, NULL), 1);
	if (gethostname(host, sizeof host) == 0 && strcmp(host, "localhost") != 0 &&
	    strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") ==
	    strlen(host) && host[0])
		assert_int_equal(X509_check_host(x, host, 0, 0, NULL), 1);

	bc = X509_get_ext_d2i(x, NID_basic_constraints, &crit, NULL);
	assert_non_null(bc);
	assert_false(bc->ca);
	assert_int_equal(crit, 1);
	BASIC_CONSTRAINTS_free(bc);
	assert_int_equal(X509_check_ca(x), 0);
	assert_int_equal(X509_get_key_usage(x), KU_DIGITAL_SIGNATURE);
	assert_int_equal(X509_get_extended_key_usage(x), XKU_SSL_SERVER);

	X509_NAME_get_text_by_NID(X509_get_subject_name(x), NID_commonName, cn, sizeof cn);
	assert_memory_equal(cn, "chessd", 6);
	assert_int_equal(X509_NAME_cmp(X509_get_subject_name(x), X509_get_issuer_name(x)), 0);
	assert_int_equal(X509_get_signature_nid(x), NID_ecdsa_with_SHA256);
	key = X509_get0_pubkey(x);
	assert_int_equal(EVP_PKEY_get_group_name(key, group, sizeof group, &group_len), 1);
	assert_string_equal(group, "prime256v1");
	assert_int_equal(X509_verify(x, key), 1);

	/* Valid since about an hour ago, for TLS_CERT_DAYS days from then. */
	assert_int_equal(X509_cmp_time(X509_get0_notBefore(x), &now), -1);
	later = now - 3600 + 60;
	assert_int_equal(X509_cmp_time(X509_get0_notBefore(x), &later), -1);
	later = now - 3600 - 60;
	assert_int_equal(X509_cmp_time(X509_get0_notBefore(x), &later), 1);
	later = now + (time_t)TLS_CERT_DAYS * 86400 - 3600 - 60;
	assert_int_equal(X509_cmp_time(X509_get0_notAfter(x), &later), 1);
	later = now + (time_t)TLS_CERT_DAYS * 86400 - 3600 + 60;
	assert_int_equal(X509_cmp_time(X509_get0_notAfter(x), &later), -1);
	X509_free(x);
}

static void test_handshake(void **state)
{
	struct fixture *f = *state;
	struct tls *t = tls_new_ok(f->dir, NULL, NULL);
	long verify;
	SSL *ssl;

	ssl = tls_accept_ssl(t);
	assert_non_null(ssl);
	assert_true(handshake(ssl, f->cert, "localhost", &verify));
	assert_int_equal(verify, X509_V_OK);
	assert_true(SSL_version(ssl) >= TLS1_2_VERSION);
	SSL_free(ssl);

	ssl = tls_accept_ssl(t);
	assert_false(handshake(ssl, f->cert, "example.com", &verify));
	assert_int_equal(verify, X509_V_ERR_HOSTNAME_MISMATCH);
	SSL_free(ssl);
	tls_free(t);
}

/* A client that trusts some other certificate refuses this one. */
static void test_handshake_untrusted(void **state)
{
	struct fixture *f = *state;
	struct fixture *other;
	struct tls *t = tls_new_ok(f->dir, NULL, NULL), *t2;
	long verify;
	SSL *ssl;

	other = fixture_new();
	assert_non_null(other);
	t2 = tls_new_ok(other->dir, NULL, NULL);
	ssl = tls_accept_ssl(t);
	assert_false(handshake(ssl, other->cert, "localhost", &verify));
	assert_int_not_equal(verify, X509_V_OK);
	SSL_free(ssl);
	tls_free(t2);
	tls_free(t);
	fixture_free(other);
}

/*
 * Reload with a new pair changes the fingerprint and the certificate served,
 * and a connection made before the reload still completes on the old one.
 */
static void test_reload(void **state)
{
	struct fixture *f = *state;
	struct fixture *other;
	char old_fp[TLS_FINGERPRINT_MAX], old_cert[128], err[512];
	struct tls *t, *t2;
	SSL *before, *after;
	long verify;

	t = tls_new_ok(f->dir, NULL, NULL);
	strcpy(old_fp, tls_fingerprint(t));
	snprintf(old_cert, sizeof old_cert, "%s/old.pem", f->dir);
	assert_int_equal(rename(f->cert, old_cert), 0);
	other = fixture_new();
	assert_non_null(other);
	t2 = tls_new_ok(other->dir, NULL, NULL);
	assert_int_equal(rename(other->cert, f->cert), 0);
	assert_int_equal(rename(other->key, f->key), 0);

	before = tls_accept_ssl(t);
	assert_int_equal(tls_reload(t, err, sizeof err), 0);
	assert_string_not_equal(tls_fingerprint(t), old_fp);
	assert_string_equal(tls_fingerprint(t), tls_fingerprint(t2));
	assert_fingerprint_format(tls_fingerprint(t));

	after = tls_accept_ssl(t);
	assert_true(handshake(after, f->cert, "localhost", &verify));
	SSL_free(after);
	after = tls_accept_ssl(t);
	assert_false(handshake(after, old_cert, "localhost", &verify));
	SSL_free(after);
	assert_true(handshake(before, old_cert, "localhost", &verify));
	SSL_free(before);

	tls_free(t2);
	tls_free(t);
	fixture_free(other);
}

/* A failed reload keeps serving the old certificate and says why. */
static void test_reload_failure(void **state)
{
	struct fixture *f = *state;
	char fp[TLS_FINGERPRINT_MAX], err[512] = "";
	struct tls *t = tls_new_ok(f->dir, NULL, NULL);
	long verify;
	SSL *ssl;

	strcpy(fp, tls_fingerprint(t));
	file_write(f->key, "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n");
	assert_int_equal(tls_reload(t, err, sizeof err), -1);
	assert_non_null(strstr(err, f->key));
	assert_string_equal(tls_fingerprint(t), fp);
	ssl = tls_accept_ssl(t);
	assert_true(handshake(ssl, f->cert, "localhost", &verify));
	SSL_free(ssl);
	tls_free(t);
}

/* The first 36 bytes of a PKCS#8 P-256 key, well-formed PEM around them. */
#define TRUNCATED_KEY "-----BEGIN PRIVATE KEY-----\n" \
	"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"

static const char *const corrupt_keys[] = {
	"",
	"garbage\n",
	TRUNCATED_KEY,
};

static void test_corrupt_key(void **state)
{
	struct fixture *f = *state;
	char err[512];
	struct tls *t = tls_new_ok(f->dir, NULL, NULL);

	tls_free(t);
	for (size_t i = 0; i < sizeof corrupt_keys / sizeof corrupt_keys[0]; i++) {
		file_write(f->key, corrupt_keys[i]);
		err[0] = '\0';
		t = tls_new(f->dir, NULL, NULL, err, sizeof err);
		assert_null(t);
		print_message("corrupt key #%zu: %s\n", i, err);
		assert_non_null(strstr(err, "cannot load private key"));
		assert_non_null(strstr(err, f->key));
		assert_non_null(strstr(err, "routines"));	/* OpenSSL's reason */
		assert_null(strchr(err, '\n'));
	}
	assert_int_equal(ERR_peek_error(), 0);
}

/* A valid key that belongs to another certificate. */
static void test_mismatched_key(void **state)
{
	struct fixture *f = *state;
	struct fixture *other;
	char err[512] = "";
	struct tls *t;

	other = fixture_new();
	assert_non_null(other);
	tls_free(tls_new_ok(f->dir, NULL, NULL));
	tls_free(tls_new_ok(other->dir, NULL, NULL));
	t = tls_new(NULL, f->cert, other->key, err, sizeof err);
	assert_null(t);
	print_message("mismatched key: %s\n", err);
	assert_non_null(strstr(err, "does not match"));
	fixture_free(other);
}

static void test_bad_arguments(void **state)
{
	struct fixture *f = *state;
	char err[512], path[128];
	struct tls *t;

	err[0] = '\0';
	assert_null(tls_new(f->dir, "cert.pem", NULL, err, sizeof err));
	assert_true(err[0] != '\0');
	err[0] = '\0';
	assert_null(tls_new(NULL, NULL, NULL, err, sizeof err));
	assert_true(err[0] != '\0');
	err[0] = '\0';
	assert_null(tls_new(NULL, "/nonexistent/cert.pem", "/nonexistent/key.pem", err,
	    sizeof err));
	assert_non_null(strstr(err, "/nonexistent/cert.pem"));
	print_message("missing files: %s\n", err);

	/* A data directory that does not exist. */
	snprintf(path, sizeof path, "%s/missing", f->dir);
	err[0] = '\0';
	assert_null(tls_new(path, NULL, NULL, err, sizeof err));
	assert_non_null(strstr(err, path));

	/* A certificate without its key is not silently replaced. */
	tls_free(tls_new_ok(f->dir, NULL, NULL));
	assert_int_equal(unlink(f->key), 0);
	err[0] = '\0';
	assert_null(tls_new(f->dir, NULL, NULL, err, sizeof err));
	assert_non_null(strstr(err, f->key));

	/* A key without a certificate (a crash between the two writes) is regenerated. */
	assert_int_equal(unlink(f->cert), 0);
	file_write(f->key, "half\n");
	t = tls_new_ok(f->dir, NULL, NULL);
	assert_int_equal(file_mode(f->key), 0600);
	tls_free(t);
	tls_free(NULL);
}

/* Whatever an earlier call left on the queue is gone, and an empty queue stays empty. */
static void test_errors_clear(void **state)
{
	(void)state;
	ERR_clear_error();
	tls_errors_clear();
	assert_int_equal(ERR_peek_error(), 0);
	ERR_raise(ERR_LIB_SSL, SSL_R_BAD_LENGTH);
	ERR_raise(ERR_LIB_SSL, SSL_R_BAD_PACKET);
	assert_int_not_equal(ERR_peek_error(), 0);
	tls_errors_clear();
	assert_int_equal(ERR_peek_error(), 0);
	assert_int_equal(ERR_get_error(), 0);
}

/* Bytes OpenSSL holds, counted by the allocator installed in main(). */
static size_t openssl_live_bytes;

static void *count_malloc(size_t n, const char *file, int line)
{
	void *p = malloc(n);

	(void)file;
	(void)line;
	if (p)
		openssl_live_bytes += malloc_usable_size(p);
	return p;
}

static void *count_realloc(void *old, size_t n, const char *file, int line)
{
	size_t was = old ? malloc_usable_size(old) : 0;
	void *p = realloc(old, n);

	(void)file;
	(void)line;
	if (p || !n)
		openssl_live_bytes -= was;
	if (p)
		openssl_live_bytes += malloc_usable_size(p);
	return p;
}

static void count_free(void *p, const char *file, int line)
{
	(void)file;
	(void)line;
	if (p)
		openssl_live_bytes -= malloc_usable_size(p);
	free(p);
}

/* A server SSL from t and a client, handshaken over a non-blocking socket pair. */
static void pair_open(struct tls *t, SSL_CTX *cctx, SSL **server, SSL **client, int fds[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
	*server = tls_accept_ssl(t);
	*client = SSL_new(cctx);
	assert_non_null(*server);
	assert_non_null(*client);
	SSL_set_fd(*server, fds[0]);
	SSL_set_fd(*client, fds[1]);
	SSL_set_accept_state(*server);
	SSL_set_connect_state(*client);
	for (int i = 0; i < 64 && !(SSL_is_init_finished(*server) && SSL_is_init_finished(*client));
	    i++) {
		SSL_do_handshake(*client);
		SSL_do_handshake(*server);
	}
	assert_true(SSL_is_init_finished(*server));
	assert_true(SSL_is_init_finished(*client));
	ERR_clear_error();
}

/*
 * close_notify reaches the client, the record buffer it took is given back
 * at once (not when the SSL is freed), and neither a peer already gone nor
 * a handshake cut short leaves an error behind for the next connection.
 */
static void test_close_notify(void **state)
{
	struct fixture *f = *state;
	struct tls *t = tls_new_ok(f->dir, NULL, NULL);
	SSL_CTX *cctx = SSL_CTX_new(TLS_client_method());
	SSL *server, *client;
	char buf[16];
	int fds[2];

	assert_non_null(cctx);
	pair_open(t, cctx, &server, &client, fds);
	size_t before = openssl_live_bytes;
	tls_close_notify(server);
	print_message("close_notify: %zd bytes still held\n",
	    (ssize_t)(openssl_live_bytes - before));
	/* A record buffer is 16 KB and more; what may stay is bookkeeping. */
	assert_true(openssl_live_bytes < before + 4096);
	assert_int_equal(SSL_read(client, buf, sizeof buf), 0);
	assert_int_equal(SSL_get_error(client, 0), SSL_ERROR_ZERO_RETURN);
	assert_int_equal(ERR_peek_error(), 0);
	SSL_free(server);
	SSL_free(client);
	close(fds[0]);
	close(fds[1]);

	pair_open(t, cctx, &server, &client, fds);
	SSL_free(client);
	close(fds[1]);
	tls_close_notify(server);
	assert_int_equal(ERR_peek_error(), 0);
	SSL_free(server);
	close(fds[0]);

	/* Closed before its handshake ended, which OpenSSL reports as an error. */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
	server = tls_accept_ssl(t);
	assert_non_null(server);
	SSL_set_fd(server, fds[0]);
	SSL_set_accept_state(server);
	assert_int_equal(SSL_do_handshake(server), -1);
	assert_int_equal(SSL_get_error(server, -1), SSL_ERROR_WANT_READ);
	tls_close_notify(server);
	assert_int_equal(ERR_peek_error(), 0);
	SSL_free(server);
	close(fds[0]);
	close(fds[1]);
	SSL_CTX_free(cctx);
	tls_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_creates_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_reuses_cert, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cert_contents, setup, teardown),
		cmocka_unit_test_setup_teardown(test_handshake, setup, teardown),
		cmocka_unit_test_setup_teardown(test_handshake_untrusted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reload, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reload_failure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mismatched_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_arguments, setup, teardown),
		cmocka_unit_test(test_errors_clear),
		cmocka_unit_test_setup_teardown(test_close_notify, setup, teardown),
	};

	/* Before OpenSSL's first allocation, or it refuses. */
	if (!CRYPTO_set_mem_functions(count_malloc, count_realloc, count_free))
		return 1;
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
