/*
 * Building the attack tables.  Runs once, before main(), from a constructor:
 * the tables are then immutable, so any number of threads may read them.
 */
#include <stdlib.h>

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
/*
 * Magic factors for the portable build, found once by a search over random
 * sparse numbers (any factor that maps every relevant occupancy without a
 * harmful collision will do).  attacks_init() checks them as it fills the
 * tables, so a wrong entry cannot go unnoticed.
 */
static const bitboard rook_magics[64] = {
	0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL,
	0x0880100008000480ULL, 0x4200100420080200ULL, 0x8100020100080400ULL,
	0x0200040110886200ULL, 0x0200008040220411ULL, 0x0404800084400220ULL,
	0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
	0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL,
	0x0442000102105084ULL, 0x9080010020804100ULL, 0x0040404000201009ULL,
	0x0000808010002009ULL, 0x2200090021d00100ULL, 0x0008008008040080ULL,
	0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
	0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL,
	0x1000100080080080ULL, 0x0050500500080100ULL, 0x0000020080040080ULL,
	0x0c10010400420810ULL, 0x1040008200005104ULL, 0x01808240088004a0ULL,
	0x0882804004802000ULL, 0x0880402001001100ULL, 0x2000210409001000ULL,
	0x2000480131001500ULL, 0x0000800400800200ULL, 0x000002380c001003ULL,
	0x4600084882000431ULL, 0x0080002000504000ULL, 0x0300500020004002ULL,
	0x0040408200220011ULL, 0x0010040008004040ULL, 0x0000080004008080ULL,
	0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
	0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL,
	0x0801100280080480ULL, 0x0242009008200600ULL, 0x1002000489500200ULL,
	0x0040800200010080ULL, 0x0091800041000080ULL, 0x0000209300488001ULL,
	0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
	0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL,
	0x4000002840840112ULL,
};
static const bitboard bishop_magics[64] = {
	0x20c0090901061081ULL, 0x0024040094030104ULL, 0x8210810200290200ULL,
	0x0011040484620000ULL, 0x0081104002221000ULL, 0x0009012011001350ULL,
	0x0081010802400380ULL, 0x0000420210010408ULL, 0x0008105002280050ULL,
	0x0001028484040044ULL, 0x2a00880810408804ULL, 0x7020022282000100ULL,
	0x0084040420100a50ULL, 0x000401010840e000ULL, 0x2020020210420888ULL,
	0x0008084202012010ULL, 0x2010400810018800ULL, 0x0445122008020840ULL,
	0x0804100808002008ULL, 0x0008002104110100ULL, 0x0061005820080800ULL,
	0x2001000200820100ULL, 0x480c210084010800ULL, 0x3004442500480420ULL,
	0x1010102240048100ULL, 0x00182009084220a3ULL, 0x8803090a10004205ULL,
	0x0208080040202020ULL, 0x000c044084010040ULL, 0x00a1010002004106ULL,
	0x6008210020640202ULL, 0x1600902112860801ULL, 0x00042008c1220200ULL,
	0x010c042002440140ULL, 0x5022080200040820ULL, 0x0402004042940100ULL,
	0x0860108400008020ULL, 0x000c080022021000ULL, 0x0264080652822100ULL,
	0x4005031221010401ULL, 0x0004502410008400ULL, 0x000500b010a20400ULL,
	0x0415094050080800ULL, 0x080000201800a104ULL, 0x4022a80304000110ULL,
	0x4012140802028020ULL, 0x40200104010100a0ULL, 0x12810806008b0c41ULL,
	0x0020441008080000ULL, 0x2002120084045420ULL, 0x0704020062080002ULL,
	0x0000001084040001ULL, 0x0322200891240200ULL, 0xf040200210024800ULL,
	0x0140824832008042ULL, 0x000210020a004602ULL, 0x0083042805141020ULL,
	0x002c12009a011000ULL, 0x0041a00044140400ULL, 0x00004004020a0202ULL,
	0x0000140010020210ULL, 0x2864160811012200ULL, 0x2060080841082a17ULL,
	0xa010041108003100ULL,
};
#endif

/* Fills one slider's table, indexed by PEXT or by the square's magic. */
static void init_slider(struct attacks_slider *s, int sq, bitboard *table,
    const int dirs[4][2], bitboard magic)
{
	bitboard edges = ((BB_RANK_1 | BB_RANK_8) & ~bb_rank_of(sq)) |
	    ((BB_FILE_A | BB_FILE_H) & ~bb_file_of(sq));
	static int filled_by[4096];

	s->table = table;
	s->mask = slide(sq, 0, dirs) & ~edges;
	s->shift = 64 - (unsigned)bb_count(s->mask);
	s->magic = magic;

	/* Carry-rippler: enumerate every subset of the mask. */
	bitboard sub = 0;
	int stamp = sq + 1 + (dirs == bishop_dirs ? 64 : 0);
	do {
		bitboard att = slide(sq, sub, dirs);
		unsigned idx = attacks_index(s, sub);
		/* A collision is harmless only if both occupancies attack alike. */
		if (filled_by[idx] == stamp && table[idx] != att)
			abort();
		filled_by[idx] = stamp;
		table[idx] = att;
		sub = (sub - s->mask) & s->mask;
	} while (sub);
}

__attribute__((constructor)) static void attacks_init(void)
{
	static const int knight_d[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 },
	    { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
	static const int king_d[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 },
	    { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
	static const int wpawn_d[2][2] = { { -1, 1 }, { 1, 1 } };
	static const int bpawn_d[2][2] = { { -1, -1 }, { 1, -1 } };
	bitboard *rt = rook_table, *bt = bishop_table;

	for (int sq = 0; sq < 64; sq++) {
		tables.knight[sq] = steps(sq, knight_d, 8);
		tables.king[sq] = steps(sq, king_d, 8);
		tables.pawn[WHITE][sq] = steps(sq, wpawn_d, 2);
		tables.pawn[BLACK][sq] = steps(sq, bpawn_d, 2);
#ifdef ATTACKS_USE_PEXT
		init_slider(&tables.rook[sq], sq, rt, rook_dirs, 0);
		rt += 1u << (64 - tables.rook[sq].shift);
		init_slider(&tables.bishop[sq], sq, bt, bishop_dirs, 0);
#else
		init_slider(&tables.rook[sq], sq, rt, rook_dirs, rook_magics[sq]);
		rt += 1u << (64 - tables.rook[sq].shift);
		init_slider(&tables.bishop[sq], sq, bt, bishop_dirs, bishop_magics[sq]);
#endif
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
