"""A guest's rated request is unrated, silently, as in lasker: com_match
(matchproc.c: "if (!CheckPFlag(p, PFLAG_REG) || !CheckPFlag(p1, PFLAG_REG))
rated = 0;") for a match either way between a guest and an account, and
com_seek (seekproc.c: rated asked by an unregistered player gives an
UNRATED ad) for a seek.  play of a rated seek by a guest is still refused
in lasker's words (com_play)."""
import re

from games_harness import GT, GamesTestCase, main

CREATED = re.compile(rb"Creating: [^\n]*\n\r\{Game \d+ [^\n]*\}\n\r\n\r<12> ")


class GuestRated(GamesTestCase):

    def cmd(self, c, line, timeout=GT):
        """The reply alone: notices (each ending in a prompt) before it are cut off."""
        out = super().cmd(c, line, timeout)
        return out[out.rindex(b"fics% ") + 6:] if b"fics% " in out else out

    def test_a_guests_rated_request_is_made_unrated(self):
        srv = self.game_server()
        srv.useradd("alice", "alicepw1")
        a = self.user_player(srv, "alice", "alicepw1")
        g = self.guest_player(srv)
        gn = g.name.encode()
        self.assertEqual(self.cmd(g, "match alice 3 0 rated"),
                         b"Issuing: %s (++++) alice (----) unrated blitz 3 0.\n\r" % gn)
        a.expect(b"Challenge: %s (++++) alice (----) unrated blitz 3 0." % gn, GT)
        self.cmd(g, "withdraw")
        self.assertEqual(self.cmd(a, "match %s 3 0 rated" % g.name),
                         b"Issuing: alice (----) %s (++++) unrated blitz 3 0.\n\r" % gn)
        self.cmd(a, "withdraw")
        # An untimed rated request says nothing of untimed: it was never rated.
        self.assertNotIn(b"reverting", self.cmd(g, "match alice untimed rated"))
        self.cmd(g, "withdraw")
        out = self.cmd(g, "seek 3 0 rated")
        n = int(re.match(rb"Your seek has been posted with index (\d+)\.\n\r", out).group(1))
        self.assertRegex(self.cmd(a, "sought"),
                         rb"(?m)^ *%d \+\+\+\+ %s +3   0 unrated blitz " % (n, gn))
        out = self.cmd(a, "play %d" % n)
        self.assertIn(b"Creating: ", out)
        self.assertRegex(out, rb"Creating: [^\n]* unrated blitz 3 0\n\r")
        self.assertRegex(out, CREATED)


if __name__ == "__main__":
    main()
