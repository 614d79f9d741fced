#define _GNU_SOURCE
#include <search.h>
#include <stdlib.h>

#include "audience.h"
#include "limit.h"
#include "roster.h"
#include "server.h"
#include "session.h"

struct followed {
	int64_t identity;
	struct roster *followers;
};

struct audience {
	struct roster *kind[AUDIENCE_NB];
	struct roster *channel[LIMIT_CHANNEL_MAX + 1];
	void *followed;		/* tsearch tree of struct followed by identity */
};

struct audience *audience_new(void)
{
	struct audience *a = calloc(1, sizeof *a);

	if (!a)
		return NULL;
	for (int k = 0; k < AUDIENCE_NB; k++)
		if (!(a->kind[k] = roster_new()))
			goto fail;
	for (int c = 0; c <= LIMIT_CHANNEL_MAX; c++)
		if (!(a->channel[c] = roster_new()))
			goto fail;
	return a;
fail:
	audience_free(a);
	return NULL;
}

static void free_followed(void *p)
{
	struct followed *f = p;

	roster_free(f->followers);
	free(f);
}

void audience_free(struct audience *a)
{
	if (!a)
		return;
	for (int k = 0; k < AUDIENCE_NB; k++)
		roster_free(a->kind[k]);
	for (int c = 0; c <= LIMIT_CHANNEL_MAX; c++)
		roster_free(a->channel[c]);
	tdestroy(a->followed, free_followed);
	free(a);
}

struct roster *audience_of(struct audience *a, enum audience_kind k)
{
	return a->kind[k];
}

struct roster *audience_channel(struct audience *a, int channel)
{
	return channel >= 0 && channel <= LIMIT_CHANNEL_MAX ? a->channel[channel] : NULL;
}

static int identity_cmp(const void *x, const void *y)
{
	int64_t a = ((const struct followed *)x)->identity, b = ((const struct followed *)y)->identity;

	return (a > b) - (a < b);
}

struct roster *audience_followers(struct audience *a, int64_t identity, bool create)
{
	struct followed key = { identity, NULL };
	void *found = tfind(&key, &a->followed, identity_cmp);

	if (found)
		return (*(struct followed **)found)->followers;
	if (!create)
		return NULL;
	struct followed *f = malloc(sizeof *f);
	if (!f || !(f->followers = roster_new())) {
		free(f);
		return NULL;
	}
	f->identity = identity;
	void *slot = tsearch(f, &a->followed, identity_cmp);
	if (!slot) {
		free_followed(f);
		return NULL;
	}
	return f->followers;
}

void audience_followers_settle(struct audience *a, int64_t identity)
{
	struct followed key = { identity, NULL };
	void *found = tfind(&key, &a->followed, identity_cmp);

	if (!found)
		return;
	struct followed *f = *(struct followed **)found;
	if (roster_count(f->followers) || roster_walking(f->followers))
		return;
	tdelete(&key, &a->followed, identity_cmp);
	free_followed(f);
}

struct session_walk {
	void (*fn)(struct session *s, void *arg);
	void *arg;
};

/* Sessions leave their audiences as they go offline; the check is for a walk's stragglers. */
static void visit(void *item, void *arg)
{
	struct session_walk *w = arg;

	if (session_online(item))
		w->fn(item, w->arg);
}

void audience_each(struct server *srv, enum audience_kind k,
    void (*fn)(struct session *s, void *arg), void *arg)
{
	struct session_walk w = { fn, arg };

	roster_each(audience_of(server_audience(srv), k), visit, &w);
}

void audience_each_member(struct server *srv, int channel,
    void (*fn)(struct session *s, void *arg), void *arg)
{
	struct roster *r = audience_channel(server_audience(srv), channel);
	struct session_walk w = { fn, arg };

	if (r)
		roster_each(r, visit, &w);
}

int audience_member_count(struct server *srv, int channel)
{
	struct roster *r = audience_channel(server_audience(srv), channel);

	return r ? (int)roster_count(r) : 0;
}
