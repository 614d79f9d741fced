"""What GUI clients send about adjourned and delay games, black box, in the
forms they parse (what test_e2e_pychess_archive and test_e2e_xboard_delay
need of the server, checked without the GUIs):

- pychess previews a stored game with `smoves OWNER OPPONENT` and resumes it
  with a bare `match OPPONENT`, as on FICS;
- a delay game is "minutes 0" in every line a client reads a time from: the
  <s> seek line, Creating:, and the observe header (pychess and xboard match
  "(\\d+) (\\d+)" there, and add i= to their own clocks).
"""
import re

from games_harness import GT, GamesTestCase, main


class ClientArchiveTextsTest(GamesTestCase):

    def users(self, *names):
        srv = self.game_server()
        out = []
        for n in names:
            srv.useradd(n, n + "pw1")
            out.append(self.user_player(srv, n, n + "pw1"))
        return [srv] + out

    def adjourned(self, a, b):
        self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["e4", "e5", "Nf3"])
        a.send_line("adjourn")
        b.expect(b"alice would like to adjourn", GT)
        b.send_line("adjourn")
        self.end_line(a)

    def test_smoves_of_an_adjourned_game_by_opponent(self):
        srv, a, b = self.users("alice", "bob")
        self.adjourned(a, b)
        out = self.cmd(b, "smoves alice bob")
        self.assertIn(b"alice (----) vs. bob (----) --- ", out)
        self.assertIn(b"Unrated blitz match, initial time: 5 minutes, increment: 0 seconds.", out)
        self.assertRegex(out, rb"\n\r  1\.  e4 +\(\d:\d\d\.\d{3}\) +e5 +\(\d:\d\d\.\d{3}\)\n\r"
                              rb"  2\.  Nf3 +\(\d:\d\d\.\d{3}\) *\n\r")
        self.assertRegex(out, rb"\{Game adjourned by mutual agreement\} \*")
        # The owner's name first, as stored lists it; no such game says so.
        self.assertIn(b"Nf3", self.cmd(a, "oldmoves bob alice"))
        self.assertIn(b"alice has no adjourned game with carol.", self.cmd(a, "smoves alice carol"))
        # No second argument still means the latest game.
        self.assertIn(b"Nf3", self.cmd(a, "smoves alice"))

    def test_bare_match_resumes_the_adjourned_game(self):
        srv, a, b = self.users("alice", "bob")
        self.adjourned(a, b)
        out = self.cmd(b, "match alice")
        self.assertNotIn(b"Challenge", out)
        a.expect(b"bob would like to resume your adjourned game.", GT)
        a.send_line("accept")
        for c in (a, b):
            c.expect(re.compile(rb"Creating: alice \(----\) bob \(----\) unrated blitz 5 0\n\r"
                                rb"\{Game (\d+) \(alice vs\. bob\) Continuing unrated blitz match\.\}"),
                     GT)
            d = self.expect12(c)
            self.assertEqual((d["side"], d["san"]), ("B", "Nf3"), d["raw"])
        a.send_line("resign")
        self.end_line(b)
        # With terms, or with no adjourned game, match is a new challenge.
        out = self.cmd(b, "match alice")
        self.assertIn(b"Issuing: bob (", out)
        a.expect(b"Challenge: bob (", GT)

    def test_delay_game_texts_have_no_increment(self):
        srv, a, b = self.users("alice", "bob")
        o = self.guest_player(srv)
        self.cmd(o, "iset seekinfo 1")
        self.cmd(a, "seek 5d3 unrated white")
        o.expect(re.compile(rb"<s> (\d+) w=alice [^\n]* t=5 i=0 r=u tp=blitz c=W "), GT)
        creating = rb"Creating: alice \(----\) bob \(----\) unrated blitz 5 0\n\r"
        self.assertRegex(self.cmd(b, "play %d" % int(o.match.group(1))), creating)
        a.expect(re.compile(creating), GT)
        out = self.cmd(o, "observe alice")
        self.assertRegex(out, rb"Game \d+: alice \(----\) bob \(----\) unrated blitz 5 0\n\r")


if __name__ == "__main__":
    main()
