#!/usr/bin/env python3
"""pause and unpause, as lasker's com_pause/com_unpause: one player asks,
the other agrees with the same command or "accept N" (the number of the
<pf> line pychess reads), and then the clocks stand still: the turn's time
so far is given back, no flag falls, no move is taken, style 12 says the
clock is not ticking, and "Game N: Game clock paused." (the line pychess
stops its clocks on) reaches players and observers.  A pause needs both
players, only they can answer it, and it ends with the game.  The lines
are fed to the installed pychess (test_conformance_pychess's oracle)."""
import re
import time

import test_conformance_pychess as pychess_oracle
from games_harness import GT, GamesTestCase, main

PF_RE = r"<pf> (\d+) w=(\w+) t=pause p=#"


class PauseTest(GamesTestCase):

    def game(self, terms="5 0", observer=True):
        srv = self.game_server()
        w, b = self.guest_player(srv), self.guest_player(srv)
        for c in (w, b):
            self.assertIn(b"pendinfo set.", self.cmd(c, "iset pendinfo 1"))
        n, _ = self.start_match(w, b, terms)
        o = None
        if observer:
            o = self.guest_player(srv)
            self.assertIn(b"You are now observing game %d." % n, self.cmd(o, "observe %d" % n))
        return srv, n, w, b, o

    def board(self, c):
        """The board refresh shows c now."""
        out = self.cmd(c, "refresh")
        boards = re.findall(rb"<12> ([^\n\r]*)\n\r", out)
        self.assertTrue(boards, out)
        from games_harness import parse12
        return parse12(boards[-1])

    def paused_by(self, n, asker, other, observers=()):
        """asker asks, other agrees by "accept N": returns the offer number."""
        out = self.cmd(asker, "pause")
        self.assertIn(b"Pause request sent.", out)
        self.assertRegex(out, rb"<pt> \d+ w=%s t=pause p=#" % other.name.encode())
        self.expect_line(other, re.escape("%s requests to pause the game." % asker.name))
        number = int(self.expect_line(other, PF_RE).group(2))
        out = self.cmd(other, "accept %d" % number)
        self.assertIn(b"Game clock paused.", out)
        self.expect_line(asker, re.escape("%s accepted pause. Game clock paused." % other.name))
        self.assertIn(b"Game %d: Game clock paused." % n, out)
        for c in (asker,) + tuple(observers):
            self.expect_line(c, re.escape("Game %d: Game clock paused." % n))
        return number

    def test_pause_stops_the_clock_and_pychess_reads_it(self):
        srv, n, w, b, o = self.game()
        self.play_moves(w, b, ["e2e4", "e7e5"], observers=[o])
        start = {c: len(c.seen) for c in (w, b, o)}
        self.assertIn(b"The clock is not paused.", self.cmd(w, "unpause"))
        number = self.paused_by(n, w, b, [o])
        for c in (w, b, o):
            self.assertEqual(self.board(c)["ticking"], 0)
        self.assertIn(b"<pr> %d\n\r" % number, w.seen[start[w]:])
        # Stopped: the clock stands, a move waits, a second pause is refused.
        before = self.board(w)
        time.sleep(1.2)
        after = self.board(w)
        self.assertEqual((before["wclock"], before["ticking"]), (after["wclock"], after["ticking"]))
        self.assertIn(b'Game clock is paused, use "unpause" to resume.', self.cmd(w, "d2d4"))
        self.assertIn(b"It is not your move.", self.cmd(b, "d7d5"))
        self.assertIn(b'Game is already paused, use "unpause" to resume.', self.cmd(b, "pause"))
        self.assertIn(b"White (%s) : %d mins" % (w.name.encode(), after["wclock"] // 60000),
                      self.cmd(o, "time %d" % n))
        # unpause: declined once, then agreed.
        self.assertIn(b"Unpause request sent.", self.cmd(b, "unpause"))
        self.expect_line(w, re.escape("%s requests to unpause the game." % b.name))
        self.assertIn(b"You decline the unpause request from %s." % b.name.encode(),
                      self.cmd(w, "decline"))
        self.expect_line(b, re.escape("%s declines the unpause request." % w.name))
        self.assertIn(b"Unpause request sent.", self.cmd(w, "unpause"))
        self.expect_line(b, re.escape("%s requests to unpause the game." % w.name))
        out = self.cmd(b, "unpause")
        self.assertIn(b"Game clock resumed.\n\rGame %d: Game clock resumed." % n, out)
        self.expect_line(w, re.escape("Game clock resumed."))
        for c in (w, o):
            self.expect_line(c, re.escape("Game %d: Game clock resumed." % n))
        self.assertEqual(self.board(o)["ticking"], 1)
        self.move(w, b, "d2d4", observers=[o])
        # pychess: the offer, its removal, the clock paused and resumed, the refusal.
        got = pychess_oracle.ask_pychess({c: x.seen[start[x]:] for c, x in
                                          (("w", w), ("b", b), ("o", o))})["transcripts"]
        adds = [e["groups"][0] for e in pychess_oracle.handlers(got["b"], "onOfferAdd")]
        self.assertIn(["f", str(number), "pause", "#"], adds, got["b"])
        self.assertIn([str(number)], [e["groups"][0] for e in
                                      pychess_oracle.handlers(got["b"], "onOfferRemove")])
        for who in ("w", "b", "o"):
            self.assertEqual([e["groups"][0] for e in
                              pychess_oracle.handlers(got[who], "onGamePause")],
                             [[str(n), "paused"], [str(n), "resumed"]], got[who])
        self.assertEqual([e["groups"][0] for e in
                          pychess_oracle.handlers(got["b"], "onOfferDeclined")], [["unpause"]])
        self.assertEqual(len([e for e in pychess_oracle.handlers(got["w"], "<lambda>")
                              if e["lines"] == ["The clock is not paused."]]), 1, got["w"])

    def test_turn_time_given_back_and_no_flag_while_paused(self):
        # 3 seconds each: a flag would fall well within the wait below.
        srv, n, w, b, _ = self.game("0.05 0", observer=False)
        self.move(w, b, "e2e4")
        turn = self.move(b, w, "e7e5")
        time.sleep(0.3)                 # white's clock runs: this is what the pause gives back
        self.paused_by(n, w, b)
        paused = self.board(w)
        self.assertEqual(paused["ticking"], 0)
        self.assertEqual(paused["wclock"], turn["wclock"], "the turn's time is given back")
        time.sleep(4.0)
        self.assertEqual(self.board(b)["wclock"], turn["wclock"])
        self.assertNotIn(b"forfeits on time", w.seen + b.seen)
        self.assertIn(b"Your opponent is not out of time.", self.cmd(b, "flag"))
        # Running again, the flag falls as ever.
        self.cmd(w, "unpause")
        self.cmd(b, "unpause")
        _, _, _, reason, result = self.end_line(b, timeout=GT)
        self.assertEqual((reason, result), ("%s forfeits on time" % w.name, "0-1"))

    def test_only_the_players_of_the_game_pause_it(self):
        srv, n, w, b, o = self.game()
        x, y = self.guest_player(srv), self.guest_player(srv)
        self.start_match(x, y, "5 0")
        self.play_moves(w, b, ["e2e4", "e7e5"])
        self.assertIn(b"You are not playing a game.", self.cmd(o, "pause"))
        self.assertIn(b"You are not playing a game.", self.cmd(o, "unpause"))
        out = self.cmd(w, "pause")
        number = int(re.search(rb"<pt> (\d+) ", out).group(1))
        self.expect_line(b, PF_RE)
        # Nobody but b answers w's offer: not the observer, not a player of
        # another game, not w itself, whatever number they give.
        for c in (o, x, w):
            self.assertNotIn(b"Game clock paused.", self.cmd(c, "accept %d" % number))
        self.assertNotIn(b"Game clock paused.", self.cmd(x, "pause"))  # x asks y, in x's game
        self.expect_line(y, re.escape("%s requests to pause the game." % x.name))
        self.assertEqual(self.board(w)["ticking"], 1)
        self.assertNotIn(b"requests to pause", b.read_for(0.3))
        # A pending offer goes with a move that answers it...
        start = len(w.seen)
        self.move(w, b, "d2d4")
        self.assertNotIn(b"<pr> %d\n\r" % number, w.seen[start:])   # one's own move: it stays
        self.move(b, w, "d7d5")
        self.assertIn(b"<pr> %d\n\r" % number, w.seen[start:])
        self.assertIn(b"There are no offers pending FROM other players.", self.cmd(w, "pending"))
        self.assertIn(b"You have no offers to accept.", self.cmd(w, "accept"))
        # ... and with the game, before its end line; a paused game still ends.
        number = self.paused_by(n, b, w)
        out = self.cmd(w, "pause")
        self.assertIn(b"Game is already paused", out)
        self.cmd(b, "unpause")
        self.expect_line(w, PF_RE.replace("pause", "unpause"))
        self.assertIn(b"%s resigns" % b.name.encode(), self.cmd(b, "resign"))
        self.assertRegex(w.expect(b"resigns} 1-0"), rb"<pr> \d+\n\r(?:.|\n|\r)*\{Game %d " % n)
        self.assertIn(b"You are not playing a game.", self.cmd(w, "pause"))

    def test_paused_game_adjourns_resumes_unpaused_and_stays_paused_over_a_drop(self):
        srv = self.new_server(config={"commands_per_sec": 1000, "command_burst": 1000}, tls=False)
        srv.useradd("alice", "apass1")
        srv.useradd("bob", "bpass1")
        srv.start()
        a = self.user_player(srv, "alice", "apass1")
        b = self.user_player(srv, "bob", "bpass1")
        for c in (a, b):
            self.cmd(c, "iset pendinfo 1")
        n, _ = self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["e2e4", "e7e5"])
        self.paused_by(n, a, b)
        # A paused game still adjourns by agreement, and resumes with its clocks running.
        self.assertIn(b"Adjourn request sent.", self.cmd(a, "adjourn"))
        self.expect_line(b, re.escape('alice would like to adjourn the game; type "adjourn" to accept.'))
        self.assertIn(b"Game adjourned by mutual agreement} *", self.cmd(b, "adjourn"))
        self.cmd(a, "resume bob")
        self.expect_line(b, re.escape("alice would like to resume your adjourned game."))
        b.send_line("resume alice")
        n = int(self.expect_line(a, r"\{Game (\d+) \(alice vs\. bob\) Continuing [^\n]*\}").group(2))
        self.assertEqual(self.board(a)["ticking"], 1)
        self.assertIn(b"The clock is not paused.", self.cmd(b, "unpause"))
        # Paused again, bob drops and comes back: still paused until both agree.
        self.paused_by(n, b, a)
        b.close()
        self.expect_line(a, r"Your opponent, bob, has lost contact or quit\..*")
        b = self.user_player(srv, "bob", "bpass1")
        self.expect_line(a, re.escape("bob has returned; the game continues."))
        self.assertEqual(self.board(b)["ticking"], 0)
        self.assertIn(b'Game clock is paused, use "unpause" to resume.', self.cmd(a, "d2d4"))
        self.cmd(b, "unpause")
        self.expect_line(a, re.escape("bob requests to unpause the game."))
        self.assertIn(b"Game clock resumed.", self.cmd(a, "unpause"))
        a.send_line("d2d4")
        for c in (a, b):
            self.assertEqual(self.expect12(c, san="d4")["ticking"], 1)

    def test_untimed_games_have_no_clock_to_pause(self):
        srv, n, w, b, _ = self.game("0 0", observer=False)
        self.assertIn(b"You can't pause untimed games.", self.cmd(w, "pause"))
        self.assertNotIn(b"requests to pause", b.read_for(0.3))

    def test_withdraw_and_pending(self):
        srv, n, w, b, _ = self.game(observer=False)
        self.cmd(w, "pause")
        number = int(self.expect_line(b, PF_RE).group(2))
        self.assertIn(b" %d: %s is offering to pause the clock." % (number, w.name.encode()),
                      self.cmd(b, "pending"))
        self.assertIn(b" %d: You are offering %s to pause the clock." % (number, b.name.encode()),
                      self.cmd(w, "pending"))
        self.assertIn(b"You withdraw the pause request to %s." % b.name.encode(),
                      self.cmd(w, "withdraw"))
        self.expect_line(b, re.escape("%s withdraws pause request." % w.name))
        self.expect_line(b, re.escape("<pr> %d" % number))
        self.assertIn(b"Pause request sent.", self.cmd(b, "pause"))
        number = int(self.expect_line(w, PF_RE).group(2))
        # By number: a withdrawal of someone else's offer, or of a number
        # that is nobody's, withdraws nothing; the owner's does.
        self.cmd(w, "withdraw %d" % number)
        self.assertIn(b" %d: %s is offering to pause the clock." % (number, b.name.encode()),
                      self.cmd(w, "pending"))
        for junk in ("99999999999999999999", "-1", "100000000"):
            self.assertNotIn(b"withdraw the pause", self.cmd(b, "withdraw " + junk))
        self.assertIn(b"You withdraw the pause request to %s." % w.name.encode(),
                      self.cmd(b, "withdraw %d" % number))
        # The other offers in a game are numbered the same way: a draw, declined by number.
        self.assertIn(b"Draw request sent.", self.cmd(b, "draw"))
        m = self.expect_line(w, r"<pf> (\d+) w=%s t=draw p=#" % b.name)
        self.assertIn(b"You decline the draw request from %s." % b.name.encode(),
                      self.cmd(w, "decline %d" % int(m.group(2))))
        self.expect_line(b, re.escape("<pr> %s" % m.group(2).decode()))


if __name__ == "__main__":
    main()
