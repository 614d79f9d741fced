/* A game's status and termination: enums in memory, the same texts in the database. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "db.h"

/* The texts databases written before the enums hold; they must not change. */
static void names_are_the_stored_texts(void **state)
{
	(void)state;
	assert_string_equal(db_game_status_name(GAME_ACTIVE), "active");
	assert_string_equal(db_game_status_name(GAME_ADJOURNED), "adjourned");
	assert_string_equal(db_game_status_name(GAME_FINISHED), "finished");
	assert_string_equal(db_game_status_name(GAME_ABORTED), "aborted");
	assert_null(db_game_termination_name(TERMINATION_NONE));
	assert_string_equal(db_game_termination_name(TERMINATION_NORMAL), "normal");
	assert_string_equal(db_game_termination_name(TERMINATION_TIME_FORFEIT), "time forfeit");
	assert_string_equal(db_game_termination_name(TERMINATION_ABANDONED), "abandoned");
	assert_string_equal(db_game_termination_name(TERMINATION_ADJUDICATION), "adjudication");
	assert_string_equal(db_game_termination_name(TERMINATION_UNTERMINATED), "unterminated");
}

struct tmp_db {
	char dir[64], path[96];
	struct db *db;
};

static struct tmp_db *tmp_db_open(void)
{
	struct tmp_db *t = calloc(1, sizeof *t);
	char err[256];

	assert_non_null(t);
	snprintf(t->dir, sizeof t->dir, "/tmp/chessd-status-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->path, sizeof t->path, "%s/chessd.db", t->dir);
	t->db = db_open(t->path, err, sizeof err);
	assert_non_null(t->db);
	return t;
}

static void tmp_db_close(struct tmp_db *t)
{
	char wal[128];

	db_close(t->db);
	unlink(t->path);
	snprintf(wal, sizeof wal, "%s-wal", t->path);
	unlink(wal);
	snprintf(wal, sizeof wal, "%s-shm", t->path);
	unlink(wal);
	rmdir(t->dir);
	free(t);
}

/* The column's raw text, read past db.c. */
static void column_text(const char *path, int64_t id, const char *column, char *out, size_t len)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	char sql[128];

	snprintf(sql, sizeof sql, "SELECT %s FROM games WHERE id = ?1", column);
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	const unsigned char *text = sqlite3_column_text(st, 0);
	snprintf(out, len, "%s", text ? (const char *)text : "(null)");
	sqlite3_finalize(st);
	sqlite3_close(h);
}

static int counted;

static void count_one(void *arg, const struct db_game *g)
{
	(void)arg;
	assert_int_equal(g->status, GAME_ADJOURNED);
	counted++;
}

/* Each status and termination goes in as its text and comes back as the same enum. */
static void rows_round_trip(void **state)
{
	struct tmp_db *t = tmp_db_open();
	struct db_game row = { .status = GAME_ACTIVE, .started = 1 }, back;
	char text[64];

	(void)state;
	snprintf(row.white, sizeof row.white, "alice");
	snprintf(row.black, sizeof row.black, "bob");
	snprintf(row.category, sizeof row.category, "blitz");
	snprintf(row.time_control, sizeof row.time_control, "5+0");
	snprintf(row.result, sizeof row.result, "*");
	int64_t id = db_game_insert(t->db, &row);
	assert_true(id > 0);
	assert_int_equal(db_commit(t->db), 0);
	assert_int_equal(db_game_load(t->db, id, &back), 1);
	assert_int_equal(back.status, GAME_ACTIVE);
	assert_int_equal(back.termination, TERMINATION_NONE);
	column_text(t->path, id, "termination", text, sizeof text);
	assert_string_equal(text, "(null)");

	for (int s = 0; s < GAME_STATUS_COUNT; s++)
		for (int e = 0; e < TERMINATION_COUNT; e++) {
			back.status = (enum game_status)s;
			back.termination = (enum game_termination)e;
			assert_int_equal(db_game_update(t->db, &back), 0);
			assert_int_equal(db_commit(t->db), 0);
			column_text(t->path, id, "status", text, sizeof text);
			assert_string_equal(text, db_game_status_name((enum game_status)s));
			struct db_game again;
			assert_int_equal(db_game_load(t->db, id, &again), 1);
			assert_int_equal(again.status, s);
			assert_int_equal(again.termination, e);
		}

	back.status = GAME_ADJOURNED;
	assert_int_equal(db_game_update(t->db, &back), 0);
	assert_int_equal(db_commit(t->db), 0);
	counted = 0;
	assert_int_equal(db_games_with_status(t->db, GAME_ADJOURNED, count_one, NULL), 0);
	assert_int_equal(counted, 1);
	/* Played without an account, the game is nobody's to find by the name. */
	counted = 0;
	assert_int_equal(db_games_of(t->db, "Alice", 0, GAME_ADJOURNED, 10, count_one, NULL), 0);
	assert_int_equal(counted, 0);
	struct db_user alice;
	assert_int_equal(db_user_add(t->db, "alice", "x", false), 0);
	assert_int_equal(db_user_find(t->db, "alice", &alice), 1);
	row.white_id = alice.id;
	row.status = GAME_ADJOURNED;
	assert_true(db_game_insert(t->db, &row) > id);
	assert_int_equal(db_commit(t->db), 0);
	assert_int_equal(db_games_of(t->db, "Alice", alice.id, GAME_ADJOURNED, 10, count_one, NULL),
	    0);
	assert_int_equal(counted, 1);
	assert_int_equal(db_games_with_status(t->db, GAME_FINISHED, count_one, NULL), 0);
	assert_int_equal(counted, 1);
	tmp_db_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_are_the_stored_texts),
		cmocka_unit_test(rows_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
