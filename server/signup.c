#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "address.h"
#include "signup.h"

struct signup {
	char key[ADDRESS_BLOCK_MAX];	/* "" when the slot is free */
	int count;
	int64_t window_start_ms;
};

struct signups {
	struct signup slots[LIMIT_SIGNUP_ADDRESSES];
};

struct signups *signups_new(void)
{
	return calloc(1, sizeof(struct signups));
}

void signups_free(struct signups *su)
{
	free(su);
}

static uint32_t key_hash(const char *key)
{
	uint32_t h = 2166136261u;

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 16777619u;
	return h;
}

/*
 * The slot of addr: its own, else (create) a free or expired one.  An open
 * table without deletion: expired slots are reused in place, so probing
 * stops only at a never-used slot.
 */
static struct signup *slot_of(struct signups *su, const char *addr, int64_t now_ms, bool create)
{
	char key[ADDRESS_BLOCK_MAX];
	struct signup *reuse = NULL;

	/* IPv4 as it is; IPv6 by its /64, where one subscriber has every address. */
	address_block(addr, 32, 64, key, sizeof key);
	uint32_t start = key_hash(key) % LIMIT_SIGNUP_ADDRESSES;
	for (uint32_t i = 0; i < LIMIT_SIGNUP_ADDRESSES; i++) {
		struct signup *e = &su->slots[(start + i) % LIMIT_SIGNUP_ADDRESSES];
		bool expired = e->key[0] && now_ms - e->window_start_ms >= SIGNUP_WINDOW_MS;
		if (e->key[0] && !strcmp(e->key, key)) {
			if (expired) {
				e->count = 0;
				e->window_start_ms = now_ms;
			}
			return e;
		}
		if (!reuse && expired)
			reuse = e;
		if (!e->key[0]) {
			if (!reuse)
				reuse = e;
			break;
		}
	}
	if (!create || !reuse)
		return NULL;
	snprintf(reuse->key, sizeof reuse->key, "%s", key);
	reuse->count = 0;
	reuse->window_start_ms = now_ms;
	return reuse;
}

bool signups_allowed(struct signups *su, const char *addr, int64_t now_ms, int per_hour)
{
	struct signup *e = slot_of(su, addr, now_ms, true);

	return e && e->count < per_hour;
}

void signups_count(struct signups *su, const char *addr, int64_t now_ms)
{
	struct signup *e = slot_of(su, addr, now_ms, true);

	if (e)
		e->count++;
}
