#!/usr/bin/env python3
"""mexamine as lasker's com_mexamine: only an examiner may make another,
the one made must observe the board ("must observe the game you are
analysing.", asked first) and be doing nothing else ("is already analysing
the game."); the others of the board read "NAME is now examiner of game
N." and the new examiner reads only its own line (the one pychess parses,
"X has made you an examiner of game N.")."""
import re

from games_harness import GamesTestCase, main


class MexamineTexts(GamesTestCase):

    def test_who_may_make_whom_and_who_is_told(self):
        srv = self.game_server()
        e, p, o, w, b = (self.guest_player(srv) for _ in range(5))
        self.assertIn(b"examine (scratch) mode", self.cmd(e, "examine"))
        n = 1
        for c in (p, o, w):
            self.assertIn(b"You are now observing game %d." % n, self.cmd(c, "observe %s" % e.name))
        # An observer is no examiner and makes no one one.
        self.assertEqual(self.cmd(o, "mexamine %s" % p.name), b"You are not examining any games.\n\r")
        # One who plays (and observes too) is busy.
        self.start_match(w, b, "5 0")
        self.assertEqual(self.cmd(e, "mexamine %s" % w.name),
                         b"%s is already analysing the game.\n\r" % w.name.encode())
        out = self.cmd(e, "mexamine %s" % p.name)
        self.assertIn(b"%s is now examiner of game %d.\n\r" % (p.name.encode(), n), out)
        self.expect_line(o, re.escape("%s is now examiner of game %d." % (p.name, n)))
        got = self.expect_line(p, re.escape("%s has made you an examiner of game %d." % (e.name, n)))
        self.assertNotIn(b"is now examiner", p.read_for(0.3))
        # An examiner observes the board no more.
        self.assertEqual(self.cmd(e, "mexamine %s" % p.name),
                         b"%s must observe the game you are analysing.\n\r" % p.name.encode())
        self.assertIsNotNone(got)
        # The new examiner may make another.
        out = self.cmd(p, "mexamine %s" % o.name)
        self.assertIn(b"%s is now examiner of game %d." % (o.name.encode(), n), out)
        self.expect_line(e, re.escape("%s is now examiner of game %d." % (o.name, n)))


if __name__ == "__main__":
    main()
