#include "zobrist.h"

static struct zobrist_keys keys;
const struct zobrist_keys *const zobrist = &keys;

/* splitmix64: good, fixed keys so hashes are stable across runs. */
static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

__attribute__((constructor)) static void zobrist_init(void)
{
	uint64_t seed = 0x5eed0fc4e55ULL;

	for (int p = 0; p < PIECE_NB; p++)
		for (int sq = 0; sq < 64; sq++)
			keys.piece[p][sq] = (p & 7) ? splitmix(&seed) : 0;
	/* Each right gets a key; a set's key is the XOR of its members'. */
	uint64_t right[4];
	for (int i = 0; i < 4; i++)
		right[i] = splitmix(&seed);
	for (int set = 0; set < 16; set++) {
		keys.castling[set] = 0;
		for (int i = 0; i < 4; i++)
			if (set & (1 << i))
				keys.castling[set] ^= right[i];
	}
	for (int f = 0; f < 8; f++)
		keys.en_passant[f] = splitmix(&seed);
	keys.side = splitmix(&seed);
}
