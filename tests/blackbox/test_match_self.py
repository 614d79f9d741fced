"""match with one's own name opens a scratch board, as lasker's com_match
does ("Allowing to match yourself to enter analysis mode": ExamineScratch
in obsproc.c), with ExamineScratch's words for what it cannot take: time
controls, a category without a board, a word too many; and the refusal
of a match while examining comes first."""
import re

from games_harness import GT, GamesTestCase, main, parse12


class MatchSelf(GamesTestCase):

    def cmd(self, c, line, timeout=GT):
        """The reply alone: notices (each ending in a prompt) before it are cut off."""
        out = super().cmd(c, line, timeout)
        return out[out.rindex(b"fics% ") + 6:] if b"fics% " in out else out

    def test_match_yourself_examines_a_scratch_board(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        me = a.name
        self.assertEqual(self.cmd(a, "match %s 5 0" % me), b"You can't specify time controls.\n\r")
        self.assertEqual(self.cmd(a, "match %s blitz" % me),
                         b"You must specify a board and a category.\n\r")
        # No board categories here: com_match's words for one that does not exist.
        self.assertEqual(self.cmd(a, "match %s wild 1" % me), b"No such category/board: wild/1\n\r")
        self.assertEqual(self.cmd(a, "match %s wild 1 x" % me),
                         b"Can't interpret x in match command.\n\r")
        self.assertIn(b"Issuing:", self.cmd(b, "match %s 5 0" % me))
        out = self.cmd(a, "match %s" % me.lower())
        self.assertTrue(out.startswith(b"Starting a game in examine (scratch) mode.\n\r"), out)
        d = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))
        self.assertEqual((d["white"], d["black"], d["relation"]), (me, me, 2), d["raw"])
        # The board is a real examine board, and the offer made to a is gone.
        self.assertRegex(self.cmd(a, "e4"), rb"<12> ")
        self.assertIn(b"There are no offers pending FROM other players.", self.cmd(a, "pending"))
        # The refusal pychess reads (BoardManager), as for any match while examining.
        self.assertEqual(self.cmd(a, "match %s" % me),
                         b"You cannot challenge while you are examining a game.\n\r")
        self.assertIn(b"You are no longer examining game", self.cmd(a, "unexamine"))


if __name__ == "__main__":
    main()
