#!/usr/bin/env python3
"""kibitz and whisper from guests, as lasker's com_kibitz/com_whisper: a
guest talks in a game of its own (played or examined), never into other
people's games that it only observes ("You must be registered to kibitz
other people's games."); a registered observer may.  Not playing nor
observing is told first, as in lasker."""
import re

from games_harness import GT, GamesTestCase, main

PW = "kibitzpw1"


class GuestKibitz(GamesTestCase):

    def setUp(self):
        super().setUp()
        self.srv = self.start_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                                     tls=False, start=False)
        self.srv.useradd("rita", PW)
        self.srv.start()
        self.w = self.guest_player(self.srv)
        self.b = self.guest_player(self.srv)
        self.n, _ = self.start_match(self.w, self.b, "5 0")

    def observer(self, c):
        self.assertIn(b"You are now observing game %d." % self.n, self.cmd(c, "observe %d" % self.n))
        return c

    def test_a_guest_observer_is_refused_and_nobody_hears_it(self):
        g = self.observer(self.guest_player(self.srv))
        rita = self.observer(self.user_player(self.srv, "rita", PW))
        self.assertEqual(self.cmd(g, "kibitz hello all"),
                         b"You must be registered to kibitz other people's games.\n\r")
        self.assertEqual(self.cmd(g, "whisper psst"),
                         b"You must be registered to whisper other people's games.\n\r")
        for c in (self.w, self.b, rita):
            out = c.read_for(0.3)
            self.assertNotIn(b"kibitzes", out)
            self.assertNotIn(b"whispers", out)
        # A registered observer talks, and the guest observer hears it.
        self.assertIn(b"kibitzed to 3.", self.cmd(rita, "kibitz well played"))
        for c in (self.w, self.b, g):
            self.expect_line(c, re.escape("rita(----)[%d] kibitzes: well played" % self.n))
        self.assertIn(b"whispered to 1.", self.cmd(rita, "whisper look at e4"))
        self.expect_line(g, re.escape("rita(----)[%d] whispers: look at e4" % self.n))

    def test_a_guest_player_talks_in_its_own_game(self):
        g = self.observer(self.guest_player(self.srv))
        self.assertIn(b"kibitzed to 2.", self.cmd(self.w, "kibitz from white"))
        for c in (self.b, g):
            self.expect_line(c, re.escape("%s(++++)[%d] kibitzes: from white"
                                          % (self.w.name, self.n)))
        self.assertIn(b"whispered to 1.", self.cmd(self.b, "whisper from black"))
        self.expect_line(g, re.escape("%s(++++)[%d] whispers: from black" % (self.b.name, self.n)))
        # Playing while observing another game: the talk goes to one's own game.
        x, y = self.guest_player(self.srv), self.guest_player(self.srv)
        m, _ = self.start_match(x, y, "5 0")
        self.assertIn(b"You are now observing game %d." % m, self.cmd(self.w, "observe %d" % m))
        self.assertIn(b"kibitzed to 2.", self.cmd(self.w, "kibitz still mine"))
        self.expect_line(self.b, re.escape("%s(++++)[%d] kibitzes: still mine"
                                           % (self.w.name, self.n)))

    def test_not_in_a_game_is_told_first(self):
        g = self.guest_player(self.srv)
        for verb in ("kibitz", "whisper"):
            self.assertEqual(self.cmd(g, "%s hi" % verb),
                             b"You are not playing or observing a game.\n\r")

    def test_a_guest_examiner_talks_its_observer_does_not(self):
        coach, pupil = self.guest_player(self.srv), self.guest_player(self.srv)
        out = self.cmd(coach, "examine")
        number = int(re.search(rb"<12> (?:\S+ ){15}(\d+) ", out).group(1))
        self.assertIn(b"You are now observing game %d." % number,
                      self.cmd(pupil, "observe %d" % number))
        self.assertIn(b"kibitzed to 1.", self.cmd(coach, "kibitz control the centre"))
        self.expect_line(pupil, re.escape("%s(++++)[%d] kibitzes: control the centre"
                                          % (coach.name, number)))
        self.assertEqual(self.cmd(pupil, "kibitz why?"),
                         b"You must be registered to kibitz other people's games.\n\r")
        self.assertNotIn(b"kibitzes", coach.read_for(0.3))


if __name__ == "__main__":
    main()
