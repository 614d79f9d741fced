/*
 * Output waiting to be sent, across all connections: the total, and the
 * connection holding the most, found in O(1) and kept in order in
 * O(log n) per change (a binary max-heap).  The server drops the largest
 * backlogs first when the total passes its budget.
 */
#ifndef CHESSD_BACKLOG_H
#define CHESSD_BACKLOG_H

#include <stddef.h>

/*
 * One connection's share, embedded in it: `bytes` orders the entries
 * (output the socket would not take), `other` only counts in the total.
 */
struct backlog_entry {
	size_t bytes;
	size_t other;
	size_t slot;		/* 1 + index in the heap; 0: not in it */
	void *owner;
};

struct backlog;

struct backlog *backlog_new(void);
void backlog_free(struct backlog *b);
/* Starts counting e (its bytes as they are); -1 if out of memory. */
int backlog_add(struct backlog *b, struct backlog_entry *e);
/* Stops counting e; harmless if it is not counted. */
void backlog_remove(struct backlog *b, struct backlog_entry *e);
/* e now holds this many bytes (ordered), or this many others (not ordered). */
void backlog_set(struct backlog *b, struct backlog_entry *e, size_t bytes);
void backlog_set_other(struct backlog *b, struct backlog_entry *e, size_t other);
/* All bytes and others counted. */
size_t backlog_total(const struct backlog *b);
size_t backlog_count(const struct backlog *b);
/* The entry with the most bytes, or NULL when there is none. */
struct backlog_entry *backlog_largest(const struct backlog *b);

#endif
