/*
 * Password hashing off the event loop: scrypt takes tens of milliseconds by
 * design, so a worker thread runs it and the loop gets the answer later.
 */
#ifndef CHESSD_HASHER_H
#define CHESSD_HASHER_H

#include <stdbool.h>

struct event_base;
struct hasher;
struct hasher_job;

/* Called on the loop thread.  For a verify, result is 1/0/-1 as password_verify
 * (with the new hash when one was asked for); for a hash, 0 with it, or -1. */
typedef void hasher_done_fn(void *arg, int result, const char *hash);


/* threads workers (at least one); registrations never occupy the last free one. */
struct hasher *hasher_new(struct event_base *base, int threads, int queue_max);
int hasher_threads(const struct hasher *h);
/* The login queue is full: a verification submitted now would fail.  Only
 * the loop submits and delivers, so on the loop this holds until it does. */
bool hasher_full(const struct hasher *h);
void hasher_free(struct hasher *h);
/*
 * Verifies password against stored; with stored NULL, hashes password anew;
 * with both stored and new_password, verifies and on success also hashes
 * new_password (changing a password).  NULL if the queue is full.
 */
struct hasher_job *hasher_submit(struct hasher *h, const char *password, const char *stored,
    const char *new_password, hasher_done_fn *done, void *arg);
/* The owner is going away: the job's callback will not be called. */
void hasher_cancel(struct hasher *h, struct hasher_job *job);

#endif
