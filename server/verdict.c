#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/queue.h>
#include <unistd.h>

#include <event2/event.h>

#include "verdict.h"

struct verdict_job {
	struct board board;		/* a copy: the game moves on without the worker */
	enum color side;
	long budget_nodes;
	enum unwinnable_verdict verdict;
	bool cancelled;
	verdict_done_fn *done;
	void *arg;
	TAILQ_ENTRY(verdict_job) link;
};

TAILQ_HEAD(verdict_list, verdict_job);

struct verdicts {
	pthread_t *threads;
	int thread_count;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct verdict_list waiting, finished;
	int queued;			/* submitted, not yet delivered; only the loop changes it */
	int queue_max;
	bool stopping;
	int notify[2];			/* worker -> loop: "something finished" */
	struct event *ev;
};

static void *worker(void *arg)
{
	struct verdicts *vs = arg;
	struct verdict_job *job;

	pthread_mutex_lock(&vs->lock);
	for (;;) {
		while (!vs->stopping && !(job = TAILQ_FIRST(&vs->waiting)))
			pthread_cond_wait(&vs->wake, &vs->lock);
		if (vs->stopping)
			break;
		TAILQ_REMOVE(&vs->waiting, job, link);
		bool cancelled = job->cancelled;
		pthread_mutex_unlock(&vs->lock);

		/* A job cancelled before it started is delivered (freed) undecided. */
		job->verdict = cancelled ? UNWINNABLE_UNDETERMINED :
		    unwinnable_decide(&job->board, job->side, job->budget_nodes, NULL);

		pthread_mutex_lock(&vs->lock);
		TAILQ_INSERT_TAIL(&vs->finished, job, link);
		char byte = 1;
		if (write(vs->notify[1], &byte, 1) < 0) {
			/* The pipe is full, so the loop has a wake-up pending anyway. */
		}
	}
	pthread_mutex_unlock(&vs->lock);
	return NULL;
}

/* On the loop: deliver every finished decision to its owner. */
static void deliver(evutil_socket_t fd, short what, void *arg)
{
	struct verdicts *vs = arg;
	char drain[64];
	struct verdict_list ready = TAILQ_HEAD_INITIALIZER(ready);

	(void)what;
	while (read(fd, drain, sizeof drain) > 0)
		;
	pthread_mutex_lock(&vs->lock);
	TAILQ_CONCAT(&ready, &vs->finished, link);
	pthread_mutex_unlock(&vs->lock);
	struct verdict_job *job;
	while ((job = TAILQ_FIRST(&ready))) {
		TAILQ_REMOVE(&ready, job, link);
		vs->queued--;
		/* Only the loop cancels, so no lock is needed to read the mark here. */
		if (!job->cancelled)
			job->done(job->arg, job->verdict);
		free(job);
	}
}

static void stop_workers(struct verdicts *vs)
{
	pthread_mutex_lock(&vs->lock);
	vs->stopping = true;
	pthread_cond_broadcast(&vs->wake);
	pthread_mutex_unlock(&vs->lock);
	for (int i = 0; i < vs->thread_count; i++)
		pthread_join(vs->threads[i], NULL);
	vs->thread_count = 0;
}

static void free_jobs(struct verdict_list *list)
{
	struct verdict_job *job;

	while ((job = TAILQ_FIRST(list))) {
		TAILQ_REMOVE(list, job, link);
		free(job);
	}
}

struct verdicts *verdicts_new(struct event_base *base, int threads, int queue_max)
{
	struct verdicts *vs = calloc(1, sizeof *vs);

	if (!vs)
		return NULL;
	if (threads < 1)
		threads = 1;
	TAILQ_INIT(&vs->waiting);
	TAILQ_INIT(&vs->finished);
	pthread_mutex_init(&vs->lock, NULL);
	pthread_cond_init(&vs->wake, NULL);
	vs->queue_max = queue_max < 1 ? 1 : queue_max;
	if (!(vs->threads = calloc((size_t)threads, sizeof *vs->threads)) ||
	    pipe2(vs->notify, O_NONBLOCK | O_CLOEXEC) < 0) {
		free(vs->threads);
		pthread_mutex_destroy(&vs->lock);
		pthread_cond_destroy(&vs->wake);
		free(vs);
		return NULL;
	}
	vs->ev = event_new(base, vs->notify[0], EV_READ | EV_PERSIST, deliver, vs);
	bool ok = vs->ev && event_add(vs->ev, NULL) == 0;
	while (ok && vs->thread_count < threads) {
		if (pthread_create(&vs->threads[vs->thread_count], NULL, worker, vs))
			ok = false;
		else
			vs->thread_count++;
	}
	if (!ok) {
		verdicts_free(vs);
		return NULL;
	}
	return vs;
}

void verdicts_free(struct verdicts *vs)
{
	if (!vs)
		return;
	stop_workers(vs);
	free_jobs(&vs->waiting);
	free_jobs(&vs->finished);
	free(vs->threads);
	if (vs->ev)
		event_free(vs->ev);
	close(vs->notify[0]);
	close(vs->notify[1]);
	pthread_mutex_destroy(&vs->lock);
	pthread_cond_destroy(&vs->wake);
	free(vs);
}

int verdicts_threads(const struct verdicts *vs)
{
	return vs->thread_count;
}

int verdicts_queued(const struct verdicts *vs)
{
	return vs->queued;
}

struct verdict_job *verdicts_submit(struct verdicts *vs, const struct board *b, enum color side,
    long budget_nodes, verdict_done_fn *done, void *arg)
{
	struct verdict_job *job;

	if (vs->queued >= vs->queue_max || !(job = calloc(1, sizeof *job)))
		return NULL;
	job->board = *b;
	job->side = side;
	job->budget_nodes = budget_nodes;
	job->done = done;
	job->arg = arg;
	vs->queued++;
	pthread_mutex_lock(&vs->lock);
	TAILQ_INSERT_TAIL(&vs->waiting, job, link);
	pthread_cond_signal(&vs->wake);
	pthread_mutex_unlock(&vs->lock);
	return job;
}

void verdicts_cancel(struct verdicts *vs, struct verdict_job *job)
{
	/* The job may be running; it is freed when delivered. */
	pthread_mutex_lock(&vs->lock);
	job->cancelled = true;
	pthread_mutex_unlock(&vs->lock);
}
