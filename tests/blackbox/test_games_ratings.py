"""Rated games, black box: only registered players play them, ratings move
the right way after each result (Glicko-2 per category, provisional "P"
while the rating deviation is high), and the new ratings show where FICS
shows them (creation lines, the rating lines after a game, finger)."""
import re

from games_harness import FAST, GT, GamesTestCase, main

RATING_LINE = r"Your blitz rating: (----|\d+P?) -> (\d+)(P?)"


class RatingsTest(GamesTestCase):

    def users_server(self, *names):
        srv = self.new_server(config=dict(FAST), tls=False)
        for n in names:
            srv.useradd(n, n + "pw1")
        srv.start()
        return srv

    def rated_game(self, white, black, loser):
        """A rated 3 0 (blitz) game that ends by loser's resignation after
        two moves.  Returns the creation line and each player's
        (before, after, provisional) rating."""
        n, got = self.start_match(white, black, "3 0 rated")
        self.play_moves(white, black, ["e4", "e5"])
        loser.send_line("resign")
        out = {}
        for c in (white, black):
            end = self.end_line(c)
            self.assertEqual(end[3], "%s resigns" % loser.name)
            m = self.expect_line(c, RATING_LINE)
            line = m.group(1).decode()
            mm = re.fullmatch(RATING_LINE, line)
            out[c.name] = (mm.group(1), int(mm.group(2)), mm.group(3) == "P")
        return got["white"][0], out

    def test_guests_cannot_play_rated(self):
        srv = self.users_server("alice")
        a = self.user_player(srv, "alice", "alicepw1")
        g = self.guest_player(srv)
        # Asked for rated, a guest's game is unrated, as lasker makes it (matchproc.c, seekproc.c).
        self.assertIn(b"unrated blitz 3 0.", self.cmd(g, "match alice 3 0 rated"))
        self.cmd(g, "withdraw")
        self.assertIn(b"Your seek has been posted", self.cmd(g, "seek 3 0 rated"))
        self.cmd(g, "unseek")
        self.assertIn(b"unrated blitz 3 0.", self.cmd(a, "match %s 3 0 rated" % g.name))
        self.cmd(a, "withdraw")
        out = self.cmd(a, "seek 3 0 rated")
        idx = int(re.search(rb"posted with index (\d+)", out).group(1))
        self.assertIn(b"ERROR: Unregistred users cannot play rated games.", self.cmd(g, "play %d" % idx))
        # An unrated game between them is fine and shows (++++) for the guest.
        self.cmd(a, "unseek")
        n, got = self.start_match(a, g, "3 0 unrated")
        self.assertEqual(got["white"][0], "Creating: alice (----) %s (++++) unrated blitz 3 0" % g.name)

    def test_ratings_move_the_right_way(self):
        srv = self.users_server("alice", "bob")
        a = self.user_player(srv, "alice", "alicepw1")
        b = self.user_player(srv, "bob", "bobpw1")
        create, r = self.rated_game(a, b, loser=b)
        self.assertEqual(create, "Creating: alice (----) bob (----) rated blitz 3 0")
        self.assertEqual(r["alice"][0], "----")
        self.assertEqual(r["bob"][0], "----")
        a1, b1 = r["alice"][1], r["bob"][1]
        self.assertGreater(a1, 1500)
        self.assertLess(b1, 1500)
        self.assertTrue(r["alice"][2] and r["bob"][2], "provisional after one game: %r" % r)
        self.assertEqual(a1 + b1, 3000)     # symmetric from the same start
        # Second game: the creation line shows the new ratings; alice wins again.
        create, r = self.rated_game(a, b, loser=b)
        self.assertEqual(create, "Creating: alice (%dP) bob (%dP) rated blitz 3 0" % (a1, b1))
        self.assertEqual(r["alice"][0], "%dP" % a1)
        self.assertEqual(r["bob"][0], "%dP" % b1)
        a2, b2 = r["alice"][1], r["bob"][1]
        self.assertGreater(a2, a1)
        self.assertLess(b2, b1)
        # Third game, colours reversed: alice (black now) loses.
        create, r = self.rated_game(b, a, loser=a)
        self.assertEqual(create, "Creating: bob (%dP) alice (%dP) rated blitz 3 0" % (b2, a2))
        a3, b3 = r["alice"][1], r["bob"][1]
        self.assertLess(a3, a2)
        self.assertGreater(b3, b2)
        # Unrated games change nothing; other categories are separate.
        n, got = self.start_match(a, b, "3 0 unrated")
        self.assertEqual(got["white"][0], "Creating: alice (%dP) bob (%dP) unrated blitz 3 0" % (a3, b3))
        b.send_line("abort")
        self.end_line(a)
        n, got = self.start_match(a, b, "1 0 rated")
        self.assertEqual(got["white"][0], "Creating: alice (----) bob (----) rated lightning 1 0")
        self.play_moves(a, b, ["d4", "d5"])
        a.send_line("resign")
        self.end_line(a)
        m = self.expect_line(a, r"Your lightning rating: ---- -> (\d+)P")
        self.assertLess(int(m.group(2)), 1500)
        # Ratings live in the database: they survive a restart.
        a.close()
        b.close()
        srv.stop()
        srv.start()
        a = self.user_player(srv, "alice", "alicepw1")
        b = self.user_player(srv, "bob", "bobpw1")
        n, got = self.start_match(b, a, "3 0 rated")
        self.assertEqual(got["white"][0], "Creating: bob (%dP) alice (%dP) rated blitz 3 0" % (b3, a3))
        # the history shows the rated games with the ratings they started with
        out = self.cmd(b, "history alice").decode()
        self.assertIn("History for alice:", out)
        self.assertRegex(out, r"\+ +0 W +0 bob +\[ br  3   0\] --- Res")   # history: numbers
        self.assertRegex(out, r"- +%d B +%d bob +\[ br  3   0\] --- Res" % (a2, b2))

    def test_finger_shows_ratings(self):
        """FICS's finger lists a player's ratings per category (rating, RD,
        wins, losses, draws, total); after a rated blitz game alice's must
        be there, with the same number the rating line gave."""
        srv = self.users_server("alice", "bob")
        a = self.user_player(srv, "alice", "alicepw1")
        b = self.user_player(srv, "bob", "bobpw1")
        _, r = self.rated_game(a, b, loser=b)
        rating = r["alice"][1]
        out = self.cmd(b, "finger alice").decode()
        self.assertIn("Finger of alice:", out)
        self.assertRegex(out, r"(?im)^\s*blitz\s+%d" % rating,
                         "finger alice does not show the blitz rating %d:\n%s" % (rating, out))


if __name__ == "__main__":
    main()
