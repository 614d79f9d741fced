/* Client addresses grouped into the blocks that one party usually holds. */
#ifndef CHESSD_ADDRESS_H
#define CHESSD_ADDRESS_H

#include <stdbool.h>
#include <stddef.h>

/* Room for any block address_block() writes. */
#define ADDRESS_BLOCK_MAX 64

/*
 * Writes the block an address belongs to: an IPv4 address cut to v4_bits
 * ("192.0.2.0/24", or the bare address for 32), an IPv6 one to v6_bits
 * ("2001:db8:1:2::/64").  An IPv4-mapped IPv6 address counts as IPv4.
 * Returns 0, or -1 if text is no address (out is then a copy of it).
 */
int address_block(const char *text, int v4_bits, int v6_bits, char *out, size_t len);

/*
 * A range as an admin or the configuration writes it ("192.0.2.0/24",
 * "2001:db8::/32", or one address) in its canonical form (as address_block()
 * writes it, host bits cleared).  -1 if it is no range.
 */
int address_range_parse(const char *text, char *out, size_t len);
/* Whether a client's address lies in a range (IPv4-mapped IPv6 counts as IPv4). */
bool address_in_range(const char *address, const char *range);

#endif
