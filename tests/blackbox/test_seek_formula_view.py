"""A player's own formula screens the seeks shown to that player, as lasker's
help has it (data/help/seek, question 1: an ad is displayed to a user "the
moment you make it" only if "the ad must agree with his/her formula";
data/help/sought: "sought" alone shows "only those current ads for which
you are eligible based on any formula you might have", "sought all" every
one).  So: the seek notice, the <s> line (as it is posted and when seekinfo
is switched on), the "(N player(s) saw the seek.)" count and sought leave
out what the receiver's formula refuses; sought all shows it; a seek of
the receiver's cannot meet one its formula refuses; play of it by number
still takes it (help play checks only the ad owner's formula).
"""
import re

from games_harness import GT, GamesTestCase, main

CREATED = re.compile(rb"Creating: [^\n]*\n\r\{Game \d+ [^\n]*\}\n\r\n\r<12> ")
POSTED = re.compile(rb"Your seek has been posted with index (\d+)\.\n\r"
                    rb"\((\d+) player\(s\) saw the seek\.\)")


class SeekFormulaView(GamesTestCase):

    def cmd(self, c, line, timeout=GT):
        """The reply alone: notices (each ending in a prompt) before it are cut off."""
        out = super().cmd(c, line, timeout)
        return out[out.rindex(b"fics% ") + 6:] if b"fics% " in out else out

    def post(self, c, terms):
        out = self.cmd(c, "seek %s" % terms)
        m = POSTED.search(out)
        self.assertTrue(m, out)
        return int(m.group(1)), int(m.group(2))

    def test_receivers_formula_screens_the_seeks_it_sees(self):
        srv = self.game_server()
        o, g, h = (self.guest_player(srv) for _ in range(3))
        self.cmd(g, "iset seekinfo 1")
        self.assertEqual(self.cmd(h, "set seek 1"), b"You will now hear ads.\n\r")
        for c in (g, h):
            self.assertEqual(self.cmd(c, "set formula blitz"), b"Formula set to blitz.\n\r")
        # A lightning seek reaches neither; a blitz one both.
        light, saw = self.post(o, "1 0")
        self.assertEqual(saw, 0)
        blitz, saw = self.post(o, "5 0")
        self.assertEqual(saw, 2)
        g.expect(re.compile(rb"<s> %d w=%s [^\n]*tp=blitz" % (blitz, o.name.encode())), GT)
        self.expect_line(h, re.escape('%s (++++) seeking 5 0 unrated blitz ("play %d" to respond)'
                                      % (o.name, blitz)))
        self.assertNotIn(b"<s> %d " % light, g.seen)
        self.assertNotIn(b'"play %d"' % light, h.seen)
        # sought shows what the formula admits; sought all every seek.
        out = self.cmd(g, "sought")
        self.assertRegex(out, rb"\A *%d .*\n\r1 ad displayed\.\n\r\Z" % blitz)
        out = self.cmd(g, "sought all")
        self.assertIn(b"2 ads displayed.", out)
        self.assertRegex(out, rb"(?m)^ *%d .* lightning" % light)
        # seekinfo switched on again lists only the admitted one.
        self.cmd(g, "iset seekinfo 0")
        out = self.cmd(g, "iset seekinfo 1")
        self.assertIn(b"<s> %d " % blitz, out)
        self.assertNotIn(b"<s> %d " % light, out)
        # Without a formula a player sees both.
        self.cmd(g, "set formula")
        self.assertIn(b"2 ads displayed.", self.cmd(g, "sought"))
        # h's own seek does not meet the one h's formula refuses: it is posted.
        mine, _ = self.post(h, "1 0")
        self.cmd(h, "unseek %d" % mine)
        # play by number is h's own choice and takes it.
        out = self.cmd(h, "play %d" % light)
        self.assertTrue(out.startswith(b"You accept the challenge of %s.\n\r" % o.name.encode()), out)
        self.assertRegex(out, CREATED)


if __name__ == "__main__":
    main()
