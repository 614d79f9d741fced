/*
 * Durability off the event loop.  Each pass commits with synchronous=NORMAL
 * (the WAL is written, not yet flushed); the syncer thread then fsyncs the
 * WAL and reports how far the commits are durable.  Replies of a pass are
 * released only when its commit is durable, so persist-then-reply holds
 * while the loop goes on reading the next moves; commits made during one
 * fsync share the next (group commit across passes).  A second thread
 * copies the WAL into the database when asked (a checkpoint), which SQLite
 * would otherwise do inside a commit on the loop.
 */
#ifndef CHESSD_SYNCER_H
#define CHESSD_SYNCER_H

#include <stdint.h>

struct event_base;
struct syncer;

/* durable(arg, seq) runs on the loop thread once commits up to seq are on disk. */
struct syncer *syncer_new(struct event_base *base, const char *db_path,
    void (*durable)(void *arg, uint64_t seq), void *arg);
/* Commit number seq has been made: flush it soon. */
void syncer_request(struct syncer *s, uint64_t seq);
/* The WAL has grown: copy it into the database soon. */
void syncer_checkpoint(struct syncer *s);
/* Flushes what is outstanding, now, on the calling thread (shutdown). */
int syncer_flush_now(struct syncer *s);
void syncer_free(struct syncer *s);

#endif
