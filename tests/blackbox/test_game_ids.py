"""Game ids are never reused: a game aborted before both sides moved leaves
no row, and the next game still gets a new id; a database from before keeps
every id and continues past the highest."""
import os
import sqlite3

from chessd_harness import ROOT
from chessd_harness import db_rows as rows
from games_harness import GamesTestCase, main


class GameIds(GamesTestCase):

    def test_an_aborted_games_id_is_not_given_again(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        self.start_match(a, b)
        [(first,)] = rows(srv.db_path, "SELECT max(id) FROM games")
        a.send_line("abort")
        self.end_line(a)
        self.end_line(b)
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM games"), [(0,)])
        self.start_match(a, b)
        [(second,)] = rows(srv.db_path, "SELECT max(id) FROM games")
        self.assertGreater(second, first)

    def test_an_older_database_keeps_its_ids_and_goes_on_past_them(self):
        srv = self.new_server(tls=False)
        os.makedirs(srv.data_dir, exist_ok=True)
        con = sqlite3.connect(srv.db_path)
        for i in range(1, 11):
            name = sorted(f for f in os.listdir(os.path.join(ROOT, "sql"))
                          if f.startswith("%04d-" % i))[0]
            with open(os.path.join(ROOT, "sql", name)) as f:
                con.executescript(f.read())
        con.execute("PRAGMA user_version = 10")
        for gid in (3, 7):
            con.execute("INSERT INTO games (id, white, black, white_rating, black_rating, rated,"
                        " category, time_control, started, status, clock_ply, tourney_round)"
                        " VALUES (?, 'ann', 'ben', '++++', '++++', 0, 'blitz', '5 0', 0,"
                        " 'adjourned', 2, 4)", (gid,))
            con.execute("INSERT INTO moves VALUES (?, 1, 'e2e4', 'e4', 0, 300000)", (gid,))
        con.commit()
        con.close()
        srv.start()
        srv.stop()
        self.assertGreaterEqual(rows(srv.db_path, "PRAGMA user_version")[0][0], 11)
        self.assertEqual(rows(srv.db_path, "SELECT id, clock_ply, tourney_round, status "
                                           "FROM games ORDER BY id"),
                         [(3, 2, 4, "adjourned"), (7, 2, 4, "adjourned")])
        self.assertEqual(rows(srv.db_path, "SELECT game_id FROM moves ORDER BY game_id"),
                         [(3,), (7,)])
        self.assertEqual(rows(srv.db_path, "SELECT seq FROM sqlite_sequence WHERE name = 'games'"),
                         [(7,)])
        indexes = {n for (n,) in rows(srv.db_path, "SELECT name FROM sqlite_master WHERE "
                                                   "type = 'index' AND tbl_name = 'games'")}
        self.assertTrue({"games_status", "games_white", "games_black", "games_ended"} <= indexes)


if __name__ == "__main__":
    main()
