/*
 * A 256-bit two's complement integer as plain data, with the few operations
 * the weighted matcher and the Dutch edge weights need: room to pack every
 * pairing criterion of a bracket into one number.
 */
#ifndef CHESS_WIDE_H
#define CHESS_WIDE_H

#include <stdbool.h>
#include <stdint.h>

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* A 256-bit two's complement integer: room for every criterion of a bracket. */
struct wide {
	u128 lo;
	i128 hi;
};

static const struct wide wide_zero;

static inline struct wide wide_add(struct wide a, struct wide b)
{
	struct wide r;

	r.lo = a.lo + b.lo;
	r.hi = a.hi + b.hi + (r.lo < a.lo);
	return r;
}

static inline struct wide wide_sub(struct wide a, struct wide b)
{
	struct wide r;

	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (a.lo < b.lo);
	return r;
}

static inline int wide_cmp(struct wide a, struct wide b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

static inline bool wide_is_zero(struct wide a)
{
	return a.lo == 0 && a.hi == 0;
}

/* a / 2 rounded down (a is even wherever it is used). */
static inline struct wide wide_half(struct wide a)
{
	struct wide r;

	r.lo = (a.lo >> 1) | ((u128)a.hi << 127);
	r.hi = a.hi >> 1;
	return r;
}

/* 2^k for 0 <= k < 254. */
static inline struct wide wide_bit(int k)
{
	struct wide r = { 0, 0 };

	if (k < 128)
		r.lo = (u128)1 << k;
	else
		r.hi = (i128)((u128)1 << (k - 128));
	return r;
}

/* v * 2^k for 0 <= v < 2^32 and v * 2^k < 2^255. */
static inline struct wide wide_shifted(uint64_t v, int k)
{
	struct wide r = { 0, 0 };

	if (k == 0)
		r.lo = v;
	else if (k < 128) {
		r.lo = (u128)v << k;
		r.hi = (i128)((u128)v >> (128 - k));
	} else {
		r.hi = (i128)((u128)v << (k - 128));
	}
	return r;
}

static inline struct wide wide_small(int64_t v)
{
	struct wide r;

	r.lo = (u128)(i128)v;
	r.hi = v < 0 ? -1 : 0;
	return r;
}

#endif
