#!/usr/bin/env python3
"""What one user writes and another reads: no characters that reorder,
hide or break the reader's text (C1 controls, bidi overrides and isolates,
line and paragraph separators, C0 controls and ESC), on every relay path.
And a channel is spoken in only by its members; channel 0 by admins."""
import re

from games_harness import GamesTestCase, main

# Each of these must vanish between "safe" and "text".
HIDDEN = ("\u0085\u009b\u0080\u009f"            # C1: NEL, CSI, the first and the last
          "\u202a\u202b\u202c\u202d\u202e"       # bidi embeddings and overrides
          "\u2066\u2067\u2068\u2069"             # bidi isolates
          "\u2028\u2029"                         # line and paragraph separators
          "\x1b[2J\x07")                         # C0: ESC (its "[2J" stays as text), BEL
PAYLOAD = "safe" + HIDDEN + "text"
SEEN = b"safe[2Jtext"
BAD_BYTES = [c.encode() for c in HIDDEN if c not in "[2J"]


class RelayedText(GamesTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.game_server()
        self.srv.useradd("alice", "secret1", admin=True)
        self.srv.useradd("bob", "secret2")
        self.a = self.user_player(self.srv, "alice", "secret1")
        self.b = self.user_player(self.srv, "bob", "secret2")

    def assert_clean(self, out):
        """out carries the payload cleaned, and none of its hidden bytes."""
        self.assertIn(SEEN, out)
        for bad in BAD_BYTES:
            self.assertNotIn(bad, out, "%r left in %r" % (bad, out))

    def relay(self, sender, line, receiver, expect):
        sender.send_raw(line.encode() + b"\n")
        self.assert_clean(receiver.expect(re.compile(expect.encode() + rb"[^\n]*\n\r")))

    def test_tell_and_xtell(self):
        self.relay(self.a, "tell bob " + PAYLOAD, self.b, "alice\\(\\*\\) tells you: ")
        self.relay(self.a, "xtell bob " + PAYLOAD, self.b, "alice\\(\\*\\) tells you: ")
        self.relay(self.b, "tell alice " + PAYLOAD, self.a, "bob tells you: ")

    def test_channel_tell(self):
        self.cmd(self.a, "+channel 77")
        self.cmd(self.b, "+channel 77")
        self.relay(self.a, "tell 77 " + PAYLOAD, self.b, re.escape("alice(*)(77): "))

    def test_shout(self):
        self.relay(self.a, "shout " + PAYLOAD, self.b, "alice\\(\\*\\) shouts: ")

    def test_say_kibitz_whisper(self):
        g = self.guest_player(self.srv)
        n, _ = self.start_match(self.a, self.b, "5 0")
        self.assertIn(b"You are now observing game", self.cmd(g, "observe %d" % n))
        self.relay(self.a, "say " + PAYLOAD, self.b, "alice\\(\\*\\)\\[%d\\] says: " % n)
        self.relay(self.a, "kibitz " + PAYLOAD, g, "alice[^ ]* kibitzes: ")
        self.relay(self.a, "kibitz " + PAYLOAD, self.b, "alice[^ ]* kibitzes: ")
        self.relay(self.b, "whisper " + PAYLOAD, g, "bob[^ ]* whispers: ")

    def test_tourney_name(self):
        out = self.cmd(self.a, "tourney create Club" + HIDDEN.replace("[2J", "") + "Cup rr 0 5 0")
        self.assertIn(b"Created tourney", out)
        listing = self.cmd(self.b, "tourney list")
        self.assertIn(b"ClubCup", listing)
        for bad in BAD_BYTES:
            self.assertNotIn(bad, listing)

    def test_news(self):
        self.assertIn(b"News item added.", self.cmd(self.a, "addnews " + PAYLOAD))
        self.assert_clean(self.cmd(self.b, "news"))


class ChannelMembership(GamesTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.game_server()
        self.srv.useradd("root", "secret1", admin=True)
        self.srv.useradd("bob", "secret2")
        self.admin = self.user_player(self.srv, "root", "secret1")
        self.bob = self.user_player(self.srv, "bob", "secret2")

    def test_channel_0_is_for_admins(self):
        self.assertIn(b"[0] added to your channel list.", self.cmd(self.admin, "+channel 0"))
        for sender in (self.bob, self.guest_player(self.srv)):
            self.assertEqual(self.cmd(sender, "tell 0 let me in"),
                             b"Only admins may send tells to channel 0.\n\r")
            self.assertEqual(self.cmd(sender, "xtell 0 let me in"),
                             b"Only admins may send tells to channel 0.\n\r")
        self.assertNotIn(b"let me in", self.admin.read_for(0.3))
        self.assertIn(b"(told 0 players in channel 0", self.cmd(self.admin, "tell 0 admins only"))

    def test_members_only(self):
        self.assertEqual(self.cmd(self.bob, "tell 77 from outside"), b"You are not in channel 77.\n\r")
        self.assertEqual(self.cmd(self.admin, "tell 1 from outside"), b"You are not in channel 1.\n\r")
        self.cmd(self.admin, "+channel 77")
        self.assertNotIn(b"from outside", self.admin.read_for(0.3))
        self.cmd(self.bob, "+channel 77")
        self.assertIn(b"(told 1 players in channel 77)", self.cmd(self.bob, "tell 77 inside"))
        self.admin.expect(b"bob(77): inside")


if __name__ == "__main__":
    main()
