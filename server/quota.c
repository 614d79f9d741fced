#define _GNU_SOURCE
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quota.h"

#define QUOTA_KEY_MAX 80

struct bucket {
	char key[QUOTA_KEY_MAX];
	double tokens;
	int per_window;
	int64_t at_ms;		/* when tokens was last brought up to date */
};

struct quotas {
	void *tree;		/* tsearch tree of struct bucket by key */
	int count;
	int64_t window_ms;
	int64_t swept_ms;	/* the last sweep for full buckets */
};

static int bucket_cmp(const void *a, const void *b)
{
	return strcmp(((const struct bucket *)a)->key, ((const struct bucket *)b)->key);
}

struct quotas *quotas_new(int64_t window_ms)
{
	struct quotas *q = calloc(1, sizeof *q);

	if (q)
		q->window_ms = window_ms > 0 ? window_ms : 1;
	return q;
}

void quotas_free(struct quotas *q)
{
	if (!q)
		return;
	tdestroy(q->tree, free);
	free(q);
}

static void refill(const struct quotas *q, struct bucket *b, int per_window, int64_t now_ms)
{
	if (now_ms > b->at_ms)
		b->tokens += (double)(now_ms - b->at_ms) * per_window / (double)q->window_ms;
	if (b->tokens > per_window)
		b->tokens = per_window;
	b->per_window = per_window;
	b->at_ms = now_ms;
}

static struct bucket *find(struct quotas *q, const char *key)
{
	struct bucket probe;

	snprintf(probe.key, sizeof probe.key, "%s", key);
	void *found = tfind(&probe, &q->tree, bucket_cmp);
	return found ? *(struct bucket **)found : NULL;
}

struct sweep {
	const struct quotas *q;
	int64_t now_ms;
	struct bucket **full;
	int count;
};

static void collect_full(const void *nodep, VISIT which, void *closure)
{
	struct sweep *s = closure;
	struct bucket *b = *(struct bucket *const *)nodep;

	if (which != postorder && which != leaf)
		return;
	refill(s->q, b, b->per_window, s->now_ms);
	if (b->tokens >= b->per_window)
		s->full[s->count++] = b;
}

/* Once a window: forgets the keys whose bucket has filled up again. */
static void sweep(struct quotas *q, int64_t now_ms)
{
	if (now_ms - q->swept_ms < q->window_ms || !q->count)
		return;
	q->swept_ms = now_ms;
	struct sweep s = { q, now_ms, malloc((size_t)q->count * sizeof *s.full), 0 };
	if (!s.full)
		return;
	twalk_r(q->tree, collect_full, &s);
	for (int i = 0; i < s.count; i++) {
		tdelete(s.full[i], &q->tree, bucket_cmp);
		free(s.full[i]);
		q->count--;
	}
	free(s.full);
}

bool quotas_left(struct quotas *q, const char *key, int per_window, int64_t now_ms)
{
	struct bucket *b = find(q, key);

	if (!b)
		return per_window >= 1;
	refill(q, b, per_window, now_ms);
	return b->tokens >= 1.0;
}

void quotas_take(struct quotas *q, const char *key, int per_window, int64_t now_ms)
{
	sweep(q, now_ms);
	struct bucket *b = find(q, key);
	if (!b) {
		/* Out of memory: the event goes uncounted rather than refused. */
		if (!(b = calloc(1, sizeof *b)))
			return;
		snprintf(b->key, sizeof b->key, "%s", key);
		b->tokens = per_window;
		b->at_ms = now_ms;
		if (!tsearch(b, &q->tree, bucket_cmp)) {
			free(b);
			return;
		}
		q->count++;
	}
	refill(q, b, per_window, now_ms);
	b->tokens -= 1.0;
}

int quotas_count(const struct quotas *q)
{
	return q->count;
}
