/*
 * Whether a side can still mate (FIDE 6.9), decided off the event loop: the
 * full decision may take tens of milliseconds, so worker threads run it on a
 * copy of the board and the loop gets the verdict later.
 */
#ifndef CHESSD_VERDICT_H
#define CHESSD_VERDICT_H

#include <stdbool.h>

#include "unwinnable.h"

struct event_base;
struct verdicts;
struct verdict_job;

/* Called on the loop thread with the decision's answer. */
typedef void verdict_done_fn(void *arg, enum unwinnable_verdict v);

/* threads workers (at least one); at most queue_max decisions waiting or running. */
struct verdicts *verdicts_new(struct event_base *base, int threads, int queue_max);
/* Joins the workers (each finishes the decision it runs: one budget at most). */
void verdicts_free(struct verdicts *vs);
int verdicts_threads(const struct verdicts *vs);
/* Decisions submitted and not yet delivered. */
int verdicts_queued(const struct verdicts *vs);
/*
 * Decides whether side can mate from b (copied) within budget_nodes; done
 * gets the answer on the loop.  NULL when the queue is full.
 */
struct verdict_job *verdicts_submit(struct verdicts *vs, const struct board *b, enum color side,
    long budget_nodes, verdict_done_fn *done, void *arg);
/* The owner is going away: the job's callback will not be called. */
void verdicts_cancel(struct verdicts *vs, struct verdict_job *job);

#endif
