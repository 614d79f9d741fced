/* Finding a game: seek, unseek, sought, play, match, accept, decline,
 * withdraw, pending, rematch. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/rand.h>

#include "blkcmd.h"
#include "cmd.h"
#include "examine.h"
#include "game.h"
#include "lists.h"
#include "limit.h"
#include "number.h"
#include "offer.h"
#include "rating.h"
#include "server.h"
#include "session.h"

/* What "seek" and "match" take after the name: time, rated, colour, ... */
struct terms {
	struct clock_control tc;
	bool rated, manual, formula;
	bool untimed_unrated;	/* rated was wanted, but an untimed game never is */
	int color;
	int min_rating, max_rating;
};

/* Minutes or seconds: digits, with a decimal point allowed (0.5 minutes). */
static bool is_number(const char *s)
{
	bool digits = false;

	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			digits = true;
		else if (*s != '.')
			return false;
	}
	return digits;
}

/* "1500-2000": a rating range, both ends from 0 to 9999 and in order. */
static bool rating_range(const char *w, int *lo, int *hi)
{
	char low[8];
	const char *dash = strchr(w, '-');
	long a, b;

	if (!dash || (size_t)(dash - w) >= sizeof low)
		return false;
	memcpy(low, w, (size_t)(dash - w));
	low[dash - w] = '\0';
	if (number_parse(low, 0, 9999, &a) != NUMBER_OK || number_parse(dash + 1, 0, 9999, &b) !=
	    NUMBER_OK || a > b)
		return false;
	*lo = (int)a;
	*hi = (int)b;
	return true;
}

/*
 * Parses "[minutes [inc]] [rated|unrated] [white|black] [manual|auto]
 * [formula] [min-max]", or a club control such as 40/90,30+30 in place of
 * the minutes.  Defaults come from the user's time, inc and rated settings.
 */
static bool parse_terms(struct session *s, char *text, struct terms *t, char *why, size_t len)
{
	char *numbers[2] = { NULL, NULL }, *control = NULL, *save = NULL;
	int n = 0;

	*t = (struct terms){ .rated = session_var(s, VAR_RATED) && session_registered(s),
	    .color = -1, .min_rating = 0, .max_rating = 9999 };
	for (char *w = strtok_r(text, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int lo, hi;
		if (is_number(w) && n < 2 && !control)
			numbers[n++] = w;
		else if (!strcasecmp(w, "r") || !strcasecmp(w, "rated"))
			t->rated = true;
		else if (!strcasecmp(w, "u") || !strcasecmp(w, "unrated"))
			t->rated = false;
		else if (!strcasecmp(w, "w") || !strcasecmp(w, "white"))
			t->color = WHITE;
		else if (!strcasecmp(w, "b") || !strcasecmp(w, "black"))
			t->color = BLACK;
		else if (!strcasecmp(w, "m") || !strcasecmp(w, "manual"))
			t->manual = true;
		else if (!strcasecmp(w, "a") || !strcasecmp(w, "auto"))
			t->manual = false;
		else if (!strcasecmp(w, "f") || !strcasecmp(w, "formula"))
			t->formula = true;
		else if (rating_range(w, &lo, &hi)) {
			t->min_rating = lo;
			t->max_rating = hi;
		} else if (!control && !n && strpbrk(w, "/+ds,") && strcasecmp(w, "standard")) {
			control = w;
		} else if (!strcasecmp(w, "untimed")) {
			control = w;
		} else {
			snprintf(why, len, "I don't understand \"%s\".", w);
			return false;
		}
	}
	char spec[96];
	if (control)
		snprintf(spec, sizeof spec, "%s", control);
	else if (n == 2)
		snprintf(spec, sizeof spec, "%s %s", numbers[0], numbers[1]);
	else if (n == 1)
		snprintf(spec, sizeof spec, "%s %d", numbers[0], session_var(s, VAR_INC));
	else
		snprintf(spec, sizeof spec, "%d %d", session_var(s, VAR_TIME), session_var(s, VAR_INC));
	if (clock_parse(&t->tc, spec, why, len) < 0)
		return false;
	if (clock_untimed(&t->tc) && t->rated)
		t->rated = false, t->untimed_unrated = true;	/* untimed games are never rated */
	return true;
}

/*
 * Whether s and other (NULL for none) may start a game now; busy is what s
 * reads when it is in a game itself, in the words of the command it typed.
 */
static bool free_to_play(struct session *s, struct session *other, const char *busy)
{
	if (session_examining(s)) {
		session_printf(s, "You cannot challenge while you are examining a game.\n");
		return false;
	}
	if (session_game(s)) {
		session_printf(s, "%s\n", busy);
		return false;
	}
	if (other && (session_examining(other) || session_game(other))) {
		session_printf(s, "Player \"%s\" is involved in another game.\n", session_name(other));
		return false;
	}
	return !other || lists_may_play(s, other);
}

/* Starts a game; color is the colour `a` asked for, -1 for either.  b has
 * just answered a's offer: when no game comes of it, both are told why. */
static void start(struct session *a, struct session *b, const struct clock_control *tc, bool rated,
    int color)
{
	struct game_params p = { .tc = *tc, .rated = rated };
	char why[160];
	unsigned char coin = 0;

	if (color < 0) {
		RAND_bytes(&coin, 1);
		color = coin & 1;
	}
	struct session *white = color == WHITE ? a : b, *black = color == WHITE ? b : a;
	if (!game_start(session_server(a), white, black, &p, why, sizeof why)) {
		session_printf(b, "%s\n", why);
		session_notify(a, "%s", why);
	}
}

static int rating_for_range(struct session *s, const struct clock_control *tc);
static void play_seek(struct session *s, struct seek *sk);

struct seek_match {
	const struct seek *mine;
	int id;		/* the first posted seek that matches, 0 for none */
};

/* Whether each of two seeks admits the other: the same game, colours, ranges and formulas. */
static void find_match(const struct seek *sk, void *arg)
{
	struct seek_match *m = arg;
	const struct seek *me = m->mine;
	char ours[CLOCK_TEXT_MAX], theirs[CLOCK_TEXT_MAX];

	if (m->id || sk->owner == me->owner || sk->manual || me->manual || sk->rated != me->rated)
		return;
	clock_format(&me->tc, ours, sizeof ours);
	clock_format(&sk->tc, theirs, sizeof theirs);
	if (strcmp(ours, theirs) || (sk->color >= 0 && me->color >= 0 && sk->color == me->color))
		return;
	int mine = rating_for_range(me->owner, &me->tc), theirs_r = rating_for_range(sk->owner, &sk->tc);
	if (mine < sk->min_rating || mine > sk->max_rating || theirs_r < me->min_rating ||
	    theirs_r > me->max_rating)
		return;
	if (!lists_may_play(me->owner, sk->owner) || !lists_may_play(sk->owner, me->owner) ||
	    session_game(sk->owner) || session_examining(sk->owner))
		return;
	/* Neither may be one its taker would not be shown: each formula admits the other. */
	if (!offers_formula_admits(sk->owner, me->owner, &sk->tc, sk->rated) ||
	    !offers_formula_admits(me->owner, sk->owner, &me->tc, me->rated))
		return;
	m->id = sk->id;
}

static void cmd_seek(struct session *s, const struct cmd_args *a)
{
	struct terms t;
	char why[160], text[LIMIT_SEEK_TEXT];

	snprintf(text, sizeof text, "%s", a->argc ? a->argv[0] : "");
	if (!parse_terms(s, text, &t, why, sizeof why)) {
		session_printf(s, "%s\nUsage: seek [minutes inc] [rated|unrated] [white|black] "
		    "[manual] [formula] [min-max]\n", why);
		return;
	}
	if (!free_to_play(s, NULL, "ERROR: You can't seek a game while you are playing one."))
		return;
	/* lasker's com_seek: a guest's seek is unrated, whatever was asked, and nothing said. */
	if (!session_registered(s))
		t.rated = false;
	struct seek proto = { .owner = s, .tc = t.tc, .rated = t.rated, .color = t.color,
	    .manual = t.manual, .formula = t.formula, .min_rating = t.min_rating,
	    .max_rating = t.max_rating };
	/* As on FICS, a seek that meets one already posted starts that game at once. */
	struct seek_match m = { &proto, 0 };
	offers_each_seek(server_offers(session_server(s)), find_match, &m);
	if (m.id) {
		struct seek *sk = offers_find_seek(server_offers(session_server(s)), m.id);
		session_printf(s, "Your seek matches one already posted by %s.\n",
		    session_name(sk->owner));
		play_seek(s, sk);
		return;
	}
	if (!offers_seek(server_offers(session_server(s)), &proto, why, sizeof why))
		session_printf(s, "%s\n", why);
}

struct own_seeks {
	const struct session *s;
	int count;
};

static void count_own(const struct seek *sk, void *arg)
{
	struct own_seeks *own = arg;

	own->count += sk->owner == own->s;
}

static void cmd_unseek(struct session *s, const struct cmd_args *a)
{
	struct offers *o = server_offers(session_server(s));

	if (a->argc) {
		struct seek *sk = offers_find_seek(o, a->number[0]);
		if (!sk || sk->owner != s) {
			session_printf(s, "You have no seek %s.\n", a->argv[0]);
			return;
		}
		offers_unseek(o, s, sk->id);
		session_printf(s, "Your seek %s has been removed.\n", a->argv[0]);
		return;
	}
	struct own_seeks own = { s, 0 };
	offers_each_seek(o, count_own, &own);
	if (!own.count) {
		session_printf(s, "You have no active seeks.\n");
		return;
	}
	offers_unseek(o, s, 0);
	session_printf(s, "Your seeks have been removed.\n");
}

struct sought {
	struct session *s;
	bool all;
	int shown;
};

static void sought_line(const struct seek *sk, void *arg)
{
	struct sought *q = arg;
	char line[256];

	if (!offers_seek_shown(sk, q->s, q->all))
		return;
	offers_seek_line(sk, false, line, sizeof line);
	session_printf(q->s, "%s\n", line);
	q->shown++;
}

/* sought [all]: the seeks one's formula admits, or with "all" every one. */
static void cmd_sought(struct session *s, const struct cmd_args *a)
{
	struct sought q = { s, a->argc && !strcasecmp(a->argv[0], "all"), 0 };

	offers_each_seek(server_offers(session_server(s)), sought_line, &q);
	session_printf(s, "%d ad%s displayed.\n", q.shown, q.shown == 1 ? "" : "s");
}

/* The player's rating in the seek's category, as a number for its range. */
static int rating_for_range(struct session *s, const struct clock_control *tc)
{
	struct rating r;

	rating_load(server_db(session_server(s)), session_user_id(s), clock_category(tc), &r);
	return glicko2_display(&r.value);
}

/*
 * s takes c, made to s: both are told as lasker tells them, then the game
 * starts.  A match that meets the same offer coming the other way says so
 * in FICS's words instead: in block mode pychess opens the board of a
 * game begun by "match" only after that line.
 */
static void take_challenge(struct session *s, struct challenge *c, bool intercept)
{
	struct session *from = c->from;
	struct clock_control tc = c->tc;
	bool rated = c->rated;
	int color = c->color;
	int64_t resume_id = c->resume_id;

	if (intercept)
		session_printf(s, "Your challenge intercepts %s's challenge.\n", session_name(from));
	else
		session_printf(s, "You accept the challenge of %s.\n", session_name(from));
	session_notify(from, "%s accepts your challenge.", session_name(s));
	offers_remove_challenge(server_offers(session_server(s)), c);
	if (resume_id) {
		char why[160];
		if (!game_resume(session_server(s), resume_id, from, s, why, sizeof why))
			session_printf(s, "%s\n", why);
		return;
	}
	start(from, s, &tc, rated, color);
}

/* Line to one of the two a play concerns: the answerer's reply, or a notice to the seeker. */
static void tell(struct session *answering, struct session *who, const char *text)
{
	if (who == answering)
		session_printf(who, "%s\n", text);
	else
		session_notify(who, "%s", text);
}

/* lasker's play first declines the offers made to who and withdraws those it made. */
static void drop_offers(struct session *answering, struct session *who)
{
	struct offers *o = server_offers(session_server(who));
	struct challenge *c;
	char line[SESSION_NAME_MAX + 48];

	while ((c = offers_find_challenge(o, NULL, who))) {
		bool made = c->from == who;
		struct session *other = made ? c->to : c->from;
		session_notify(other, "%s %s the match offer.", session_name(who),
		    made ? "withdraws" : "declines");
		snprintf(line, sizeof line, "You %s the match offer %s %s.", made ? "withdraw" : "decline",
		    made ? "to" : "from", session_name(other));
		tell(answering, who, line);
		offers_remove_challenge(o, c);
	}
}

static void cmd_play(struct session *s, const struct cmd_args *a)
{
	play_seek(s, offers_find_seek(server_offers(session_server(s)), a->number[0]));
}

/* s answers sk (NULL: gone) as `play` does. */
static void play_seek(struct session *s, struct seek *sk)
{
	struct offers *o = server_offers(session_server(s));

	if (!sk) {
		session_printf(s, "ERROR: Either that game has already started or it is no longer "
		    "available.\n");
		return;
	}
	if (!session_registered(s) && sk->rated) {
		session_printf(s, "ERROR: Unregistred users cannot play rated games.\n");
		return;
	}
	if (sk->owner == s) {
		session_printf(s, "ERROR: You cannot respond to your own seek ads\n");
		return;
	}
	if (!free_to_play(s, sk->owner, "You are already playing a game."))
		return;
	int r = rating_for_range(s, &sk->tc);
	if (r < sk->min_rating || r > sk->max_rating) {
		session_printf(s, "Your rating (%d) is outside the seek's range %d-%d.\n", r,
		    sk->min_rating, sk->max_rating);
		return;
	}
	struct session *owner = sk->owner;
	struct clock_control tc = sk->tc;
	bool rated = sk->rated;
	int color = sk->color;
	/* A manual seek's answer is a match request, which the formula screens as any other. */
	if ((sk->formula || sk->manual) && !offers_formula_admits(owner, s, &tc, rated)) {
		offers_formula_refuse(owner, s, &tc, rated);
		return;
	}
	if (sk->manual) {
		char why[160];
		struct challenge proto = { .from = s, .to = owner, .tc = tc, .rated = rated,
		    .color = color < 0 ? -1 : (int)color_other((enum color)color) };
		if (!offers_challenge(o, &proto, why, sizeof why))
			session_printf(s, "%s\n", why);
		return;
	}
	drop_offers(s, s);
	drop_offers(s, owner);
	session_printf(s, "You accept the challenge of %s.\n", session_name(owner));
	session_notify(owner, "%s accepts your challenge.", session_name(s));
	start(owner, s, &tc, rated, color);
}

/* Whether c, made to us, asks for the game we would offer back: then matching it accepts it. */
static bool same_terms(const struct challenge *c, const struct clock_control *tc, bool rated,
    int color)
{
	char ours[CLOCK_TEXT_MAX], theirs[CLOCK_TEXT_MAX];

	clock_format(tc, ours, sizeof ours);
	clock_format(&c->tc, theirs, sizeof theirs);
	return !strcmp(ours, theirs) && c->rated == rated &&
	    (color < 0 || (c->color >= 0 && c->color != color));
}

/* What match and rematch have in common: the checks a challenge must pass, then the offer. */
static void challenge(struct session *s, struct session *to, const struct clock_control *tc,
    bool rated, int color)
{
	struct offers *o = server_offers(session_server(s));
	char why[160];

	if (to == s) {
		session_printf(s, "You can't match yourself.\n");
		return;
	}
	/* lasker's com_match: a game with a guest is unrated, whatever was asked, and nothing said. */
	if (!session_registered(s) || !session_registered(to))
		rated = false;
	if (!free_to_play(s, NULL, "You can't challenge while you are playing a game."))
		return;
	if (!session_var(to, VAR_OPEN)) {
		session_printf(s, "Player \"%s\" is not open to match requests.\n", session_name(to));
		return;
	}
	if (!free_to_play(s, to, "You can't challenge while you are playing a game."))
		return;
	/* An offer the other has made us with these very terms is accepted (lasker, FICS). */
	struct challenge *theirs = offers_find_challenge(o, to, s);
	if (theirs && !theirs->resume_id && same_terms(theirs, tc, rated, color)) {
		take_challenge(s, theirs, true);
		return;
	}
	/* ropen 0: only games as rated as the player's own "rated" setting. */
	if (!theirs && !session_var(to, VAR_ROPEN) && rated != (session_var(to, VAR_RATED) != 0)) {
		session_printf(s, "%s only wants to play %s games.\n", session_name(to),
		    rated ? "unrated" : "rated");
		session_notify(to, "Ignoring %srated match request from %s.", rated ? "" : "un",
		    session_name(s));
		return;
	}
	if (!theirs && !offers_formula_admits(to, s, tc, rated)) {
		offers_formula_refuse(to, s, tc, rated);
		return;
	}
	if (!session_var(s, VAR_OPEN)) {
		if (session_set_var(s, VAR_OPEN, "1", why, sizeof why) < 0) {
			session_printf(s, "%s\n", why);
			return;
		}
		session_printf(s, "Setting you open for matches.\n");
	}
	struct challenge proto = { .from = s, .to = to, .tc = *tc, .rated = rated, .color = color };
	if (!offers_challenge(o, &proto, why, sizeof why))
		session_printf(s, "%s\n", why);
}

/*
 * match with one's own name opens a scratch board to analyse on, as
 * lasker's ExamineScratch does; its words for terms it cannot take.  This
 * server has no board categories to load from.
 */
static void match_self(struct session *s, char *text)
{
	char *save = NULL, *category = NULL, *board = NULL;

	for (char *w = strtok_r(text, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (category && !board) {
			board = w;
		} else if (isdigit((unsigned char)w[0])) {
			session_printf(s, "You can't specify time controls.\n");
			return;
		} else if (!category) {
			category = w;
		} else {
			session_printf(s, "Can't interpret %s in match command.\n", w);
			return;
		}
	}
	if (category && !board)
		session_printf(s, "You must specify a board and a category.\n");
	else if (category)
		session_printf(s, "No such category/board: %s/%s\n", category, board);
	else
		examine_start_scratch(s, false);
}

static void cmd_match(struct session *s, const struct cmd_args *a)
{
	struct server *srv = session_server(s);
	struct session *to;
	struct terms t;
	char why[160], text[LIMIT_SEEK_TEXT];

	if (!free_to_play(s, NULL, "You can't challenge while you are playing a game."))
		return;
	if (!(to = server_find_session(srv, a->argv[0]))) {
		session_printf(s, "No user named \"%s\" is logged in.\n", a->argv[0]);
		return;
	}
	snprintf(text, sizeof text, "%s", a->argc > 1 ? a->argv[1] : "");
	if (to == s) {
		match_self(s, text);
		return;
	}
	if (!text[0] && cmd_resume_adjourned(s, session_name(to)))
		return;
	if (!parse_terms(s, text, &t, why, sizeof why)) {
		session_printf(s, "%s\nUsage: match <name> [minutes inc] [rated|unrated] [white|black]\n",
		    why);
		return;
	}
	if (t.untimed_unrated && session_registered(s) && session_registered(to))
		session_printf(s, "Game is untimed - reverting to unrated\n");
	challenge(s, to, &t.tc, t.rated, t.color);
}

static bool has_offers(struct session *s, bool incoming);

/*
 * The challenge an accept/decline/withdraw names, saying why in lasker's
 * words when there is none: by the number "pending" and <pf> show, by the
 * other player's name, or with no word the only one there is.
 */
static struct challenge *pick_challenge(struct session *s, const struct cmd_args *a, bool incoming,
    const char *verb)
{
	struct offers *o = server_offers(session_server(s));
	const char *which = a->argc ? a->argv[0] : NULL;
	int all, count;

	offers_pick_challenge(o, s, incoming, NULL, &all);	/* how many there are */
	if (!all && !has_offers(s, incoming)) {
		if (!strcmp(verb, "accept"))
			session_printf(s, "You have no offers to accept.\n");
		else
			session_printf(s, "You have no pending offers %s other players.\n",
			    incoming ? "from" : "to");
		return NULL;
	}
	struct challenge *c = offers_pick_challenge(o, s, incoming, which, &count);
	if (c)
		return c;
	long id;
	if (!which) {
		if (!strcmp(verb, "accept"))
			session_printf(s, "You have more than one offer to accept.\n");
		else
			session_printf(s, "You have more than one pending offer.\n");
		session_printf(s, "Use \"pending\" to see them and \"%s n\" to choose which one.\n",
		    verb);
	} else if (number_parse(which, 0, LONG_MAX, &id) != NUMBER_JUNK) {
		session_printf(s, "Out of range. Use \"pending\" to see the list of offers.\n");
	} else {
		struct session *other = server_find_session(session_server(s), which);
		if (!other)
			session_printf(s, "No user named \"%s\" is logged in.\n", which);
		else
			session_printf(s, "There are no pending offers %s %s.\n",
			    incoming ? "from" : "to", session_name(other));
	}
	return NULL;
}

/*
 * accept and decline first answer offers made inside the player's game:
 * with no word the first there is, else the one numbered as <pf> and
 * "pending" showed it.
 */
static bool answer_game_offer(struct session *s, const struct cmd_args *a, bool accept)
{
	struct game *g = session_game(s);
	long number;

	if (g && a->argc)
		return number_parse(a->argv[0], OFFER_ID_MAX + 1L, LONG_MAX, &number) == NUMBER_OK &&
		    game_answer_offer_number(g, s, number, accept);
	for (int i = 0; g && i < GAME_OFFER_KINDS; i++)
		if (game_answer_offer(g, s, (enum game_offer)(1u << i), accept))
			return true;
	return false;
}

/*
 * The kinds of offer accept, decline and withdraw take by name, as lasker
 * reads them: the game offers of each, and whether challenges ("match").
 */
static const struct offer_type {
	const char *name;
	unsigned kinds;
	bool match;
} offer_types[] = {
	{ "all", GAME_OFFER_ALL, true },
	{ "match", 0, true },
	{ "draw", OFFER_DRAW, false },
	{ "abort", OFFER_ABORT, false },
	{ "adjourn", OFFER_ADJOURN, false },
	{ "takeback", OFFER_TAKEBACK, false },
	{ "pause", OFFER_PAUSE, false },
	{ "unpause", OFFER_UNPAUSE, false },
	{ "switch", OFFER_SWITCH, false },
};
#define OFFER_TYPE_WORDS "all, match, draw, abort, adjourn, takeback, pause, unpause or switch"

static const struct offer_type *offer_type_named(const char *word)
{
	for (size_t i = 0; i < sizeof offer_types / sizeof offer_types[0]; i++)
		if (!strcasecmp(word, offer_types[i].name))
			return &offer_types[i];
	return NULL;
}

/*
 * The type the words after accept, decline or withdraw name, or NULL with
 * *ok true when they are a number, a name or nothing (read as before).
 * "t TYPE" means TYPE: it is real FICS's form ("withdraw [##, t <type>]")
 * and the one pychess sends from its menus ("withdraw t draw", and
 * "accept t draw" for an offer it has no number of).  *ok is false after
 * the line saying what is wrong.
 */
static const struct offer_type *read_offer_type(struct session *s, const struct cmd_args *a,
    const char *verb, bool *ok)
{
	const struct offer_type *t;

	*ok = true;
	if (a->argc && !strcasecmp(a->argv[0], "t")) {
		if (a->argc < 2) {
			session_printf(s, "Usage: %s t <type>, the type one of " OFFER_TYPE_WORDS ".\n",
			    verb);
		} else if (!(t = offer_type_named(a->argv[1]))) {
			session_printf(s, "\"%s\" is not a kind of offer: use " OFFER_TYPE_WORDS ".\n",
			    a->argv[1]);
		} else {
			return t;
		}
		*ok = false;
		return NULL;
	}
	if (a->argc > 1) {
		session_printf(s, "Usage: %s [n|name|all|type]\n", verb);
		*ok = false;
		return NULL;
	}
	return a->argc ? offer_type_named(a->argv[0]) : NULL;
}

/* The oldest challenge made to (incoming) or by s, or NULL. */
static void first_challenge(struct challenge *c, void *arg)
{
	struct challenge **first = arg;

	if (!*first)
		*first = c;
}

static struct challenge *oldest_challenge(struct session *s, bool incoming)
{
	struct challenge *c = NULL;

	offers_each_challenge_of(server_offers(session_server(s)), s, incoming, first_challenge, &c);
	return c;
}

/* Whether anything is offered to (incoming) or by s: in its game or a challenge. */
static bool has_offers(struct session *s, bool incoming)
{
	struct game *g = session_game(s);

	return (g && game_has_offers(g, s, incoming)) || oldest_challenge(s, incoming);
}

static void decline_challenge(struct session *s, struct challenge *c)
{
	session_notify(c->from, "%s declines the match offer.", session_name(s));
	session_printf(s, "You decline the match offer from %s.\n", session_name(c->from));
	offers_remove_challenge(server_offers(session_server(s)), c);
}

static void withdraw_challenge(struct session *s, struct challenge *c)
{
	session_notify(c->to, "%s withdraws the match offer.", session_name(s));
	session_printf(s, "You withdraw the match offer to %s.\n", session_name(c->to));
	offers_remove_challenge(server_offers(session_server(s)), c);
}

/* lasker's line when no offer is of the type asked for, or none at all. */
static void no_offers_of(struct session *s, const struct offer_type *t, const char *verb)
{
	bool incoming = strcmp(verb, "withdraw") != 0;

	if (!has_offers(s, incoming) && !strcmp(verb, "accept"))
		session_printf(s, "You have no offers to accept.\n");
	else if (!has_offers(s, incoming))
		session_printf(s, "You have no pending offers %s other players.\n",
		    incoming ? "from" : "to");
	else
		session_printf(s, "There are no pending %s offers.\n", t->name);
}

/* accept TYPE: the first offer of the type, one's game's before challenges (lasker). */
static void accept_type(struct session *s, const struct offer_type *t)
{
	struct game *g = session_game(s);
	struct challenge *c;

	if (g && game_answer_kinds(g, s, t->kinds, true))
		return;
	if (!t->match || !(c = oldest_challenge(s, true))) {
		no_offers_of(s, t, "accept");
		return;
	}
	if (free_to_play(s, c->from, "You are already playing a game."))
		take_challenge(s, c, false);
}

/* decline TYPE and withdraw TYPE: every offer of the type, as lasker does. */
static void drop_type(struct session *s, const struct offer_type *t, bool incoming)
{
	struct game *g = session_game(s);
	struct challenge *c;
	bool done = g && (incoming ? game_answer_kinds(g, s, t->kinds, false) :
	    game_withdraw_kinds(g, s, t->kinds));

	while (t->match && (c = oldest_challenge(s, incoming))) {
		if (incoming)
			decline_challenge(s, c);
		else
			withdraw_challenge(s, c);
		done = true;
	}
	if (!done)
		no_offers_of(s, t, incoming ? "decline" : "withdraw");
}

enum answer { ANSWER_ACCEPT, ANSWER_DECLINE, ANSWER_WITHDRAW };

/*
 * The offers in s's game a name given to accept, decline or withdraw
 * names: the player's by session, when that player is s's opponent.
 */
static bool answer_named_in_game(struct session *s, const struct cmd_args *a, enum answer how)
{
	struct game *g = session_game(s);
	long number;

	if (!g || a->argc != 1 ||
	    number_parse(a->argv[0], 0, LONG_MAX, &number) != NUMBER_JUNK)
		return false;
	struct session *other = server_find_session(session_server(s), a->argv[0]);
	if (!other || other == s || game_color_of(g, other) < 0)
		return false;
	if (how == ANSWER_WITHDRAW)
		return game_withdraw_kinds(g, s, GAME_OFFER_ALL);
	return game_answer_kinds(g, s, GAME_OFFER_ALL, how == ANSWER_ACCEPT);
}

static void cmd_accept(struct session *s, const struct cmd_args *a)
{
	bool ok;
	const struct offer_type *t = read_offer_type(s, a, "accept", &ok);

	if (!ok)
		return;
	if (t) {
		accept_type(s, t);
		return;
	}
	if (answer_named_in_game(s, a, ANSWER_ACCEPT) || answer_game_offer(s, a, true))
		return;
	struct challenge *c = pick_challenge(s, a, true, "accept");
	if (!c || !free_to_play(s, c->from, "You are already playing a game."))
		return;
	take_challenge(s, c, false);
}

static void cmd_decline(struct session *s, const struct cmd_args *a)
{
	bool ok;
	const struct offer_type *t = read_offer_type(s, a, "decline", &ok);

	if (!ok)
		return;
	if (t) {
		drop_type(s, t, true);
		return;
	}
	bool named = answer_named_in_game(s, a, ANSWER_DECLINE);
	if (!named && answer_game_offer(s, a, false))
		return;
	struct challenge *c = named ? offers_pick_challenge(server_offers(session_server(s)), s,
	    true, a->argv[0], &(int){ 0 }) : pick_challenge(s, a, true, "decline");
	if (c)
		decline_challenge(s, c);
}

static void cmd_withdraw(struct session *s, const struct cmd_args *a)
{
	struct game *g = session_game(s);
	long number = 0;
	bool ok;
	const struct offer_type *t = read_offer_type(s, a, "withdraw", &ok);

	if (!ok)
		return;
	if (t) {
		drop_type(s, t, false);
		return;
	}
	bool named = answer_named_in_game(s, a, ANSWER_WITHDRAW);
	/* One's offers in one's game first: all of them, or the one numbered. */
	if (!named && g && (!a->argc || number_parse(a->argv[0], OFFER_ID_MAX + 1L, LONG_MAX,
	    &number) == NUMBER_OK) && game_withdraw_offers(g, s, number))
		return;
	struct challenge *c = named ? offers_pick_challenge(server_offers(session_server(s)), s,
	    false, a->argv[0], &(int){ 0 }) : pick_challenge(s, a, false, "withdraw");
	if (c)
		withdraw_challenge(s, c);
}

struct pending {
	struct session *s;
	bool incoming;
	int shown;
};

static void pending_line(struct challenge *c, void *arg)
{
	struct pending *p = arg;
	char text[256];

	if (!p->shown++)
		session_printf(p->s, "Offers %s other players:\n", p->incoming ? "FROM" : "TO");
	offers_challenge_text(c, text, sizeof text);
	if (p->incoming)
		session_printf(p->s, " %d: %s is offering a challenge: %s.\n", c->id,
		    session_name(c->from), text);
	else
		session_printf(p->s, " %d: You are offering %s a challenge: %s.\n", c->id,
		    session_name(c->to), text);
}

/* An offer inside one's game, in lasker's words. */
static void pending_game_line(long number, const char *other, const char *what, void *arg)
{
	struct pending *p = arg;

	if (!p->shown++)
		session_printf(p->s, "Offers %s other players:\n", p->incoming ? "FROM" : "TO");
	if (p->incoming)
		session_printf(p->s, " %ld: %s is offering %s\n", number, other, what);
	else
		session_printf(p->s, " %ld: You are offering %s %s\n", number, other, what);
}

/* lasker's layout; the numbers are the offers' own, as <pf> and accept use them. */
static void cmd_pending(struct session *s, const struct cmd_args *a)
{
	struct offers *o = server_offers(session_server(s));
	struct pending out = { s, false, 0 }, in = { s, true, 0 };
	struct game *g = session_game(s);

	(void)a;
	if (g)
		game_each_offer(g, s, false, pending_game_line, &out);
	offers_each_challenge_of(o, s, false, pending_line, &out);
	if (out.shown)
		session_printf(s, "\nIf you wish to withdraw any of these offers type 'withdraw n'\n"
		    "or just 'withdraw' if there is only one offer.\n\n");
	else
		session_printf(s, "There are no offers pending TO other players.\n\n");
	if (g)
		game_each_offer(g, s, true, pending_game_line, &in);
	offers_each_challenge_of(o, s, true, pending_line, &in);
	if (in.shown)
		session_printf(s, "\nIf you wish to accept any of these offers type 'accept n'\n"
		    "or just 'accept' if there is only one offer.\n");
	else
		session_printf(s, "There are no offers pending FROM other players.\n");
}

static void cmd_rematch(struct session *s, const struct cmd_args *a)
{
	const struct match_terms *t = session_last_terms(s);
	struct session *to = session_last_opponent_online(s);

	(void)a;
	if (!t->valid || !*session_last_opponent(s)) {
		session_printf(s, "You have not played anyone to rematch.\n");
		return;
	}
	if (!to) {
		session_printf(s, "%s is not logged in.\n", session_last_opponent(s));
		return;
	}
	/* Colours swap, as FICS does. */
	challenge(s, to, &t->tc, t->rated, (int)color_other((enum color)t->color));
}

const struct cmd_entry cmd_seek_entry = {
	.name = "seek",
	.args = "T",
	.code = BLKCMD_SEEK,
	.exec = cmd_seek,
	.usage = "seek [minutes inc] [rated|unrated] [white|black] [manual] [formula] [min-max]",
	.summary = "Advertise for a game",
};
const struct cmd_entry cmd_unseek_entry = {
	.name = "unseek",
	.args = "n",
	.code = BLKCMD_UNSEEK,
	.exec = cmd_unseek,
	.usage = "unseek [number]",
	.summary = "Remove your seeks",
};
const struct cmd_entry cmd_sought_entry = {
	.name = "sought",
	.args = "o",
	.code = BLKCMD_SOUGHT,
	.exec = cmd_sought,
	.usage = "sought [all]",
	.summary = "The seeks on offer",
};
const struct cmd_entry cmd_play_entry = {
	.name = "play",
	.args = "i",
	.code = BLKCMD_PLAY,
	.exec = cmd_play,
	.usage = "play <number>",
	.summary = "Answer a seek",
};
const struct cmd_entry cmd_match_entry = {
	.name = "match",
	.args = "wT",
	.code = BLKCMD_MATCH,
	.exec = cmd_match,
	.usage = "match <name> [minutes inc] [rated|unrated] [white|black]",
	.summary = "Challenge a player",
};
const struct cmd_entry cmd_accept_entry = {
	.name = "accept",
	.args = "oo",
	.code = BLKCMD_ACCEPT,
	.exec = cmd_accept,
	.usage = "accept [number|name|all|type]",
	.summary = "Accept an offer",
};
const struct cmd_entry cmd_decline_entry = {
	.name = "decline",
	.args = "oo",
	.code = BLKCMD_DECLINE,
	.exec = cmd_decline,
	.usage = "decline [number|name|all|type]",
	.summary = "Decline an offer",
};
const struct cmd_entry cmd_withdraw_entry = {
	.name = "withdraw",
	.args = "oo",
	.code = BLKCMD_WITHDRAW,
	.exec = cmd_withdraw,
	.usage = "withdraw [number|name|all|type]",
	.summary = "Withdraw your offer",
};
const struct cmd_entry cmd_pending_entry = {
	.name = "pending",
	.args = "",
	.code = BLKCMD_PENDING,
	.exec = cmd_pending,
	.usage = "pending",
	.summary = "Offers to and from you",
};
const struct cmd_entry cmd_rematch_entry = {
	.name = "rematch",
	.args = "",
	.code = BLKCMD_REMATCH,
	.exec = cmd_rematch,
	.usage = "rematch",
	.summary = "Challenge your last opponent again",
};
