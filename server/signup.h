/*
 * Registrations per address per hour: a tally of the accounts made from
 * each IPv4 address, or IPv6 /64 (one subscriber's network), over a
 * rolling hour.  Kept in memory only; bounded, and full means no more
 * registrations until an hour frees a slot, never a forgotten tally.
 */
#ifndef CHESSD_SIGNUP_H
#define CHESSD_SIGNUP_H

#include <stdbool.h>
#include <stdint.h>

#include "limit.h"

#define SIGNUP_WINDOW_MS (60 * 60 * 1000)

struct signups;

struct signups *signups_new(void);
void signups_free(struct signups *su);
/* Whether addr may register another account now, given the hourly limit. */
bool signups_allowed(struct signups *su, const char *addr, int64_t now_ms, int per_hour);
/* An account was registered from addr. */
void signups_count(struct signups *su, const char *addr, int64_t now_ms);

#endif
