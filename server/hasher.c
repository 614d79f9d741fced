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
#include "limit.h"
#include "log.h"
#include "password.h"

struct hasher_job {
	char password[PASSWORD_MAX_LEN + 1];
	char new_password[PASSWORD_MAX_LEN + 1];	/* empty: none */
	char stored[DB_PASSWORD_MAX];	/* empty: make a new hash */
	char hash[PASSWORD_HASH_MAX];
	bool verify, cancelled;
	bool signup;			/* a new hash (registration), not a login */
	int result;
	hasher_done_fn *done;
	void *arg;
	TAILQ_ENTRY(hasher_job) link;
};

TAILQ_HEAD(job_list, hasher_job);

/*
 * Logins and registrations wait in separate queues.  Workers take logins
 * first, and registrations only while a worker stays free for logins (with
 * one thread, a login waits for at most the one hash being run), so a flood
 * of registrations never starves people logging in to their accounts.
 */
struct hasher {
	pthread_t *threads;
	int thread_count;
	int signup_slots;		/* workers that may hash registrations at once */
	int signups_running;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct job_list logins, signups, finished;
	int queued, signups_queued;
	int queue_max;		/* logins queued at most */
	bool stopping;
	int notify[2];		/* worker -> loop: "something finished" */
	struct event *ev;
};

/* The next job a worker may run, under the lock; NULL when none may run now. */
static struct hasher_job *next_job(struct hasher *h)
{
	struct hasher_job *job = TAILQ_FIRST(&h->logins);

	if (job) {
		TAILQ_REMOVE(&h->logins, job, link);
		return job;
	}
	if ((job = TAILQ_FIRST(&h->signups)) && h->signups_running < h->signup_slots) {
		TAILQ_REMOVE(&h->signups, job, link);
		h->signups_running++;
		return job;
	}
	return NULL;
}

static void *worker(void *arg)
{
	struct hasher *h = arg;
	struct hasher_job *job;

	pthread_mutex_lock(&h->lock);
	for (;;) {
		job = NULL;
		while (!h->stopping && !(job = next_job(h)))
			pthread_cond_wait(&h->wake, &h->lock);
		if (!job)
			break;
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
		if (job->signup) {
			h->signups_running--;
			pthread_cond_broadcast(&h->wake);
		}
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
		if (job->signup)
			h->signups_queued--;
		else
			h->queued--;
		pthread_mutex_unlock(&h->lock);
		if (!job->cancelled)
			job->done(job->arg, job->result, job->hash[0] ? job->hash : NULL);
		OPENSSL_cleanse(job, sizeof *job);
		free(job);
	}
}

static void stop_workers(struct hasher *h)
{
	pthread_mutex_lock(&h->lock);
	h->stopping = true;
	pthread_cond_broadcast(&h->wake);
	pthread_mutex_unlock(&h->lock);
	for (int i = 0; i < h->thread_count; i++)
		pthread_join(h->threads[i], NULL);
	h->thread_count = 0;
}

static void free_jobs(struct job_list *list)
{
	struct hasher_job *job;

	while ((job = TAILQ_FIRST(list))) {
		TAILQ_REMOVE(list, job, link);
		OPENSSL_cleanse(job, sizeof *job);
		free(job);
	}
}

struct hasher *hasher_new(struct event_base *base, int threads, int queue_max)
{
	struct hasher *h = calloc(1, sizeof *h);

	if (!h)
		return NULL;
	if (threads < 1)
		threads = 1;
	TAILQ_INIT(&h->logins);
	TAILQ_INIT(&h->signups);
	TAILQ_INIT(&h->finished);
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->wake, NULL);
	h->signup_slots = threads > 1 ? threads - 1 : 1;
	h->queue_max = queue_max < 1 ? 1 : queue_max;
	if (!(h->threads = calloc((size_t)threads, sizeof *h->threads)) ||
	    pipe2(h->notify, O_NONBLOCK | O_CLOEXEC) < 0) {
		free(h->threads);
		free(h);
		return NULL;
	}
	h->ev = event_new(base, h->notify[0], EV_READ | EV_PERSIST, deliver, h);
	bool ok = h->ev && event_add(h->ev, NULL) == 0;
	while (ok && h->thread_count < threads) {
		if (pthread_create(&h->threads[h->thread_count], NULL, worker, h))
			ok = false;
		else
			h->thread_count++;
	}
	if (!ok) {
		stop_workers(h);
		if (h->ev)
			event_free(h->ev);
		close(h->notify[0]);
		close(h->notify[1]);
		free(h->threads);
		free(h);
		return NULL;
	}
	return h;
}

int hasher_threads(const struct hasher *h)
{
	return h->thread_count;
}

bool hasher_full(const struct hasher *h)
{
	/* Workers never change the count: submit and deliver, both on the loop, do. */
	return h->queued >= h->queue_max;
}

void hasher_free(struct hasher *h)
{
	if (!h)
		return;
	stop_workers(h);
	free_jobs(&h->logins);
	free_jobs(&h->signups);
	free_jobs(&h->finished);
	free(h->threads);
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
	bool signup = stored == NULL;
	pthread_mutex_lock(&h->lock);
	bool full = signup ? h->signups_queued >= LIMIT_HASHER_SIGNUP_QUEUE :
	    h->queued >= h->queue_max;
	pthread_mutex_unlock(&h->lock);
	if (full || !(job = calloc(1, sizeof *job)))
		return NULL;
	strcpy(job->password, password);
	if (stored)
		strcpy(job->stored, stored);
	if (new_password)
		strcpy(job->new_password, new_password);
	job->verify = stored != NULL;
	job->signup = signup;
	job->done = done;
	job->arg = arg;
	pthread_mutex_lock(&h->lock);
	if (signup) {
		h->signups_queued++;
		TAILQ_INSERT_TAIL(&h->signups, job, link);
	} else {
		h->queued++;
		TAILQ_INSERT_TAIL(&h->logins, job, link);
	}
	pthread_cond_broadcast(&h->wake);
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
