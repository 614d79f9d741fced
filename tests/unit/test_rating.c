/*
 * Ratings and accounts against a real database file: a game's two rating
 * updates stand or fall together, and deleted account ids are never
 * handed out again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "db.h"
#include "rating.h"

struct fixture {
	char dir[64];
	char path[128];
	struct db *db;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	char err[256];

	snprintf(f->dir, sizeof f->dir, "/tmp/chess-rating-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof f->path, "%s/chess.db", f->dir);
	if (!(f->db = db_open(f->path, err, sizeof err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char path[160];

	db_close(f->db);
	const char *suffix[] = { "", "-wal", "-shm" };
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s%s", f->path, suffix[i]);
		unlink(path);
	}
	rmdir(f->dir);
	free(f);
	return 0;
}

static int64_t add_user(struct db *db, const char *name)
{
	struct db_user u;

	assert_int_equal(db_user_add(db, name, "scrypt$15$8$1$x$y", false), 0);
	assert_int_equal(db_user_find(db, name, &u), 1);
	return u.id;
}

/* One side's account is gone: neither rating changes (once, the winner's did). */
static void test_rating_update_is_one_change(void **state)
{
	struct fixture *f = *state;
	struct rating wb, wa, bb, ba, now;
	int64_t alice = add_user(f->db, "alice");

	assert_int_equal(rating_apply(f->db, CLOCK_CATEGORY_BLITZ, alice, alice + 100, 1.0, &wb, &wa, &bb,
	    &ba), -1);
	assert_int_equal(db_commit(f->db), 0);
	assert_int_equal(rating_load(f->db, alice, CLOCK_CATEGORY_BLITZ, &now), 0);
	assert_int_equal(rating_games(&now), 0);
	/* And a good update still lands for both. */
	int64_t bob = add_user(f->db, "bob");
	assert_int_equal(rating_apply(f->db, CLOCK_CATEGORY_BLITZ, alice, bob, 1.0, &wb, &wa, &bb, &ba), 0);
	assert_int_equal(db_commit(f->db), 0);
	assert_int_equal(rating_load(f->db, alice, CLOCK_CATEGORY_BLITZ, &now), 0);
	assert_int_equal(now.wins, 1);
	assert_int_equal(rating_load(f->db, bob, CLOCK_CATEGORY_BLITZ, &now), 0);
	assert_int_equal(now.losses, 1);
}

static void test_deleted_ids_not_reused(void **state)
{
	struct fixture *f = *state;
	int64_t removed = 0;

	add_user(f->db, "alice");
	int64_t bob = add_user(f->db, "bob");
	assert_int_equal(db_user_remove(f->db, "bob", false, &removed), 1);
	assert_int_equal(removed, bob);
	assert_int_equal(db_user_remove(f->db, "bob", false, &removed), 0);
	assert_int_equal(db_commit(f->db), 0);
	int64_t carol = add_user(f->db, "carol");
	assert_true(carol > bob);
	int64_t last = 0;
	assert_int_equal(db_deleted_last(f->db, &last), 0);
	assert_int_equal(last, 1);
}

/* assess: between equals a draw moves nobody and a win is the other's loss;
 * against a stronger player a win gains more than a loss costs. */
static void test_assess(void **state)
{
	struct rating a = { .value = glicko2_new() }, b = a;
	struct rating_assessment as;

	(void)state;
	rating_assess(&a, &b, &as);
	assert_int_equal(as.first[1], 0);
	assert_int_equal(as.second[1], 0);
	assert_true(as.first[0] > 0);
	assert_int_equal(as.first[0], -as.first[2]);
	assert_int_equal(as.first[0], -as.second[2]);
	assert_int_equal(as.first[0], as.second[0]);
	assert_true(as.first_rd < GLICKO2_DEFAULT_RD);
	b.value.rating = 1900;
	b.value.rd = 60;
	rating_assess(&a, &b, &as);
	assert_true(as.first[0] > -as.first[2]);
	assert_true(as.first[1] > 0);
	assert_true(as.second[1] < 0);
	assert_true(as.second[0] < -as.second[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rating_update_is_one_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deleted_ids_not_reused, setup, teardown),
		cmocka_unit_test(test_assess),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
