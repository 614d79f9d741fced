#include <stdlib.h>

#include "backlog.h"

struct backlog {
	struct backlog_entry **heap;	/* heap[0] has the most bytes */
	size_t count, cap;
	size_t total;
};

struct backlog *backlog_new(void)
{
	return calloc(1, sizeof(struct backlog));
}

void backlog_free(struct backlog *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->count; i++)
		b->heap[i]->slot = 0;
	free(b->heap);
	free(b);
}

static void place(struct backlog *b, size_t i, struct backlog_entry *e)
{
	b->heap[i] = e;
	e->slot = i + 1;
}

static void sift_up(struct backlog *b, size_t i)
{
	struct backlog_entry *e = b->heap[i];

	while (i > 0 && b->heap[(i - 1) / 2]->bytes < e->bytes) {
		place(b, i, b->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	place(b, i, e);
}

static void sift_down(struct backlog *b, size_t i)
{
	struct backlog_entry *e = b->heap[i];

	for (;;) {
		size_t child = 2 * i + 1;
		if (child >= b->count)
			break;
		if (child + 1 < b->count && b->heap[child + 1]->bytes > b->heap[child]->bytes)
			child++;
		if (b->heap[child]->bytes <= e->bytes)
			break;
		place(b, i, b->heap[child]);
		i = child;
	}
	place(b, i, e);
}

int backlog_add(struct backlog *b, struct backlog_entry *e)
{
	if (e->slot)
		return 0;
	if (b->count == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		struct backlog_entry **heap = realloc(b->heap, cap * sizeof *heap);
		if (!heap)
			return -1;
		b->heap = heap;
		b->cap = cap;
	}
	place(b, b->count++, e);
	b->total += e->bytes + e->other;
	sift_up(b, b->count - 1);
	return 0;
}

void backlog_remove(struct backlog *b, struct backlog_entry *e)
{
	if (!e->slot)
		return;
	size_t i = e->slot - 1;
	b->total -= e->bytes + e->other;
	e->slot = 0;
	if (i == --b->count)
		return;
	struct backlog_entry *moved = b->heap[b->count];
	place(b, i, moved);
	sift_up(b, i);
	sift_down(b, moved->slot - 1);
}

void backlog_set(struct backlog *b, struct backlog_entry *e, size_t bytes)
{
	size_t old = e->bytes;

	e->bytes = bytes;
	if (!e->slot)
		return;
	b->total = b->total - old + bytes;
	if (bytes > old)
		sift_up(b, e->slot - 1);
	else if (bytes < old)
		sift_down(b, e->slot - 1);
}

void backlog_set_other(struct backlog *b, struct backlog_entry *e, size_t other)
{
	if (e->slot)
		b->total = b->total - e->other + other;
	e->other = other;
}

size_t backlog_total(const struct backlog *b) { return b->total; }
size_t backlog_count(const struct backlog *b) { return b->count; }

struct backlog_entry *backlog_largest(const struct backlog *b)
{
	return b->count ? b->heap[0] : NULL;
}
