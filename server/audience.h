/*
 * Who hears what: for each kind of news the logged-in sessions that asked
 * for it, each channel's members, and each player's followers, kept as
 * rosters (roster.h) that session.c updates when a variable, a channel or
 * a follow changes, and at login and logout.  Telling an audience costs
 * its members, not the number of sessions online.
 */
#ifndef CHESSD_AUDIENCE_H
#define CHESSD_AUDIENCE_H

#include <stdbool.h>
#include <stdint.h>

struct roster;
struct server;
struct session;

enum audience_kind {
	AUDIENCE_PRESENCE,	/* pin or iset pin: arrivals and departures */
	AUDIENCE_GAME_START,	/* gin: every game's start */
	AUDIENCE_GAME_END,	/* gin or iset allresults: every game's end */
	AUDIENCE_SEEK,		/* seek or iset seekinfo: new seeks */
	AUDIENCE_SEEK_REMOVE,	/* iset seekinfo and seekremove: seeks withdrawn */
	AUDIENCE_SHOUT,		/* shout: shouts and "it" */
	AUDIENCE_CSHOUT,	/* cshout */
	AUDIENCE_NB
};

struct audience;

struct audience *audience_new(void);
void audience_free(struct audience *a);
struct roster *audience_of(struct audience *a, enum audience_kind k);
/* A channel's members (channel from 0 to LIMIT_CHANNEL_MAX). */
struct roster *audience_channel(struct audience *a, int channel);
/*
 * The followers of one identity (an account id, or a negative key for a
 * guest's session), made on first use when create; NULL when there are none.
 */
struct roster *audience_followers(struct audience *a, int64_t identity, bool create);
/* Forgets an identity's roster once it is empty (and no walk is on it). */
void audience_followers_settle(struct audience *a, int64_t identity);

/* Calls fn for each online session hearing k, in the order they began to. */
void audience_each(struct server *srv, enum audience_kind k,
    void (*fn)(struct session *s, void *arg), void *arg);
/* The same for a channel's members, and how many it has. */
void audience_each_member(struct server *srv, int channel,
    void (*fn)(struct session *s, void *arg), void *arg);
int audience_member_count(struct server *srv, int channel);

#endif
