#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audience.h"
#include "config.h"
#include "conn.h"
#include "db.h"
#include "fics.h"
#include "formula.h"
#include "game.h"
#include "number.h"
#include "lists.h"
#include "offer.h"
#include "rating.h"
#include "server.h"
#include "session.h"
#include "var.h"

/*
 * A session's challenges, both ways, each list in the order made.  Every
 * operation on one challenge is O(1): its number indexes a table, its two
 * players index the parties, and the pair of players a second hash.
 */
struct party {
	struct session *s;
	struct node *out_head, *out_tail, *in_head, *in_tail;
	int out_count, in_count;
	struct party *next;		/* in its hash bucket */
};

/* A challenge with its places on both parties' lists. */
struct node {
	struct challenge c;		/* first: a challenge's node is at its address */
	struct party *from, *to;
	struct node *out_prev, *out_next, *in_prev, *in_next;
	struct node *pair_next;		/* in its bucket of pairs */
};

struct offers {
	struct server *srv;
	struct seek **seeks;
	int seek_count, seek_cap;
	struct challenge *challenge_by_id[OFFER_ID_MAX + 1];
	int challenge_count;
	struct party **parties;		/* hash buckets, by session */
	size_t party_buckets, party_count;
	struct node **pairs;		/* hash buckets, by (from, to) */
	size_t pair_buckets;
	int next_seek_id, next_challenge_id;
};

struct offers *offers_new(struct server *srv)
{
	struct offers *o = calloc(1, sizeof *o);

	if (o) {
		o->srv = srv;
		o->next_seek_id = o->next_challenge_id = 1;
	}
	return o;
}

void offers_free(struct offers *o)
{
	if (!o)
		return;
	for (int i = 0; i < o->seek_count; i++)
		free(o->seeks[i]);
	/* Sessions are gone by now: free without telling anyone. */
	for (int id = 1; id <= OFFER_ID_MAX; id++)
		free(o->challenge_by_id[id]);
	for (size_t i = 0; i < o->party_buckets; i++)
		for (struct party *p = o->parties[i], *next; p; p = next) {
			next = p->next;
			free(p);
		}
	free(o->seeks);
	free(o->parties);
	free(o->pairs);
	free(o);
}

/* Grows a pointer array by one slot. */
static int grow(void ***items, int count, int *cap)
{
	if (count < *cap)
		return 0;
	int n = *cap ? *cap * 2 : 16;
	void **p = realloc(*items, (size_t)n * sizeof *p);
	if (!p)
		return -1;
	*items = p;
	*cap = n;
	return 0;
}

static struct rating player_rating(struct server *srv, const struct session *s,
    const struct clock_control *tc)
{
	struct rating r;

	rating_load(server_db(srv), session_user_id(s), clock_category(tc), &r);
	return r;
}

static void player_rating_text(struct server *srv, const struct session *s,
    const struct clock_control *tc, char *buf, size_t len)
{
	struct rating r = player_rating(srv, s, tc);

	rating_text(&r, session_user_id(s), buf, len);
}

/*
 * A challenge's control as clients parse it (<pf>, Challenge:): FICS's two
 * numbers, then, for a control FICS has no form for, the control itself
 * for the people reading it.
 */
static void challenge_time_words(const struct clock_control *tc, char *buf, size_t len)
{
	char control[CLOCK_TEXT_MAX];
	long long min, inc;

	fics_time_numbers(tc, &min, &inc);
	if (fics_time_plain(tc)) {
		snprintf(buf, len, "%lld %lld", min, inc);
		return;
	}
	clock_format(tc, control, sizeof control);
	snprintf(buf, len, "%lld %lld (%s)", min, inc, control);
}

/* --- seeks --- */

/* Numbers rotate, so one is reused as late as possible; a used one is
 * skipped at most once a rotation, which makes a search O(1) on average. */
static int free_id(int *next, bool (*used)(struct offers *, int), struct offers *o)
{
	for (int tries = 0; tries < OFFER_ID_MAX; tries++) {
		int id = *next;
		*next = *next % OFFER_ID_MAX + 1;
		if (!used(o, id))
			return id;
	}
	return -1;
}

static bool seek_id_used(struct offers *o, int id)
{
	return offers_find_seek(o, id) != NULL;
}

static bool challenge_id_used(struct offers *o, int id)
{
	return o->challenge_by_id[id] != NULL;
}

struct seek *offers_find_seek(struct offers *o, int id)
{
	for (int i = 0; i < o->seek_count; i++)
		if (o->seeks[i]->id == id)
			return o->seeks[i];
	return NULL;
}

/* FICS's title bits in <s> lines: 0x1 unregistered, 0x2 computer. */
static int seek_titles(const struct session *owner)
{
	return (session_registered(owner) ? 0 : 0x1) | (session_computer(owner) ? 0x2 : 0);
}

void offers_seek_line(const struct seek *sk, bool machine, char *buf, size_t len)
{
	struct server *srv = session_server(sk->owner);
	struct rating r = player_rating(srv, sk->owner, &sk->tc);
	char tw[CLOCK_TEXT_MAX], rt[8];
	long long minutes, inc;
	/* Clients add i= to their clocks each move: a delay is shown as none, as in style 12. */
	fics_time_numbers(&sk->tc, &minutes, &inc);
	const char *type = clock_category_name(clock_category(&sk->tc));

	rating_text(&r, session_user_id(sk->owner), rt, sizeof rt);
	if (machine) {
		/* No rating yet is 0P, as FICS sends it: eboard shows it as "++++". */
		bool none = !session_user_id(sk->owner) || !rating_games(&r);
		int shown = none ? 0 : glicko2_display(&r.value);
		char status = none || glicko2_provisional(&r.value) ? 'P' : ' ';
		snprintf(buf, len, "<s> %d w=%s ti=%02x rt=%d%c t=%lld i=%lld r=%c tp=%s c=%c rr=%d-%d a=%c f=%c",
		    sk->id, session_name(sk->owner), seek_titles(sk->owner), shown, status,
		    minutes, inc, sk->rated ? 'r' : 'u', type,
		    sk->color < 0 ? '?' : sk->color == 0 ? 'W' : 'B', sk->min_rating, sk->max_rating,
		    sk->manual ? 'f' : 't', sk->formula ? 't' : 'f');
	} else {
		char who[SESSION_NAME_MAX + 4];
		snprintf(who, sizeof who, "%s%s", session_name(sk->owner),
		    session_computer(sk->owner) ? "(C)" : "");
		/* lasker's columns, then the range, colour and manual flag, and a
		 * control FICS has no numbers for in words. */
		char control[CLOCK_TEXT_MAX + 4] = "";
		if (!fics_time_plain(&sk->tc) && !clock_untimed(&sk->tc)) {
			clock_format(&sk->tc, tw, sizeof tw);
			snprintf(control, sizeof control, " (%s)", tw);
		}
		snprintf(buf, len, "%3d %4s %-17s %3lld %3lld %-7s %-10s %d-%d%s%s%s", sk->id, rt, who,
		    minutes, inc, sk->rated ? "rated" : "unrated", type, sk->min_rating,
		    sk->max_rating, sk->color < 0 ? "" : sk->color == 0 ? " [white]" : " [black]",
		    sk->manual ? " m" : "", control);
	}
}

/* A session's rating in one category, read from the store at most once. */
struct rating_once {
	bool loaded;
	struct rating r;
};

static const struct rating *rating_once(struct rating_once *ro, struct server *srv,
    const struct session *s, const struct clock_control *tc)
{
	if (!ro->loaded) {
		ro->r = player_rating(srv, s, tc);
		ro->loaded = true;
	}
	return &ro->r;
}

static bool formula_admits_once(struct session *owner, struct session *other,
    const struct clock_control *tc, bool rated, struct rating_once *mine,
    struct rating_once *theirs);

/* offers_seek_shown() with the owner's rating kept across the receivers
 * of one broadcast, and each receiver's across both formulas. */
static bool seek_shown(const struct seek *sk, struct session *to, bool all,
    struct rating_once *owner_rating)
{
	struct rating_once to_rating = { .loaded = false };

	if (to == sk->owner)
		return true;
	if (lists_censors(to, sk->owner))
		return false;
	/* A seek posted with "formula" reaches only those its owner's formula admits. */
	if (sk->formula && !formula_admits_once(sk->owner, to, &sk->tc, sk->rated,
	    owner_rating, &to_rating))
		return false;
	/* And only those whose own formula admits it (lasker's help seek and sought). */
	return all || formula_admits_once(to, sk->owner, &sk->tc, sk->rated, &to_rating,
	    owner_rating);
}

bool offers_seek_shown(const struct seek *sk, struct session *to, bool all)
{
	struct rating_once owner_rating = { .loaded = false };

	return seek_shown(sk, to, all, &owner_rating);
}

struct announce {
	const struct seek *sk;
	struct rating_once owner_rating;
	char machine[256], human[256];
	int seen;
};

static void announce_seek(struct session *s, void *arg)
{
	struct announce *a = arg;

	if (s == a->sk->owner && !session_var(s, IVAR_SHOWOWNSEEK) && !session_var(s, VAR_SHOWOWNSEEK))
		return;
	if (!seek_shown(a->sk, s, false, &a->owner_rating))
		return;
	if (session_var(s, IVAR_SEEKINFO)) {
		session_notify(s, "%s", a->machine);
	} else if (session_var(s, VAR_SEEK)) {
		session_notify(s, "%s", a->human);
	} else {
		return;
	}
	if (s != a->sk->owner)
		a->seen++;
}

struct seek *offers_seek(struct offers *o, const struct seek *proto, char *why, size_t len)
{
	int mine = 0, most = server_config(o->srv)->limits.seeks_per_user;

	for (int i = 0; i < o->seek_count; i++)
		if (o->seeks[i]->owner == proto->owner)
			mine++;
	if (mine >= most) {
		snprintf(why, len, "You can only have %d active seeks.", most);
		return NULL;
	}
	struct seek *sk = malloc(sizeof *sk);
	if (!sk || grow((void ***)&o->seeks, o->seek_count, &o->seek_cap) < 0) {
		free(sk);
		snprintf(why, len, "Out of memory.");
		return NULL;
	}
	*sk = *proto;
	sk->id = free_id(&o->next_seek_id, seek_id_used, o);
	o->seeks[o->seek_count++] = sk;

	struct announce a = { .sk = sk };
	char control[CLOCK_TEXT_MAX + 4] = "", rt[8];
	long long minutes, inc;
	rating_text(rating_once(&a.owner_rating, o->srv, sk->owner, &sk->tc),
	    session_user_id(sk->owner), rt, sizeof rt);
	offers_seek_line(sk, true, a.machine, sizeof a.machine);
	/* xboard reads minutes, increment, rated and type off the front; people
	 * read a control FICS has no numbers for after them. */
	fics_time_numbers(&sk->tc, &minutes, &inc);
	if (!fics_time_plain(&sk->tc) && !clock_untimed(&sk->tc)) {
		char tw[CLOCK_TEXT_MAX];
		clock_format(&sk->tc, tw, sizeof tw);
		snprintf(control, sizeof control, " (%s)", tw);
	}
	snprintf(a.human, sizeof a.human, "%s (%s) seeking %lld %lld %s %s%s%s (\"play %d\" to respond)",
	    session_name(sk->owner), rt, minutes, inc, sk->rated ? "rated" : "unrated",
	    clock_category_name(clock_category(&sk->tc)), control, sk->manual ? " m" : "", sk->id);
	audience_each(o->srv, AUDIENCE_SEEK, announce_seek, &a);
	session_printf(sk->owner, "Your seek has been posted with index %d.\n(%d player(s) saw the seek.)\n",
	    sk->id, a.seen);
	return sk;
}

struct removal {
	char line[1024];
};

static void tell_removed(struct session *s, void *arg)
{
	session_notify(s, "%s", ((struct removal *)arg)->line);
}

void offers_unseek(struct offers *o, struct session *owner, int id)
{
	struct removal r;
	size_t n = (size_t)snprintf(r.line, sizeof r.line, "<sr>");
	int removed = 0;

	for (int i = 0; i < o->seek_count;) {
		struct seek *sk = o->seeks[i];
		if ((id && sk->id != id) || (owner && sk->owner != owner)) {
			i++;
			continue;
		}
		if (n + 8 < sizeof r.line)
			n += (size_t)snprintf(r.line + n, sizeof r.line - n, " %d", sk->id);
		o->seeks[i] = o->seeks[--o->seek_count];
		free(sk);
		removed++;
	}
	if (removed)
		audience_each(o->srv, AUDIENCE_SEEK_REMOVE, tell_removed, &r);
}

void offers_each_seek(struct offers *o, void (*fn)(const struct seek *s, void *arg), void *arg)
{
	for (int i = 0; i < o->seek_count; i++)
		fn(o->seeks[i], arg);
}

void offers_send_all_seeks(struct offers *o, struct session *to)
{
	char line[256];

	session_printf(to, "<sc>\n");
	for (int i = 0; i < o->seek_count; i++) {
		if ((o->seeks[i]->owner == to && !session_var(to, IVAR_SHOWOWNSEEK)) ||
		    !offers_seek_shown(o->seeks[i], to, false))
			continue;
		offers_seek_line(o->seeks[i], true, line, sizeof line);
		session_printf(to, "%s\n", line);
	}
}

/* --- challenges --- */

static uint64_t pointer_hash(const void *p)
{
	return (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
}

static size_t party_bucket(const struct offers *o, const struct session *s)
{
	return (size_t)(pointer_hash(s) >> 32) & (o->party_buckets - 1);
}

static size_t pair_bucket(const struct offers *o, const struct session *from,
    const struct session *to)
{
	return (size_t)((pointer_hash(from) ^ (pointer_hash(to) >> 17)) >> 32) & (o->pair_buckets - 1);
}

/* Doubles the buckets of pairs when the challenges outnumber them. */
static void pairs_grow(struct offers *o)
{
	size_t old = o->pair_buckets, n = old ? old * 2 : 64;
	struct node **b = calloc(n, sizeof *b);

	if (!b)
		return;
	struct node **was = o->pairs;
	o->pairs = b;
	o->pair_buckets = n;
	for (size_t i = 0; i < old; i++) {
		for (struct node *p = was[i], *next; p; p = next) {
			next = p->pair_next;
			size_t at = pair_bucket(o, p->c.from, p->c.to);
			p->pair_next = b[at];
			b[at] = p;
		}
	}
	free(was);
}

/* Doubles the buckets when the parties outnumber them; a failure only slows. */
static void parties_grow(struct offers *o)
{
	size_t old = o->party_buckets, n = old ? old * 2 : 64;
	struct party **b = calloc(n, sizeof *b);

	if (!b)
		return;
	struct party **was = o->parties;
	o->parties = b;
	o->party_buckets = n;
	for (size_t i = 0; i < old; i++) {
		for (struct party *p = was[i], *next; p; p = next) {
			next = p->next;
			size_t at = party_bucket(o, p->s);
			p->next = b[at];
			b[at] = p;
		}
	}
	free(was);
}

static struct party *party_get(struct offers *o, struct session *s, bool create)
{
	if (o->party_buckets) {
		for (struct party *p = o->parties[party_bucket(o, s)]; p; p = p->next)
			if (p->s == s)
				return p;
	}
	if (!create)
		return NULL;
	if (o->party_count >= o->party_buckets)
		parties_grow(o);
	struct party *p = calloc(1, sizeof *p);
	if (!p || !o->party_buckets) {
		free(p);
		return NULL;
	}
	size_t at = party_bucket(o, s);
	p->s = s;
	p->next = o->parties[at];
	o->parties[at] = p;
	o->party_count++;
	return p;
}

/* Forgets a party with no challenges left. */
static void party_settle(struct offers *o, struct party *p)
{
	if (p->out_count || p->in_count)
		return;
	for (struct party **link = &o->parties[party_bucket(o, p->s)]; *link; link = &(*link)->next) {
		if (*link == p) {
			*link = p->next;
			free(p);
			o->party_count--;
			return;
		}
	}
}

static void node_link(struct node *n)
{
	struct party *f = n->from, *t = n->to;

	n->out_prev = f->out_tail;
	if (f->out_tail)
		f->out_tail->out_next = n;
	else
		f->out_head = n;
	f->out_tail = n;
	f->out_count++;
	n->in_prev = t->in_tail;
	if (t->in_tail)
		t->in_tail->in_next = n;
	else
		t->in_head = n;
	t->in_tail = n;
	t->in_count++;
}

static void node_unlink(struct node *n)
{
	struct party *f = n->from, *t = n->to;

	if (n->out_prev)
		n->out_prev->out_next = n->out_next;
	else
		f->out_head = n->out_next;
	if (n->out_next)
		n->out_next->out_prev = n->out_prev;
	else
		f->out_tail = n->out_prev;
	f->out_count--;
	if (n->in_prev)
		n->in_prev->in_next = n->in_next;
	else
		t->in_head = n->in_next;
	if (n->in_next)
		n->in_next->in_prev = n->in_prev;
	else
		t->in_tail = n->in_prev;
	t->in_count--;
}

struct challenge *offers_find_challenge(struct offers *o, struct session *from, struct session *to)
{
	if (!from) {
		struct party *p = party_get(o, to, false);
		return !p ? NULL : p->out_head ? &p->out_head->c : p->in_head ? &p->in_head->c : NULL;
	}
	if (!o->pair_buckets)
		return NULL;
	for (struct node *n = o->pairs[pair_bucket(o, from, to)]; n; n = n->pair_next)
		if (n->c.from == from && n->c.to == to)
			return &n->c;
	return NULL;
}

struct challenge *offers_find_challenge_id(struct offers *o, int id)
{
	return id >= 1 && id <= OFFER_ID_MAX ? o->challenge_by_id[id] : NULL;
}

struct challenge *offers_pick_challenge(struct offers *o, struct session *s, bool incoming,
    const char *which, int *count)
{
	struct party *p = party_get(o, s, false);
	struct challenge *c = NULL;

	*count = 0;
	if (!which) {
		*count = !p ? 0 : incoming ? p->in_count : p->out_count;
		if (*count == 1)
			c = incoming ? &p->in_head->c : &p->out_head->c;
		return *count == 1 ? c : NULL;
	}
	long id;
	enum number_status ns = number_parse(which, 1, OFFER_ID_MAX, &id);
	if (ns != NUMBER_JUNK) {
		c = ns == NUMBER_OK ? offers_find_challenge_id(o, (int)id) : NULL;
		if (c && (incoming ? c->to : c->from) != s)
			c = NULL;
	} else {
		struct session *other = server_find_session(o->srv, which);
		c = !other ? NULL : incoming ? offers_find_challenge(o, other, s) :
		    offers_find_challenge(o, s, other);
	}
	*count = c != NULL;
	return c;
}

void offers_challenge_text(const struct challenge *c, char *buf, size_t len)
{
	struct server *srv = session_server(c->from);
	char fr[8], tr[8], tw[CLOCK_TEXT_MAX + 48];

	player_rating_text(srv, c->from, &c->tc, fr, sizeof fr);
	player_rating_text(srv, c->to, &c->tc, tr, sizeof tr);
	challenge_time_words(&c->tc, tw, sizeof tw);
	snprintf(buf, len, "%s (%s)%s %s (%s) %s %s %s", session_name(c->from), fr,
	    c->color < 0 ? "" : c->color == 0 ? " [white]" : " [black]", session_name(c->to), tr,
	    c->rated ? "rated" : "unrated", clock_category_name(clock_category(&c->tc)), tw);
}

/*
 * What lasker adds below a challenge for each side: "--** bob is a
 * computer **--" about the other, and for a rated game what each result
 * would do to one's rating.
 */
static void challenge_notes(struct server *srv, const struct challenge *c, bool for_from,
    char *buf, size_t len)
{
	const struct session *me = for_from ? c->from : c->to, *other = for_from ? c->to : c->from;
	size_t n = 0;

	buf[0] = '\0';
	if (session_computer(other))
		n += (size_t)snprintf(buf, len, "--** %s is a computer **--\n", session_name(other));
	if (!c->rated || n >= len)
		return;
	struct rating mine = player_rating(srv, me, &c->tc), theirs = player_rating(srv, other, &c->tc);
	struct rating_assessment as;
	rating_assess(&mine, &theirs, &as);
	snprintf(buf + n, len - n, "Your %s rating will change:  Win: %s%d,  Draw: %s%d,  Loss: %s%d\n"
	    "Your new RD will be %5.1f\n", clock_category_name(clock_category(&c->tc)),
	    as.first[0] >= 0 ? "+" : "", as.first[0], as.first[1] >= 0 ? "+" : "", as.first[1],
	    as.first[2] >= 0 ? "+" : "", as.first[2], as.first_rd);
}

struct challenge *offers_challenge(struct offers *o, const struct challenge *proto, char *why,
    size_t len)
{
	const struct limits *lim = &server_config(o->srv)->limits;
	char text[256];

	/*
	 * A new offer between the same two replaces the old one, either way
	 * round: lasker updates our own, or declines theirs with new terms.
	 */
	struct challenge *mine_before = offers_find_challenge(o, proto->from, proto->to);
	struct challenge *theirs = offers_find_challenge(o, proto->to, proto->from);
	if (mine_before)
		offers_remove_challenge(o, mine_before);
	if (theirs)
		offers_remove_challenge(o, theirs);
	struct party *mine = party_get(o, proto->from, false);
	if (mine && mine->out_count >= lim->offers_per_user) {
		snprintf(why, len, "You can have at most %d pending offers; withdraw one first.",
		    lim->offers_per_user);
		return NULL;
	}
	if (o->challenge_count >= lim->offers_total) {
		snprintf(why, len, "There are too many pending offers on the server; try again later.");
		return NULL;
	}
	if ((size_t)o->challenge_count >= o->pair_buckets)
		pairs_grow(o);
	struct node *n = calloc(1, sizeof *n);
	int id = free_id(&o->next_challenge_id, challenge_id_used, o);
	if (!n || id < 0 || !o->pair_buckets || !(n->from = party_get(o, proto->from, true)) ||
	    !(n->to = party_get(o, proto->to, true))) {
		if (n && n->from)
			party_settle(o, n->from);
		free(n);
		snprintf(why, len, "Out of memory.");
		return NULL;
	}
	struct challenge *c = &n->c;
	*c = *proto;
	c->id = id;
	o->challenge_by_id[id] = c;
	o->challenge_count++;
	node_link(n);
	size_t at = pair_bucket(o, c->from, c->to);
	n->pair_next = o->pairs[at];
	o->pairs[at] = n;

	offers_challenge_text(c, text, sizeof text);
	char before[SESSION_NAME_MAX + 64] = "";
	if (theirs) {
		session_printf(c->from, "Declining offer from %s and offering new match parameters.\n",
		    session_name(c->to));
		snprintf(before, sizeof before, "%s declines your match offer a match with these "
		    "parameters:\n", session_name(c->from));
	}
	if (mine_before) {
		session_printf(c->from, "Updating offer already made to \"%s\".\n"
		    "Updating match request to: %s.\n", session_name(c->to), text);
		snprintf(before, sizeof before, "%s updates the match request.\n", session_name(c->from));
	} else {
		session_printf(c->from, "Issuing: %s.\n", text);
	}
	char notes[256];
	challenge_notes(o->srv, c, true, notes, sizeof notes);
	session_printf(c->from, "%s", notes);
	if (session_var(c->from, IVAR_PENDINFO))
		session_printf(c->from, "<pt> %d w=%s t=match p=%s\n", c->id, session_name(c->to), text);
	challenge_notes(o->srv, c, false, notes, sizeof notes);
	if (c->resume_id)
		session_notify(c->to, "%s would like to resume your adjourned game.\n"
		    "You can \"accept\" or \"decline\".", session_name(c->from));
	else
		session_notify(c->to, "%sChallenge: %s.\n%s"
		    "You can \"accept\" or \"decline\", or propose different parameters.", before, text,
		    notes);
	if (session_var(c->to, IVAR_PENDINFO))
		session_notify(c->to, "<pf> %d w=%s t=match p=%s", c->id, session_name(c->from), text);
	return c;
}

void offers_remove_challenge(struct offers *o, struct challenge *c)
{
	struct node *n = (struct node *)c;

	if (session_var(c->from, IVAR_PENDINFO))
		session_notify(c->from, "<pr> %d", c->id);
	if (session_var(c->to, IVAR_PENDINFO))
		session_notify(c->to, "<pr> %d", c->id);
	node_unlink(n);
	for (struct node **link = &o->pairs[pair_bucket(o, c->from, c->to)]; *link;
	    link = &(*link)->pair_next) {
		if (*link == n) {
			*link = n->pair_next;
			break;
		}
	}
	o->challenge_by_id[c->id] = NULL;
	o->challenge_count--;
	party_settle(o, n->from);
	if (n->to != n->from)
		party_settle(o, n->to);
	free(n);
}

void offers_each_challenge_of(struct offers *o, struct session *s, bool incoming,
    void (*fn)(struct challenge *c, void *arg), void *arg)
{
	struct party *p = party_get(o, s, false);

	for (struct node *n = !p ? NULL : incoming ? p->in_head : p->out_head; n;
	    n = incoming ? n->in_next : n->out_next)
		fn(&n->c, arg);
}

/* Who s now plays, when it is starting a game; NULL otherwise. */
static struct session *new_opponent(struct session *s)
{
	struct game *g = session_online(s) ? session_game(s) : NULL;

	if (!g)
		return NULL;
	return game_player(g, game_player(g, WHITE) == s ? BLACK : WHITE);
}

/* lasker's GetRating: 0 for a guest or before any rated game in the category. */
static int formula_rating(const struct rating *r, const struct session *s)
{
	return session_user_id(s) && rating_games(r) ? glicko2_display(&r->value) : 0;
}

bool offers_formula_admits(struct session *owner, struct session *other,
    const struct clock_control *tc, bool rated)
{
	struct rating_once mine = { .loaded = false }, theirs = { .loaded = false };

	return formula_admits_once(owner, other, tc, rated, &mine, &theirs);
}

static bool formula_admits_once(struct session *owner, struct session *other,
    const struct clock_control *tc, bool rated, struct rating_once *mine_once,
    struct rating_once *theirs_once)
{
	const char *text = var_str(session_vars(owner), VAR_FORMULA);
	struct server *srv = session_server(owner);
	/* Checked against the configured bounds when set; read here within the hard ones. */
	const struct formula_limits lim = { VAR_STRING_MAX, FORMULA_DEPTH_CAP };
	long long minutes, inc;

	if (!*text)
		return true;
	fics_time_numbers(tc, &minutes, &inc);
	const struct rating mine = *rating_once(mine_once, srv, owner, tc),
	    theirs = *rating_once(theirs_once, srv, other, tc);
	struct formula_facts f = {
		.rating = formula_rating(&theirs, other), .myrating = formula_rating(&mine, owner),
		.time_min = (int)(minutes > FORMULA_VALUE_MAX ? FORMULA_VALUE_MAX : minutes),
		.inc_s = (int)(inc > FORMULA_VALUE_MAX ? FORMULA_VALUE_MAX : inc),
		.category = clock_category(tc), .rated = rated,
		.registered = session_registered(other), .computer = session_computer(other),
		.timeseal = session_conn(other) && conn_timeseal(session_conn(other)),
		.private_game = session_var(owner, VAR_PRIVATE) || session_var(other, VAR_PRIVATE),
	};
	if (rated) {
		struct rating_assessment as;
		rating_assess(&mine, &theirs, &as);
		f.assess_win = as.first[0];
		f.assess_draw = as.first[1];
		f.assess_loss = as.first[2];
	}
	return formula_admits(text, &f, &lim);
}

void offers_formula_refuse(struct session *owner, struct session *other,
    const struct clock_control *tc, bool rated)
{
	/* lasker's line names the game without the colour asked for. */
	const struct challenge c = { .from = other, .to = owner, .tc = *tc, .rated = rated,
	    .color = -1 };
	const char *text = var_str(session_vars(owner), VAR_FORMULA);
	char line[256];

	session_printf(other, "Match request does not fit formula for %s:\n%s's formula: %s\n",
	    session_name(owner), session_name(owner), text);
	offers_challenge_text(&c, line, sizeof line);
	session_notify(owner, "Ignoring (formula): %s.", line);
}

void offers_drop_session(struct offers *o, struct session *s)
{
	struct session *opponent = new_opponent(s);
	struct party *p;

	offers_unseek(o, s, 0);
	/* Each removal may free the party: look it up again every time. */
	while ((p = party_get(o, s, false))) {
		struct challenge *c = p->out_head ? &p->out_head->c : &p->in_head->c;
		bool made = c->from == s;
		struct session *other = made ? c->to : c->from;
		/* Leaving withdraws what one offered and declines what one was offered (lasker). */
		if (!session_online(s) && session_online(other))
			session_notify(other, "%s %s the match offer.", session_name(s),
			    made ? "withdraws" : "declines");
		if (opponent && other != opponent && session_online(other)) {
			/* lasker's words when a player with offers starts a game. */
			session_notify(other, "%s, %s, has joined a match with %s.", session_name(s),
			    made ? "who was challenging you" : "whom you were challenging",
			    session_name(opponent));
			session_notify(s, "Challenge %s %s %s.", made ? "to" : "from", session_name(other),
			    made ? "withdrawn" : "removed");
		}
		offers_remove_challenge(o, c);
	}
}
