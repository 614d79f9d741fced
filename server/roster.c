#include <stdint.h>
#include <stdlib.h>

#include "roster.h"

struct roster_node {
	struct roster_node *prev, *next;
	uint64_t seq;		/* joining order: the walks stop at the last one they saw */
	void *item;
};

/* A walk in progress: the node it visits next, moved on when that node goes. */
struct walk {
	struct roster_node *next;
	struct walk *outer;
};

struct roster {
	struct roster_node *head, *tail;
	size_t count;
	uint64_t seq;
	struct walk *walks;	/* innermost first; walks nest when fn walks again */
};

struct roster *roster_new(void)
{
	return calloc(1, sizeof(struct roster));
}

void roster_free(struct roster *r)
{
	if (!r)
		return;
	while (r->head)
		roster_remove(r, r->head);
	free(r);
}

struct roster_node *roster_add(struct roster *r, void *item)
{
	struct roster_node *n = malloc(sizeof *n);

	if (!n)
		return NULL;
	n->item = item;
	n->seq = ++r->seq;
	n->next = NULL;
	n->prev = r->tail;
	if (r->tail)
		r->tail->next = n;
	else
		r->head = n;
	r->tail = n;
	r->count++;
	return n;
}

void roster_remove(struct roster *r, struct roster_node *n)
{
	if (!n)
		return;
	for (struct walk *w = r->walks; w; w = w->outer)
		if (w->next == n)
			w->next = n->next;
	if (n->prev)
		n->prev->next = n->next;
	else
		r->head = n->next;
	if (n->next)
		n->next->prev = n->prev;
	else
		r->tail = n->prev;
	r->count--;
	free(n);
}

size_t roster_count(const struct roster *r)
{
	return r->count;
}

bool roster_walking(const struct roster *r)
{
	return r->walks != NULL;
}

void roster_each(struct roster *r, void (*fn)(void *item, void *arg), void *arg)
{
	uint64_t last = r->seq;
	struct walk w = { r->head, r->walks };

	r->walks = &w;
	while (w.next && w.next->seq <= last) {
		struct roster_node *n = w.next;
		w.next = n->next;
		fn(n->item, arg);
	}
	r->walks = w.outer;
}
