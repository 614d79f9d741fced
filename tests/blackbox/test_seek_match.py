"""A seek that matches one already posted by someone else starts that game
at once, as on FICS: the same time, increment and ratedness, colours that
fit, each player inside the other's range and each formula admitting the
other.  The poster reads "Your seek matches one already posted by NAME."
and both get the game start that `play` gives; any other seek is posted."""
import re

from games_harness import GT, LS, GamesTestCase, main
from test_conformance_pychess import ask_pychess, handlers

CREATED = re.compile(LS + rb"Creating: [^\n]*\n\r\{Game \d+ [^\n]*\}\n\r\n\r<12> ")
POSTED = re.compile(rb"Your seek has been posted with index (\d+)\.")


class SeekMatch(GamesTestCase):

    def cmd(self, c, line, timeout=GT):
        """The reply alone: notices (each ending in a prompt) before it are cut off."""
        out = super().cmd(c, line, timeout)
        return out[out.rindex(b"fics% ") + 6:] if b"fics% " in out else out

    def post(self, c, terms):
        out = self.cmd(c, "seek %s" % terms)
        self.assertRegex(out, POSTED)
        return int(POSTED.search(out).group(1))

    def test_a_matching_seek_starts_the_game(self):
        srv = self.game_server()
        a, b, w = (self.guest_player(srv) for _ in range(3))
        for v in ("seekinfo", "seekremove"):
            self.cmd(w, "iset %s 1" % v)
        n = self.post(a, "5 0 white")
        # b runs as pychess does, in block mode, so that pychess's own parser reads its reply.
        b.send_line("iset block 1")
        b.expect(b"block set.\n\rfics% ", GT)
        b.send_line("7 seek 5 0")
        b.expect(re.compile(rb"\x157\x16155\x16(.*?)\x17", re.S), GT)
        out = b.match.group(1)
        b.read_for(0.3)
        got = ask_pychess({"b": b.seen})["transcripts"]["b"]
        # BoardManager's "Your seek (?:matches one already posted by %s|...)\." names a.
        matched = handlers(got, "onMatchingSeekOrGetGame")
        self.assertEqual(len(matched), 1, got)
        self.assertEqual(matched[0]["groups"][0][0], a.name, got)
        self.assertIn(b"You accept the challenge of %s.\n\r" % a.name.encode(), out)
        self.assertNotRegex(out, POSTED)
        self.assertRegex(out, CREATED)
        self.assertIn(b"Creating: %s (++++) %s (++++) unrated blitz 5 0" %
                      (a.name.encode(), b.name.encode()), out)
        self.expect_line(a, re.escape("%s accepts your challenge." % b.name))
        a.expect(CREATED, GT)
        w.expect(re.compile(LS + rb"<sr> %d\n\r" % n), GT)
        self.assertEqual(self.cmd(w, "sought"), b"0 ads displayed.\n\r")

    def test_other_seeks_are_posted(self):
        srv = self.game_server()
        a, b, c = (self.guest_player(srv) for _ in range(3))
        self.post(a, "5 0 white")
        # Another time, increment, colour or ratedness is another game.
        for terms in ("3 0", "5 2", "5 0 white"):
            self.post(b, terms)
            self.cmd(b, "unseek")
        # Outside the range a seek asks for.
        self.cmd(a, "unseek")
        self.post(a, "5 0 2500-3000")
        self.post(b, "5 0")
        self.cmd(b, "unseek")
        # A formula that refuses the other player.
        self.cmd(a, "unseek")
        self.assertEqual(self.cmd(a, "set formula time >= 10"), b"Formula set to time >= 10.\n\r")
        self.post(a, "5 0 formula")
        self.post(b, "5 0")
        # Nor does a seek meet the poster's own.
        self.cmd(b, "unseek")
        self.cmd(a, "unseek")
        self.post(c, "4 0")
        self.post(c, "4 0")
        self.assertIn(b"2 ads displayed.", self.cmd(b, "sought"))
        # a's own formula (time >= 10) hides them from a, and keeps a's seek from meeting them.
        self.assertIn(b"0 ads displayed.", self.cmd(a, "sought"))
        self.post(a, "4 0")


if __name__ == "__main__":
    main()
