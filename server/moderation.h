/*
 * What admins keep the server civil with, beyond single commands: the
 * shutdown countdown, the banned address ranges (from the configuration
 * and from admins, kept in the database), the log of every admin action,
 * and the rule that an admin acts only on accounts of a lower level.
 */
#ifndef CHESSD_MODERATION_H
#define CHESSD_MODERATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct server;
struct session;
struct moderation;

/* NULL with a reason (a bad ban_addresses range) on failure. */
struct moderation *moderation_new(struct server *srv, char *err, size_t errlen);
void moderation_free(struct moderation *m);

/* Records an admin action in the database: who did what to whom (target may be NULL). */
void moderation_log(struct session *admin, const char *action, int64_t target_id,
    const char *target, const char *detail);
/* Whether an admin may act on an account of this admin level (0: a player). */
bool moderation_outranks(const struct session *admin, int target_level);

/*
 * The countdown: the server shuts down (as on SIGTERM) after seconds,
 * announced to everyone now and as it crosses FICS's marks; 0 shuts down
 * at once.  Cancelling is announced too; false when none was running.
 */
void moderation_shutdown_in(struct moderation *m, const char *by, int seconds,
    const char *reason);
bool moderation_shutdown_cancel(struct moderation *m, const char *by);
/* Seconds until the ordered shutdown, or -1 when none is ordered. */
int moderation_shutdown_left(const struct moderation *m);
const char *moderation_shutdown_reason(const struct moderation *m);

/* Whether an address lies in a banned range. */
bool moderation_address_banned(const struct moderation *m, const char *address);
/* Bans a range (canonical text) now: 0, or -1 when it is already banned or
 * the table is full.  Sessions online from it are disconnected. */
int moderation_ban_address(struct moderation *m, const char *range);
/* 0, or -1 when the range was not banned by an admin. */
int moderation_unban_address(struct moderation *m, const char *range);
/* Each banned range, and whether it comes from the configuration. */
void moderation_each_ban(const struct moderation *m,
    void (*fn)(void *arg, const char *range, bool configured), void *arg);

#endif
