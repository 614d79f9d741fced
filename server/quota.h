/*
 * Allowances per key (an account, a session, an address): at most N events
 * in any window, as a token bucket holding N and refilled N per window.  A
 * key is forgotten once its bucket is full again, so memory follows what
 * happened in the last window only.
 */
#ifndef CHESSD_QUOTA_H
#define CHESSD_QUOTA_H

#include <stdbool.h>
#include <stdint.h>

struct quotas;

struct quotas *quotas_new(int64_t window_ms);
void quotas_free(struct quotas *q);
/* Whether key may have one more of its `per_window` events now. */
bool quotas_left(struct quotas *q, const char *key, int per_window, int64_t now_ms);
/* Spends one of key's events (quotas_left said there was one). */
void quotas_take(struct quotas *q, const char *key, int per_window, int64_t now_ms);
/* Keys remembered: for tests. */
int quotas_count(const struct quotas *q);

#endif
