#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <sqlite3.h>

#include "log.h"
#include "syncer.h"

struct syncer {
	int fd;				/* the WAL, opened only to fsync it */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	sqlite3 *copier;		/* our own connection, for checkpoints */
	pthread_t copier_thread;
	pthread_cond_t copy_wake;
	bool copy_wanted;
	uint64_t requested;		/* newest commit made */
	uint64_t flushed;		/* newest commit known durable (worker side) */
	uint64_t reported;		/* newest commit reported to the loop */
	bool stopping, failed;
	bool locks_made, worker_running, copier_running;
	int notify[2];			/* worker -> loop */
	struct event *ev;
	void (*durable)(void *arg, uint64_t seq);
	void *arg;
	long test_delay_ms;		/* test hook: stall before each flush */
};

/*
 * A test hook, not a setting: CHESSD_TEST_SYNC_DELAY_MS makes each flush
 * wait that long first, as a slow disk would, so that tests can see what
 * clients are shown before their commit is durable.
 */
static long test_delay_ms(void)
{
	const char *text = getenv("CHESSD_TEST_SYNC_DELAY_MS");
	long ms = text ? strtol(text, NULL, 10) : 0;

	return ms > 0 && ms <= 60000 ? ms : 0;
}

/*
 * fsync flushes the file's data whichever descriptor names it, so our own
 * read-only descriptor on the WAL makes SQLite's appended frames durable.
 */
static void *worker(void *arg)
{
	struct syncer *s = arg;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->stopping && s->requested == s->flushed)
			pthread_cond_wait(&s->wake, &s->lock);
		if (s->stopping)
			break;
		uint64_t target = s->requested;
		pthread_mutex_unlock(&s->lock);
		if (s->test_delay_ms) {
			struct timespec ts = { s->test_delay_ms / 1000, s->test_delay_ms % 1000 * 1000000 };
			nanosleep(&ts, NULL);
		}
		int rc = fdatasync(s->fd);
		pthread_mutex_lock(&s->lock);
		if (rc < 0) {
			s->failed = true;
			break;
		}
		s->flushed = target;
		char byte = 1;
		if (write(s->notify[1], &byte, 1) < 0) {
			/* A full pipe already holds a wake-up for the loop. */
		}
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/*
 * Copies the WAL into the database (a passive checkpoint: it never waits
 * for the loop's connection).  On its own thread, so that the fsync of the
 * database file delays neither the loop nor the next WAL flush.
 */
static void *copier(void *arg)
{
	struct syncer *s = arg;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->stopping && !s->copy_wanted)
			pthread_cond_wait(&s->copy_wake, &s->lock);
		if (s->stopping)
			break;
		s->copy_wanted = false;
		pthread_mutex_unlock(&s->lock);
		int rc = sqlite3_wal_checkpoint_v2(s->copier, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL,
		    NULL);
		if (rc != SQLITE_OK && rc != SQLITE_BUSY)
			log_warn("syncer: checkpoint: %s", sqlite3_errmsg(s->copier));
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void on_flushed(evutil_socket_t fd, short what, void *arg)
{
	struct syncer *s = arg;
	char drain[64];

	(void)what;
	while (read(fd, drain, sizeof drain) > 0)
		;
	pthread_mutex_lock(&s->lock);
	uint64_t flushed = s->flushed;
	bool failed = s->failed;
	pthread_mutex_unlock(&s->lock);
	if (failed)
		fatal("cannot flush the database log to disk; stopping rather than acknowledge "
		    "unsaved data");
	if (flushed > s->reported) {
		s->reported = flushed;
		s->durable(s->arg, flushed);
	}
}

struct syncer *syncer_new(struct event_base *base, const char *db_path,
    void (*durable)(void *arg, uint64_t seq), void *arg)
{
	struct syncer *s = calloc(1, sizeof *s);
	char wal_path[4096];

	if (!s)
		return NULL;
	s->durable = durable;
	s->arg = arg;
	s->test_delay_ms = test_delay_ms();
	if (s->test_delay_ms)
		log_warn("syncer: test hook: each flush waits %ld ms", s->test_delay_ms);
	s->notify[0] = s->notify[1] = -1;
	snprintf(wal_path, sizeof wal_path, "%s-wal", db_path);
	if ((s->fd = open(wal_path, O_RDONLY | O_CLOEXEC)) < 0 ||
	    pipe2(s->notify, O_NONBLOCK | O_CLOEXEC) < 0 ||
	    sqlite3_open_v2(db_path, &s->copier, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    /* A first read opens the WAL; until then a checkpoint does nothing. */
	    sqlite3_exec(s->copier, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL) !=
	    SQLITE_OK) {
		log_warn("syncer: cannot open %s; commits will flush in the loop", wal_path);
		syncer_free(s);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->wake, NULL);
	pthread_cond_init(&s->copy_wake, NULL);
	s->locks_made = true;
	s->ev = event_new(base, s->notify[0], EV_READ | EV_PERSIST, on_flushed, s);
	if (!s->ev || event_add(s->ev, NULL) < 0) {
		syncer_free(s);
		return NULL;
	}
	if (pthread_create(&s->thread, NULL, worker, s)) {
		syncer_free(s);
		return NULL;
	}
	s->worker_running = true;
	if (pthread_create(&s->copier_thread, NULL, copier, s)) {
		syncer_free(s);
		return NULL;
	}
	s->copier_running = true;
	return s;
}

void syncer_request(struct syncer *s, uint64_t seq)
{
	pthread_mutex_lock(&s->lock);
	if (seq > s->requested)
		s->requested = seq;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

int syncer_flush_now(struct syncer *s)
{
	pthread_mutex_lock(&s->lock);
	uint64_t target = s->requested;
	pthread_mutex_unlock(&s->lock);
	if (fdatasync(s->fd) < 0)
		return -1;
	pthread_mutex_lock(&s->lock);
	if (target > s->flushed)
		s->flushed = target;
	pthread_mutex_unlock(&s->lock);
	if (target > s->reported) {
		s->reported = target;
		s->durable(s->arg, target);
	}
	return 0;
}

void syncer_checkpoint(struct syncer *s)
{
	pthread_mutex_lock(&s->lock);
	s->copy_wanted = true;
	pthread_cond_signal(&s->copy_wake);
	pthread_mutex_unlock(&s->lock);
}

void syncer_free(struct syncer *s)
{
	if (!s)
		return;
	if (s->locks_made) {
		pthread_mutex_lock(&s->lock);
		s->stopping = true;
		pthread_cond_signal(&s->wake);
		pthread_cond_signal(&s->copy_wake);
		pthread_mutex_unlock(&s->lock);
		if (s->worker_running)
			pthread_join(s->thread, NULL);
		if (s->copier_running)
			pthread_join(s->copier_thread, NULL);
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->wake);
		pthread_cond_destroy(&s->copy_wake);
	}
	if (s->ev)
		event_free(s->ev);
	sqlite3_close(s->copier);
	if (s->fd >= 0)
		close(s->fd);
	if (s->notify[0] >= 0)
		close(s->notify[0]);
	if (s->notify[1] >= 0)
		close(s->notify[1]);
	free(s);
}
