"""Attacking identity through a reused guest name: a guest "zed" plays,
adjourns and finishes games and leaves; the next guest to log in as zed
(or anyone asking about zed) must see none of them.  A name without an
account keeps no record past the session that played, as on FICS (lasker
drops a guest's history file at logout): `history` for it answers "There
is no player matching that name." (nobody online under it) or "Sorry, no
game information available." (a guest online under it, without games of
its own).  The registered opponent's record keeps the games."""
import re
import time

from games_harness import FAST, GT, main
from test_identity import IdentityCase
from web_harness import get

PW = "secret1"


class GuestHistory(IdentityCase):

    def tearDown(self):
        self.stop_servers_clean()

    def ask(self, c, line):
        """The reply to line alone, without notifications queued before it."""
        return self.cmd(c, line).split(b"fics% ")[-1]

    def leave(self, c, other):
        """c quits; returns once other's `who` no longer lists it."""
        c.send_line("quit")
        c.expect_closed(GT)
        deadline = time.monotonic() + GT
        while re.search(rb"\b%s\b" % c.name.encode(), self.ask(other, "who")):
            self.assertLess(time.monotonic(), deadline, "%s still online" % c.name)
            time.sleep(0.05)

    def guest_zed(self, srv):
        c = self.connect(srv)
        c.login_unregistered("zed", GT)
        return self.setup_client(c)

    def old_zed_plays(self, srv, a):
        """zed adjourns a game with alice and loses another, then leaves."""
        z = self.guest_zed(srv)
        self.start_match(a, z, "5 0 unrated")
        self.play_moves(a, z, ["d4", "d5"])
        self.assertIn(b"Adjourn request sent.", self.cmd(a, "adjourn"))
        z.send_line("adjourn")
        for c in (a, z):
            self.assertEqual(self.end_line(c)[3:], ("Game adjourned by mutual agreement", "*"))
        self.start_match(a, z, "3 0 unrated")
        self.play_moves(a, z, ["e4", "e5"])
        self.cmd(z, "resign")
        self.end_line(a)
        self.leave(z, a)

    def test_next_guest_under_the_name_inherits_nothing(self):
        srv = self.new_server(config=FAST, tls=False, http=True)
        srv.useradd("alice", PW)
        srv.start()
        a = self.user_player(srv, "alice", PW)
        self.old_zed_plays(srv, a)
        # Nobody is online as zed: the name is nobody's.
        self.assertEqual(self.ask(a, "history zed"), b"There is no player matching that name.\n\r")
        z = self.guest_zed(srv)
        self.assertEqual(self.ask(z, "history"), b"Sorry, no game information available.\n\r")
        self.assertEqual(self.ask(a, "history zed"), b"Sorry, no game information available.\n\r")
        for c in (a, z):
            self.assertEqual(self.ask(c, "stored zed"), b"zed has no adjourned games.\n\r")
            for line in ("smoves zed 0", "smoves zed -1", "oldmoves zed", "pgn zed 0",
                         "pgn zed", "examine zed 0"):
                self.assertEqual(self.ask(c, line), b"zed has no such game.\n\r", line)
            self.assertEqual(self.ask(c, "smoves zed alice"),
                             b"zed has no adjourned game with alice.\n\r")
        self.assertIn(b"There is no adjourned game between zed and alice.",
                      self.cmd(z, "examine zed alice"))
        self.assertEqual(self.ask(z, "stored"), b"zed has no adjourned games.\n\r")
        self.assertEqual(self.ask(z, "resume"), b"You have no adjourned games.\n\r")
        status, _, body = get(srv.http_port, "/api/games/user/zed")
        self.assertEqual(status, 404, body)
        self.assertNotIn(b"[Event ", body)
        # alice's record keeps both games, under the name zed had then.
        hist = self.ask(a, "history").decode()
        self.assertEqual(len(re.findall(r"\r ?\d+: ", hist)), 1, hist)
        self.assertRegex(hist, r" 0: \+ +\d+ W +\d+ zed ")
        self.assertIn(b"zed", self.cmd(a, "stored"))
        self.assertIn(b"e4", self.cmd(a, "smoves alice 0"))
        self.assertIn(b'[Black "zed"]', self.cmd(a, "pgn alice 0"))
        status, _, body = get(srv.http_port, "/api/games/user/alice")
        self.assertEqual(status, 200)
        self.assertEqual(body.count(b"[Event "), 1, body)
        self.assertIn(b'[Black "zed"]', body)

    def test_a_guest_sees_its_own_session_games_only(self):
        srv = self.new_server(config=FAST, tls=False, http=True)
        srv.useradd("alice", PW)
        srv.start()
        a = self.user_player(srv, "alice", PW)
        self.old_zed_plays(srv, a)
        z = self.guest_zed(srv)
        self.start_match(z, a, "2 0 unrated")
        self.play_moves(z, a, ["c4", "c5"])
        self.cmd(a, "resign")
        self.end_line(z)
        for c in (a, z):
            hist = self.ask(c, "history zed").decode()
            self.assertEqual(len(re.findall(r"\r ?\d+: ", hist)), 1, hist)
            self.assertRegex(hist, r" 0: \+ +\d+ W +\d+ alice ")
            self.assertIn(b"c4", self.cmd(c, "smoves zed 0"))
            self.assertNotIn(b"e4", self.cmd(c, "smoves zed -1"))
            self.assertIn(b'[White "zed"]', self.cmd(c, "pgn zed"))
            self.assertEqual(self.ask(c, "stored zed"), b"zed has no adjourned games.\n\r")
        self.leave(z, a)
        z = self.guest_zed(srv)
        self.assertEqual(self.ask(z, "history"), b"Sorry, no game information available.\n\r")
        self.assertEqual(self.ask(z, "pgn zed"), b"zed has no such game.\n\r")

    def test_a_reclaimed_seat_keeps_its_game_in_the_guests_history(self):
        """A guest back with its reconnect key is a new session: the game it
        came back to is still its own."""
        srv = self.game_server()
        a = self.guest_player(srv)
        b = self.guest_player(srv)
        n, keys = self.start_keyed(a, b)
        self.play_moves(a, b, ["e4", "e5"])
        self.lose_contact(a, b, n)
        a2 = self.reclaim(srv, a.name, keys["white"])
        self.setup_client(a2)
        self.cmd(b, "resign")
        self.end_line(a2)
        hist = self.ask(a2, "history").decode()
        self.assertEqual(len(re.findall(r"\r ?\d+: ", hist)), 1, hist)
        self.assertIn(b"e4", self.cmd(a2, "smoves %s 0" % a.name))

    def test_guest_name_without_games(self):
        """A GuestXXXX asking about itself gets lasker's text as any guest."""
        srv = self.new_server(config=FAST, tls=False, http=True)
        srv.start()
        g = self.guest_player(srv)
        self.assertEqual(self.ask(g, "history"), b"Sorry, no game information available.\n\r")
        self.assertEqual(self.ask(g, "history nobodyhere"),
                         b"There is no player matching that name.\n\r")
        status, _, _ = get(srv.http_port, "/api/games/user/" + g.name)
        self.assertEqual(status, 404)


if __name__ == "__main__":
    main()
