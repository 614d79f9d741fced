#!/usr/bin/env python3
"""Following a player into a private game ("set private 1"): as in lasker,
where following is an observe made for the follower, the follower is told
"Sorry, game N is a private game." (the line pychess's BoardManager reads)
and sees nothing of it; an admin following is let in, and the followed
player's next open game is observed as usual."""
import re

from games_harness import GT, GamesTestCase, main
from lists_harness import pychess_patterns

PW = "followpw1"


class FollowPrivate(GamesTestCase):

    @classmethod
    def setUpClass(cls):
        cls.private_re = pychess_patterns(("BoardManager",))["onWasPrivate"][0][0]

    def setUp(self):
        super().setUp()
        self.srv = self.start_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                                     tls=False, start=False)
        self.srv.useradd("root", PW, admin=True)
        self.srv.start()
        self.a = self.guest_player(self.srv)
        self.b = self.guest_player(self.srv)

    def follower(self, c, name):
        self.assertIn(("You will now be following %s's games." % name).encode(),
                      self.cmd(c, "follow %s" % name))
        return c

    def test_the_follower_is_told_and_sees_nothing(self):
        f = self.follower(self.guest_player(self.srv), self.a.name)
        self.assertIn(b"Your games will be private.", self.cmd(self.a, "set private 1"))
        n, _ = self.start_match(self.a, self.b, "5 0")
        m = self.expect_line(f, self.private_re)
        # pychess's pattern names the game
        self.assertEqual(re.match(self.private_re.encode(), m.group(1)).group(1),
                         str(n).encode())
        self.assertEqual(m.group(1), b"Sorry, game %d is a private game." % n)
        before = f.seen
        self.move(self.a, self.b, "e4")
        self.assertIn(b"You are not observing any games.", self.cmd(f, "unobserve"))
        self.assertNotIn(b"<12>", f.seen)
        self.assertNotIn(b"You are now observing", before)
        # the next game, open, is followed as ever
        self.a.send_line("abort")
        self.end_line(self.a)
        self.assertIn(b"Your games may not be private.", self.cmd(self.a, "set private 0"))
        n2, _ = self.start_match(self.b, self.a, "5 0")
        f.expect(b"You are now observing game %d." % n2, GT)
        self.expect12(f, game=n2)

    def test_an_admin_follower_is_let_in(self):
        root = self.follower(self.user_player(self.srv, "root", PW), self.a.name)
        self.assertIn(b"Your games will be private.", self.cmd(self.a, "set private 1"))
        n, _ = self.start_match(self.a, self.b, "5 0")
        root.expect(b"You are now observing game %d." % n, GT)
        self.expect12(root, game=n)
        self.assertNotIn(b"private game", root.seen)


if __name__ == "__main__":
    main()
