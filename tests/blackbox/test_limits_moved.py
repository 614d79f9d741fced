"""Limits that moved into limit.h and became settings: seeks per user."""
from games_harness import GamesTestCase, main


class SeeksPerUserTest(GamesTestCase):

    def post(self, c, terms):
        return self.cmd(c, "seek %s" % terms)

    def test_default_is_three(self):
        srv = self.game_server()
        a = self.guest_player(srv)
        for terms in ("5 0", "3 0", "1 0"):
            self.assertIn(b"Your seek has been posted with index", self.post(a, terms))
        out = self.post(a, "10 0")
        self.assertIn(b"You can only have 3 active seeks.\n\r", out)
        self.assertNotIn(b"Your seek has been posted", out)

    def test_setting_lowers_it(self):
        srv = self.game_server({"seeks_per_user": 1})
        a, b = self.guest_player(srv), self.guest_player(srv)
        self.assertIn(b"Your seek has been posted with index", self.post(a, "5 0"))
        out = self.post(a, "3 0")
        self.assertIn(b"You can only have 1 active seeks.\n\r", out)
        self.assertNotIn(b"Your seek has been posted", out)
        # The cap is per player: another may still seek.
        self.assertIn(b"Your seek has been posted with index", self.post(b, "3 0"))


if __name__ == "__main__":
    main()
