/*
 * A roster: a set of items (sessions, say) kept in the order they joined,
 * with O(1) add and remove.  The server keeps one per kind of news (the
 * sessions that hear arrivals, game starts, seeks, a channel's tells...),
 * so telling them costs the listeners, never a walk of every session.
 */
#ifndef CHESSD_ROSTER_H
#define CHESSD_ROSTER_H

#include <stdbool.h>
#include <stddef.h>

struct roster;
/* An item's place on one roster; the owner of the item keeps it for roster_remove. */
struct roster_node;

struct roster *roster_new(void);
/* Frees the roster and any places still on it. */
void roster_free(struct roster *r);
/* Puts item at the end; NULL if out of memory. */
struct roster_node *roster_add(struct roster *r, void *item);
/* Takes a place off (and frees it); harmless on NULL. */
void roster_remove(struct roster *r, struct roster_node *n);
size_t roster_count(const struct roster *r);
/* Whether a roster_each on r is under way (r must not be freed then). */
bool roster_walking(const struct roster *r);

/*
 * Calls fn for each item in joining order.  fn may remove any item (itself
 * included) and add new ones; the items added during the walk are not
 * visited, as if the walk had worked on a copy made when it began.
 */
void roster_each(struct roster *r, void (*fn)(void *item, void *arg), void *arg);

#endif
