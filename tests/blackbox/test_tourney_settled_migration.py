#!/usr/bin/env python3
"""A database from before tournament boards ended their stored games: a
board settled while its game was adjourned left the game adjourned, and
either player could resume it.  The migration ends each such game as the
server now does: with the board's result, as an adjudication rating nobody,
unlinked from a forfeited board; a double forfeit drops the game and its
moves.  The database is made by playing to adjourned boards, then setting
their results and the schema version as the older server left them."""
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import chessd_harness as H  # noqa: E402
import test_tourney_stored_settled as settled  # noqa: E402
from test_tourney import TourneyTestCase  # noqa: E402

VERSION_BEFORE = 11


class SettledBoardsMigration(TourneyTestCase):

    server = settled.StoredBoardSettled.server
    adjourned_board = settled.StoredBoardSettled.adjourned_board
    check_ended = settled.StoredBoardSettled.check_ended

    def older_database(self, srv, tid, results):
        """Boards settled by the older server: results set, games left adjourned."""
        srv.stop()
        con = sqlite3.connect(srv.db_path)
        for board, result in results.items():
            con.execute("UPDATE tourney_pairings SET result = ? WHERE tourney_id = ? AND "
                        "round = 1 AND board = ?", (result, tid, board))
        # What the migrations after it added goes, so that they run again.
        con.execute("DROP INDEX ratings_by_rank")
        con.execute("PRAGMA user_version = %d" % VERSION_BEFORE)
        con.commit()
        con.close()
        srv.start()
        self.assertGreater(H.db_rows(srv.db_path, "PRAGMA user_version")[0][0], VERSION_BEFORE)
        return self.login(srv, "root")

    def game_row(self, srv, b):
        return H.db_rows(srv.db_path, "SELECT status, result, reason, termination FROM games "
                                      "WHERE id = ?", b["id"])

    def link(self, srv, tid, board):
        return H.db_rows(srv.db_path, "SELECT game_id FROM tourney_pairings WHERE "
                                      "tourney_id = ? AND round = 1 AND board = ?", tid, board)

    def test_forfeit_and_draw_end_their_games(self):
        names = ["mfa", "mfb", "mfc", "mfd"]
        srv = self.server(names)
        _, tid, b1, b2 = self.adjourned_board(srv, names, both=True)
        root = self.older_database(srv, tid, {1: "+-", 2: "1/2-1/2"})
        self.assertEqual(self.game_row(srv, b2),
                         [("finished", "1/2-1/2", "Game drawn by adjudication", "adjudication")])
        self.assertEqual(self.link(srv, tid, 2), [(b2["id"],)])
        self.check_ended(srv, root, tid, b1, "+-", "1-0",
                         "%s wins by adjudication" % b1["white"], linked=False)
        srv.stop()

    def test_double_forfeit_drops_its_game(self):
        names = ["mda", "mdb", "mdc", "mdd"]
        srv = self.server(names)
        _, tid, b1, b2 = self.adjourned_board(srv, names, both=True)
        root = self.older_database(srv, tid, {1: "--", 2: "0-1"})
        self.assertEqual(self.game_row(srv, b1), [])
        self.assertEqual(H.db_rows(srv.db_path, "SELECT count(*) FROM moves WHERE game_id = ?",
                                   b1["id"]), [(0,)])
        self.assertEqual(self.link(srv, tid, 1), [(None,)])
        self.assertEqual(self.game_row(srv, b2),
                         [("finished", "0-1", "%s wins by adjudication" % b2["black"],
                           "adjudication")])
        self.assertEqual(self.link(srv, tid, 2), [(b2["id"],)])
        for name in (b1["white"], b1["black"], b2["white"], b2["black"]):
            c = self.login(srv, name)
            self.assertIn(b"You have no adjourned games.", self.cmd(c, "resume"))
            c.close()
        root.close()
        srv.stop()


if __name__ == "__main__":
    H.main()
