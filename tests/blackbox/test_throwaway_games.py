"""Throwaway games, black box: games aborted before both sides moved leave
no row in the database, and starting games is limited per player and per
address (games_per_minute, games_per_minute_per_address).
"""
import re
import sqlite3

from games_harness import GT, GamesTestCase, main


class ThrowawayTest(GamesTestCase):

    def rows(self, srv, where="1"):
        db = sqlite3.connect("file:%s?mode=ro" % srv.db_path, uri=True, timeout=GT)
        try:
            return db.execute("SELECT id, white, black, status FROM games WHERE " + where).fetchall()
        finally:
            db.close()

    def abort(self, c, others):
        c.send_line("abort")
        for x in [c] + list(others):
            self.assertIn("aborted", self.end_line(x)[3])

    def test_games_aborted_at_once_leave_no_rows(self):
        srv = self.game_server()
        pairs = [(self.guest_player(srv), self.guest_player(srv)) for _ in range(3)]
        for _ in range(4):
            for a, b in pairs:
                self.start_match(a, b)
                self.abort(a, [b])
        self.assertEqual(self.rows(srv), [])
        # Aborted after white's first move, by either side: still nothing kept.
        a, b = pairs[0]
        self.start_match(a, b)
        self.move(a, b, "e4")
        self.abort(b, [a])
        self.assertEqual(self.rows(srv), [])

    def test_a_game_with_moves_is_kept(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        self.start_match(a, b)
        self.play_moves(a, b, ["e4", "e5"])
        # After both have moved an abort needs agreement, and the game is kept.
        self.assertIn(b"Abort request sent.", self.cmd(a, "abort"))
        self.abort(b, [a])
        rows = self.rows(srv)
        self.assertEqual([(r[1], r[2], r[3]) for r in rows], [(a.name, b.name, "aborted")])
        db = sqlite3.connect("file:%s?mode=ro" % srv.db_path, uri=True, timeout=GT)
        try:
            plies = db.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?",
                               (rows[0][0],)).fetchone()[0]
        finally:
            db.close()
        self.assertEqual(plies, 2)
        # A finished game too, of course.
        self.start_match(a, b)
        self.cmd(a, "resign")
        self.assertEqual(len(self.rows(srv, "status = 'finished'")), 1)

    def test_games_per_minute_per_player(self):
        srv = self.game_server({"games_per_minute": 3})
        a, b, c = (self.guest_player(srv) for _ in range(3))
        for _ in range(3):
            self.start_match(a, b)
            self.abort(a, [b])
        self.cmd(a, "match %s 1 0 white" % b.name)
        b.expect(b"Challenge: ", GT)
        line = "%s has started 3 games in the last minute, the most allowed; try again shortly." \
            % a.name
        out = self.cmd(b, "accept")
        self.assertIn(line.encode() + b"\n\r", out)
        self.assertNotIn(b"Creating", out)
        self.expect_line(a, re.escape(line))
        # The limit is a's and b's: c is free to play, but not with either of them.
        d = self.guest_player(srv)
        self.start_match(c, d)
        self.abort(d, [c])
        self.cmd(c, "match %s 1 0" % a.name)
        a.expect(b"Challenge: ", GT)
        self.assertIn(line.encode(), self.cmd(a, "accept"))

    def test_games_per_minute_per_address(self):
        srv = self.game_server({"games_per_minute_per_address": 2})
        here = [self.connect(srv, source="127.0.0.2") for _ in range(4)]
        for c in here:
            c.login_guest(GT)
            self.setup_client(c)
        there = [self.connect(srv, source="127.0.0.3") for _ in range(2)]
        for c in there:
            c.login_guest(GT)
            self.setup_client(c)
        self.start_match(here[0], here[1])
        self.abort(here[0], [here[1]])
        self.start_match(here[2], here[3])
        self.abort(here[2], [here[3]])
        self.cmd(here[0], "match %s 1 0" % here[1].name)
        here[1].expect(b"Challenge: ", GT)
        out = self.cmd(here[1], "accept")
        self.assertRegex(out, (r"2 games have been started from (%s|%s)'s address in the last "
                               r"minute, the most allowed; try again shortly\.\n\r" % (
                                   here[0].name, here[1].name)).encode())
        self.assertNotIn(b"Creating", out)
        # Another address is not held back by this one.
        self.start_match(there[0], there[1])


if __name__ == "__main__":
    main()
