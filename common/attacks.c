/*
 * Building the attack tables.  Runs once, before main(), from a constructor:
 * the tables are then immutable, so any number of threads may read them.
 */
#include "attacks.h"

#define ROOK_TABLE_SIZE 102400
#define BISHOP_TABLE_SIZE 5248

static struct attacks_tables tables;
static bitboard rook_table[ROOK_TABLE_SIZE];
static bitboard bishop_table[BISHOP_TABLE_SIZE];

const struct attacks_tables *const attacks = &tables;

static const int rook_dirs[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int bishop_dirs[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };

static bool on_board(int file, int rank)
{
	return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

/* Slow reference: rays from sq stopping at the first occupied square. */
static bitboard slide(int sq, bitboard occ, const int dirs[4][2])
{
	bitboard att = 0;

	for (int d = 0; d < 4; d++) {
		int f = square_file(sq) + dirs[d][0], r = square_rank(sq) + dirs[d][1];
		for (; on_board(f, r); f += dirs[d][0], r += dirs[d][1]) {
			att |= bb_square(square_make(f, r));
			if (occ & bb_square(square_make(f, r)))
				break;
		}
	}
	return att;
}

static bitboard steps(int sq, const int (*d)[2], int n)
{
	bitboard att = 0;

	for (int i = 0; i < n; i++) {
		int f = square_file(sq) + d[i][0], r = square_rank(sq) + d[i][1];
		if (on_board(f, r))
			att |= bb_square(square_make(f, r));
	}
	return att;
}

#ifndef ATTACKS_USE_PEXT
/* xorshift64*: a fixed seed keeps the magics identical on every run. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}
#endif

/*
 * Fills one slider's table.  Without PEXT, searches for a magic factor that
 * maps every relevant occupancy to a slot without destructive collision.
 */
static void init_slider(struct attacks_slider *s, int sq, bitboard *table,
    const int dirs[4][2], uint64_t *seed)
{
	bitboard edges = ((BB_RANK_1 | BB_RANK_8) & ~bb_rank_of(sq)) |
	    ((BB_FILE_A | BB_FILE_H) & ~bb_file_of(sq));
	static bitboard occs[4096], atts[4096];
	int n = 0;

	s->table = table;
	s->mask = slide(sq, 0, dirs) & ~edges;
	s->shift = 64 - (unsigned)bb_count(s->mask);

	/* Carry-rippler: enumerate every subset of the mask. */
	bitboard sub = 0;
	do {
		occs[n] = sub;
		atts[n] = slide(sq, sub, dirs);
		n++;
		sub = (sub - s->mask) & s->mask;
	} while (sub);

#ifdef ATTACKS_USE_PEXT
	s->magic = 0;
	for (int i = 0; i < n; i++)
		table[attacks_index(s, occs[i])] = atts[i];
#else
	static int epoch[4096];
	static int cur;
	for (;;) {
		do
			s->magic = rng_next(seed) & rng_next(seed) & rng_next(seed);
		while (bb_count((s->mask * s->magic) >> 56) < 6);
		cur++;
		int i;
		for (i = 0; i < n; i++) {
			unsigned idx = attacks_index(s, occs[i]);
			if (epoch[idx] < cur) {
				epoch[idx] = cur;
				table[idx] = atts[i];
			} else if (table[idx] != atts[i])
				break;
		}
		if (i == n)
			break;
	}
#endif
	(void)seed;
}

__attribute__((constructor)) static void attacks_init(void)
{
	static const int knight_d[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 },
	    { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
	static const int king_d[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 },
	    { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
	static const int wpawn_d[2][2] = { { -1, 1 }, { 1, 1 } };
	static const int bpawn_d[2][2] = { { -1, -1 }, { 1, -1 } };
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	bitboard *rt = rook_table, *bt = bishop_table;

	for (int sq = 0; sq < 64; sq++) {
		tables.knight[sq] = steps(sq, knight_d, 8);
		tables.king[sq] = steps(sq, king_d, 8);
		tables.pawn[WHITE][sq] = steps(sq, wpawn_d, 2);
		tables.pawn[BLACK][sq] = steps(sq, bpawn_d, 2);
		init_slider(&tables.rook[sq], sq, rt, rook_dirs, &seed);
		rt += 1u << (64 - tables.rook[sq].shift);
		init_slider(&tables.bishop[sq], sq, bt, bishop_dirs, &seed);
		bt += 1u << (64 - tables.bishop[sq].shift);
	}

	for (int a = 0; a < 64; a++) {
		for (int b = 0; b < 64; b++) {
			bitboard ab = bb_square(a) | bb_square(b);
			if (a == b)
				continue;
			if (attacks_rook(a, 0) & bb_square(b)) {
				tables.line[a][b] = (attacks_rook(a, 0) & attacks_rook(b, 0)) | ab;
				tables.between[a][b] = attacks_rook(a, ab) & attacks_rook(b, ab);
			} else if (attacks_bishop(a, 0) & bb_square(b)) {
				tables.line[a][b] = (attacks_bishop(a, 0) & attacks_bishop(b, 0)) | ab;
				tables.between[a][b] = attacks_bishop(a, ab) & attacks_bishop(b, ab);
			}
		}
	}
}
