/*
 * Seeks (public ads: "seek", "sought", "play") and challenges (offers to
 * one player: "match", "accept", "decline", "withdraw"), with the FICS
 * lines that announce them.
 */
#ifndef CHESSD_OFFER_H
#define CHESSD_OFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"

struct server;
struct session;
struct offers;

/* Seek and challenge numbers run 1..OFFER_ID_MAX, reused. */
#define OFFER_ID_MAX 99999

struct seek {
	int id;
	struct session *owner;
	struct clock_control tc;
	bool rated;
	int color;		/* -1 any, else the colour the owner wants */
	bool manual;		/* answering makes a challenge, not a game */
	bool formula;
	int min_rating, max_rating;
};

struct challenge {
	int id;
	struct session *from, *to;
	struct clock_control tc;
	bool rated;
	int color;		/* the colour `from` asked for, -1 any */
	int64_t resume_id;	/* an adjourned game to resume, 0 for a new one */
};

struct offers *offers_new(struct server *srv);
void offers_free(struct offers *o);

/* Posts a seek and announces it; NULL with why when refused. */
struct seek *offers_seek(struct offers *o, const struct seek *proto, char *why, size_t len);
struct seek *offers_find_seek(struct offers *o, int id);
/* Removes one seek (announcing <sr>), or all of a session's (owner given, id 0). */
void offers_unseek(struct offers *o, struct session *owner, int id);
void offers_each_seek(struct offers *o, void (*fn)(const struct seek *s, void *arg), void *arg);
/* Sends <sc> and every current seek as <s> to a client that just set seekinfo. */
void offers_send_all_seeks(struct offers *o, struct session *to);
/*
 * Whether to may see sk (its own always): not censoring its owner, admitted
 * by the owner's formula when sk asks for it, and, unless all ("sought
 * all"), admitted by to's own formula.
 */
bool offers_seek_shown(const struct seek *sk, struct session *to, bool all);
/* The <s> line, and the line of "sought", for a seek. */
void offers_seek_line(const struct seek *sk, bool machine, char *buf, size_t len);

/* Makes (or replaces) a challenge and announces it to both. */
struct challenge *offers_challenge(struct offers *o, const struct challenge *proto, char *why,
    size_t len);
/* The challenge between these two (either direction when from is NULL). */
struct challenge *offers_find_challenge(struct offers *o, struct session *from, struct session *to);
struct challenge *offers_find_challenge_id(struct offers *o, int id);
/* Removes a challenge, telling both sides with <pr>. */
void offers_remove_challenge(struct offers *o, struct challenge *c);
/* The challenges made to (incoming) or by s, oldest first. */
void offers_each_challenge_of(struct offers *o, struct session *s, bool incoming,
    void (*fn)(struct challenge *c, void *arg), void *arg);
/*
 * The challenge to (incoming) or from s that `which` names, by number or by
 * the other player's name, or with which NULL the only one; *count is how
 * many there were to choose from (more than one: NULL, say which).
 */
struct challenge *offers_pick_challenge(struct offers *o, struct session *s, bool incoming,
    const char *which, int *count);
/* The text FICS uses for a challenge: "alice (1500) [white] bob (1612) rated blitz 5 0". */
void offers_challenge_text(const struct challenge *c, char *buf, size_t len);

/*
 * Whether owner's formula admits a game on these terms with other (always,
 * when owner has none), the facts taken as lasker takes them.
 */
bool offers_formula_admits(struct session *owner, struct session *other,
    const struct clock_control *tc, bool rated);
/*
 * lasker's refusal of a request owner's formula does not admit: other is
 * shown the formula, owner told what was ignored.
 */
void offers_formula_refuse(struct session *owner, struct session *other,
    const struct clock_control *tc, bool rated);

/* A session left or started a game: drop everything it had offered or been offered. */
void offers_drop_session(struct offers *o, struct session *s);

#endif
