#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "address.h"
#include "number.h"

/* Clears every bit after the first bits of an address of len bytes. */
static void keep_prefix(unsigned char *bytes, size_t len, int bits)
{
	for (size_t i = 0; i < len; i++) {
		int left = bits - (int)i * 8;
		if (left <= 0)
			bytes[i] = 0;
		else if (left < 8)
			bytes[i] &= (unsigned char)(0xff << (8 - left));
	}
}

static int write_block(int family, void *bytes, int bits, char *out, size_t len)
{
	char text[INET6_ADDRSTRLEN];

	keep_prefix(bytes, family == AF_INET ? 4 : 16, bits);
	if (!inet_ntop(family, bytes, text, sizeof text))
		return -1;
	if (family == AF_INET && bits >= 32)
		snprintf(out, len, "%s", text);
	else
		snprintf(out, len, "%s/%d", text, bits);
	return 0;
}

int address_block(const char *text, int v4_bits, int v6_bits, char *out, size_t len)
{
	struct in6_addr a6;
	struct in_addr a4;

	if (inet_pton(AF_INET6, text, &a6) == 1) {
		if (!IN6_IS_ADDR_V4MAPPED(&a6))
			return write_block(AF_INET6, &a6, v6_bits, out, len);
		memcpy(&a4, a6.s6_addr + 12, sizeof a4);
		return write_block(AF_INET, &a4, v4_bits, out, len);
	}
	if (inet_pton(AF_INET, text, &a4) == 1)
		return write_block(AF_INET, &a4, v4_bits, out, len);
	snprintf(out, len, "%s", text);
	return -1;
}

int address_range_parse(const char *text, char *out, size_t len)
{
	char addr[INET6_ADDRSTRLEN + 8];
	const char *slash = strchr(text, '/');
	size_t n = slash ? (size_t)(slash - text) : strlen(text);
	struct in6_addr a6;
	long bits;

	if (n >= sizeof addr)
		return -1;
	memcpy(addr, text, n);
	addr[n] = '\0';
	bool v6 = inet_pton(AF_INET6, addr, &a6) == 1 && !IN6_IS_ADDR_V4MAPPED(&a6);
	int max = v6 ? 128 : 32;
	if (!slash)
		bits = max;
	else if (number_parse(slash + 1, 0, max, &bits) != NUMBER_OK)
		return -1;
	return address_block(addr, (int)bits, (int)bits, out, len);
}

bool address_in_range(const char *address, const char *range)
{
	char canonical[ADDRESS_BLOCK_MAX], block[ADDRESS_BLOCK_MAX];
	const char *slash;
	long bits = 128;

	if (address_range_parse(range, canonical, sizeof canonical) < 0)
		return false;
	if ((slash = strchr(canonical, '/')) && number_parse(slash + 1, 0, 128, &bits) != NUMBER_OK)
		return false;
	int v4_bits = bits > 32 ? 32 : (int)bits;
	return address_block(address, v4_bits, (int)bits, block, sizeof block) == 0 &&
	    !strcmp(block, canonical);
}
