#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <unistd.h>

#include <event2/event.h>
#include <openssl/crypto.h>

#include "db.h"
#include "hasher.h"
#include "log.h"
#include "password.h"

struct hasher_job {
	char password[PASSWORD_MAX_LEN + 1];
	char new_password[PASSWORD_MAX_LEN + 1];	/* empty: none */
	char stored[DB_PASSWORD_MAX];	/* empty: make a new hash */
	char hash[PASSWORD_HASH_MAX];
	bool verify, cancelled;
	int result;
	hasher_done_fn *done;
	void *arg;
	TAILQ_ENTRY(hasher_job) link;
};

TAILQ_HEAD(job_list, hasher_job);

struct hasher {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct job_list todo, finished;
	int queued;
	bool stopping;
	int notify[2];		/* worker -> loop: "something finished" */
	struct event *ev;
};

static void *worker(void *arg)
{
	struct hasher *h = arg;

	pthread_mutex_lock(&h->lock);
	for (;;) {
		while (!h->stopping && TAILQ_EMPTY(&h->todo))
			pthread_cond_wait(&h->wake, &h->lock);
		if (h->stopping)
			break;
		struct hasher_job *job = TAILQ_FIRST(&h->todo);
		TAILQ_REMOVE(&h->todo, job, link);
		pthread_mutex_unlock(&h->lock);

		if (job->verify) {
			job->result = password_verify(job->password, job->stored);
			if (job->result == 1 && job->new_password[0] &&
			    password_hash(job->new_password, job->hash, sizeof job->hash) < 0)
				job->result = -1;
		} else {
			job->result = password_hash(job->password, job->hash, sizeof job->hash);
		}
		OPENSSL_cleanse(job->password, sizeof job->password);
		OPENSSL_cleanse(job->new_password, sizeof job->new_password);

		pthread_mutex_lock(&h->lock);
		TAILQ_INSERT_TAIL(&h->finished, job, link);
		char byte = 1;
		if (write(h->notify[1], &byte, 1) < 0) {
			/* The pipe is full, so the loop has a wake-up pending anyway. */
		}
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* On the loop: deliver every finished job to its owner. */
static void deliver(evutil_socket_t fd, short what, void *arg)
{
	struct hasher *h = arg;
	char drain[64];
	struct job_list ready = TAILQ_HEAD_INITIALIZER(ready);

	(void)what;
	while (read(fd, drain, sizeof drain) > 0)
		;
	pthread_mutex_lock(&h->lock);
	TAILQ_CONCAT(&ready, &h->finished, link);
	pthread_mutex_unlock(&h->lock);
	struct hasher_job *job;
	while ((job = TAILQ_FIRST(&ready))) {
		TAILQ_REMOVE(&ready, job, link);
		pthread_mutex_lock(&h->lock);
		h->queued--;
		pthread_mutex_unlock(&h->lock);
		if (!job->cancelled)
			job->done(job->arg, job->result, job->hash[0] ? job->hash : NULL);
		OPENSSL_cleanse(job, sizeof *job);
		free(job);
	}
}

struct hasher *hasher_new(struct event_base *base)
{
	struct hasher *h = calloc(1, sizeof *h);

	if (!h)
		return NULL;
	TAILQ_INIT(&h->todo);
	TAILQ_INIT(&h->finished);
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->wake, NULL);
	if (pipe2(h->notify, O_NONBLOCK | O_CLOEXEC) < 0) {
		free(h);
		return NULL;
	}
	h->ev = event_new(base, h->notify[0], EV_READ | EV_PERSIST, deliver, h);
	if (!h->ev || event_add(h->ev, NULL) < 0 || pthread_create(&h->thread, NULL, worker, h)) {
		if (h->ev)
			event_free(h->ev);
		close(h->notify[0]);
		close(h->notify[1]);
		free(h);
		return NULL;
	}
	return h;
}

void hasher_free(struct hasher *h)
{
	struct hasher_job *job;

	if (!h)
		return;
	pthread_mutex_lock(&h->lock);
	h->stopping = true;
	pthread_cond_signal(&h->wake);
	pthread_mutex_unlock(&h->lock);
	pthread_join(h->thread, NULL);
	while ((job = TAILQ_FIRST(&h->todo))) {
		TAILQ_REMOVE(&h->todo, job, link);
		OPENSSL_cleanse(job, sizeof *job);
		free(job);
	}
	while ((job = TAILQ_FIRST(&h->finished))) {
		TAILQ_REMOVE(&h->finished, job, link);
		OPENSSL_cleanse(job, sizeof *job);
		free(job);
	}
	event_free(h->ev);
	close(h->notify[0]);
	close(h->notify[1]);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->wake);
	free(h);
}

struct hasher_job *hasher_submit(struct hasher *h, const char *password, const char *stored,
    const char *new_password, hasher_done_fn *done, void *arg)
{
	struct hasher_job *job;

	if (strlen(password) > PASSWORD_MAX_LEN || (stored && strlen(stored) >= DB_PASSWORD_MAX) ||
	    (new_password && strlen(new_password) > PASSWORD_MAX_LEN))
		return NULL;
	pthread_mutex_lock(&h->lock);
	bool full = h->queued >= HASHER_QUEUE_MAX;
	pthread_mutex_unlock(&h->lock);
	if (full || !(job = calloc(1, sizeof *job)))
		return NULL;
	strcpy(job->password, password);
	if (stored)
		strcpy(job->stored, stored);
	if (new_password)
		strcpy(job->new_password, new_password);
	job->verify = stored != NULL;
	job->done = done;
	job->arg = arg;
	pthread_mutex_lock(&h->lock);
	h->queued++;
	TAILQ_INSERT_TAIL(&h->todo, job, link);
	pthread_cond_signal(&h->wake);
	pthread_mutex_unlock(&h->lock);
	return job;
}

void hasher_cancel(struct hasher *h, struct hasher_job *job)
{
	/* The job may be running; it is freed when delivered. */
	pthread_mutex_lock(&h->lock);
	job->cancelled = true;
	pthread_mutex_unlock(&h->lock);
}
