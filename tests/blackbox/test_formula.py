"""The formula variable as FICS has it (lasker's formula.c and matchproc.c):
set formula refuses a bad formula with one line and keeps the old one (for
an account, across logins too); a match request the receiver's formula does
not admit is refused in lasker's words to both sides, one it admits is
made; a seek posted with "formula" reaches, in <s>, the seek notice and
sought, only the players its owner's formula admits, and play of it by
another is refused in the same words.
"""
import re

from games_harness import GT, LS, GamesTestCase, main

CREATED = re.compile(LS + rb"Creating: [^\n]*\n\r\{Game \d+ [^\n]*\}\n\r\n\r<12> ")


class FormulaTest(GamesTestCase):

    def cmd(self, c, line, timeout=GT):
        """The reply alone: notices (each ending in a prompt) before it are cut off."""
        out = super().cmd(c, line, timeout)
        return out[out.rindex(b"fics% ") + 6:] if b"fics% " in out else out

    def formula_shown(self, c):
        out = super().cmd(c, "variables").decode()     # it shows prompt=fics%, so untrimmed
        m = re.search(r"formula=(.*?) *prompt=", out)
        return m.group(1) if m else out

    def test_set_formula_refuses_bad_ones_with_one_line(self):
        srv = self.game_server({"formula_chars": 40, "formula_depth": 5})
        srv.useradd("alice", "alicepw1")
        a = self.user_player(srv, "alice", "alicepw1")
        self.assertEqual(self.cmd(a, "set formula blitz & time >= 3 # quick"),
                         b"Formula set to blitz & time >= 3 # quick.\n\r")
        bad = {
            "blitz &": b"Invalid formula: it ends where a value is expected.\n\r",
            "rated & moodx": b'Invalid formula: unknown variable "moodx".\n\r',
            "(rated": b'Invalid formula: missing ")".\n\r',
            "f1 | blitz": b"Invalid formula: f1-f9 are not supported on this server; "
                          b"write the expression instead.\n\r",
            "((((((1))))))": b"Invalid formula: nested too deeply (at most 5 levels).\n\r",
            "rated | " * 5 + "blitz": b"Invalid formula: too long (at most 40 characters).\n\r",
        }
        for text, why in bad.items():
            self.assertEqual(self.cmd(a, "set formula " + text), why, text)
        self.assertEqual(self.cmd(a, "set formula (((((1)))))"),
                         b"Formula set to (((((1))))).\n\r")
        self.assertEqual(self.cmd(a, "set formula blitz & time >= 3"),
                         b"Formula set to blitz & time >= 3.\n\r")
        self.assertEqual(self.cmd(a, "set formula blitz &"),
                         b"Invalid formula: it ends where a value is expected.\n\r")
        self.assertEqual(self.formula_shown(a), "blitz & time >= 3")
        # The account kept the last good one, not the refused one.
        a.close()
        a = self.user_player(srv, "alice", "alicepw1")
        self.assertEqual(self.formula_shown(a), "blitz & time >= 3")
        self.assertEqual(self.cmd(a, "set formula"), b"Formula unset.\n\r")
        self.assertEqual(self.formula_shown(a), "")
        help_text = self.cmd(a, "help formula")
        for word in (b"maxtime(N)", b"ratingdiff", b"f1-f9 are not kept"):
            self.assertIn(word, help_text)

    def test_match_refused_by_formula_in_lasker_words(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        self.assertEqual(self.cmd(b, "set formula time >= 3 & !rated"),
                         b"Formula set to time >= 3 & !rated.\n\r")
        self.assertEqual(self.cmd(a, "match %s 1 0" % b.name),
                         b"Match request does not fit formula for %s:\n\r"
                         b"%s's formula: time >= 3 & !rated\n\r" % (b.name.encode(), b.name.encode()))
        self.expect_line(b, re.escape("Ignoring (formula): %s (++++) %s (++++) unrated lightning 1 0."
                                      % (a.name, b.name)))
        self.assertIn(b"There are no offers pending FROM other players.", self.cmd(b, "pending"))
        # lasker's line names no colour, even when one was asked for.
        self.assertIn(b"Match request does not fit formula", self.cmd(a, "match %s 1 0 white" % b.name))
        self.expect_line(b, re.escape("Ignoring (formula): %s (++++) %s (++++) unrated lightning 1 0."
                                      % (a.name, b.name)))
        # A request the formula admits is made as any other.
        out = self.cmd(a, "match %s 5 0" % b.name)
        self.assertEqual(out, b"Issuing: %s (++++) %s (++++) unrated blitz 5 0.\n\r"
                         % (a.name.encode(), b.name.encode()))
        b.expect(b"or propose different parameters.", GT)
        # The challenger's own formula does not screen its own requests.
        self.cmd(a, "set formula standard")
        self.assertIn(b"Updating match request to: ", self.cmd(a, "match %s 3 0 black" % b.name))

    def test_seek_with_formula_reaches_only_players_it_admits(self):
        srv = self.game_server()
        srv.useradd("carol", "carolpw1")
        o, g = self.guest_player(srv), self.guest_player(srv)
        c = self.user_player(srv, "carol", "carolpw1")
        for x in (g, c):
            self.cmd(x, "iset seekinfo 1")
        self.assertEqual(self.cmd(o, "set formula registered"), b"Formula set to registered.\n\r")
        out = self.cmd(o, "seek 5 0 formula")
        m = re.search(rb"Your seek has been posted with index (\d+)\.\n\r\(1 player\(s\) saw the seek\.\)",
                      out)
        self.assertTrue(m, out)
        n = int(m.group(1))
        c.expect(re.compile(rb"<s> %d w=%s [^\n]* f=t\n\r" % (n, o.name.encode())), GT)
        # A seek without the flag reaches the guest as ever; the guest never saw the first.
        plain = int(re.search(rb"index (\d+)", self.cmd(o, "seek 3 0")).group(1))
        g.expect(re.compile(rb"<s> %d w=" % plain), GT)
        self.assertNotIn(b"<s> %d " % n, g.seen)
        self.assertEqual(self.cmd(g, "sought").count(b"\n\r"), 2)   # the plain seek, and the count
        self.assertIn(b"1 ad displayed.", self.cmd(g, "sought"))
        self.assertIn(b"2 ads displayed.", self.cmd(c, "sought"))
        # seekinfo switched on again sends the seeks the player may see.
        self.cmd(g, "iset seekinfo 0")
        out = self.cmd(g, "iset seekinfo 1")
        self.assertIn(b"<s> %d " % plain, out)
        self.assertNotIn(b"<s> %d " % n, out)
        # The guest's play is refused as a match would be; the account's starts the game.
        self.assertEqual(self.cmd(g, "play %d" % n),
                         b"Match request does not fit formula for %s:\n\r"
                         b"%s's formula: registered\n\r" % (o.name.encode(), o.name.encode()))
        self.expect_line(o, re.escape("Ignoring (formula): %s (++++) %s (++++) unrated blitz 5 0."
                                      % (g.name, o.name)))
        # Taking a manual seek is a match request: the formula screens it without the flag.
        manual = int(re.search(rb"index (\d+)", self.cmd(o, "seek 3 1 manual")).group(1))
        self.assertIn(b"2 ads displayed.", self.cmd(g, "sought"))
        self.assertEqual(self.cmd(g, "play %d" % manual),
                         b"Match request does not fit formula for %s:\n\r"
                         b"%s's formula: registered\n\r" % (o.name.encode(), o.name.encode()))
        self.expect_line(o, re.escape("Ignoring (formula): %s (++++) %s (++++) unrated blitz 3 1."
                                      % (g.name, o.name)))
        out = self.cmd(c, "play %d" % n)
        self.assertTrue(out.startswith(b"You accept the challenge of %s.\n\r" % o.name.encode()), out)
        self.assertRegex(out, CREATED)


if __name__ == "__main__":
    main()
