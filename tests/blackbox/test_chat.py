#!/usr/bin/env python3
"""Talking: tell, channels, shout, who, finger (FICS.md "Chat" formats)."""
import re

from chessd_harness import ChessdTestCase, main


class Chat(ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.start_server()

    def test_tell_between_guests(self):
        a, b = self.guest(self.srv), self.guest(self.srv)
        self.assertEqual(a.command("tell %s hello there, friend" % b.name),
                         b"(told %s)\n\rfics%% " % b.name.encode())
        self.assertEqual(b.expect_prompt(),
                         b"\n\r%s(U) tells you: hello there, friend\n\rfics%% " % a.name.encode())
        # Names are matched without regard to case; t is tell.
        self.assertEqual(b.command("t %s back" % a.name.lower()),
                         b"(told %s)\n\rfics%% " % a.name.encode())
        a.expect(b"%s(U) tells you: back\n\r" % b.name.encode())

    def test_tell_between_registered(self):
        self.srv.useradd("alice", "secret1")
        self.srv.useradd("bob", "secret2", admin=True)
        a = self.user(self.srv, "alice", "secret1")
        b = self.user(self.srv, "bob", "secret2")
        self.assertEqual(a.command("tell bob hi bob"), b"(told bob)\n\rfics% ")
        b.expect(b"\n\ralice tells you: hi bob\n\rfics% ")
        b.command("tell alice hi alice")
        a.expect(b"\n\rbob(*) tells you: hi alice\n\rfics% ")

    def test_tell_errors(self):
        a = self.guest(self.srv)
        self.assertEqual(a.command("tell nobody hi"),
                         b"No user named 'nobody' is logged in.\n\rfics% ")
        self.assertEqual(a.command("tell . hi"), b"No previous tell.\n\rfics% ")
        self.assertEqual(a.command("tell"), b"Usage: tell <name|channel|.> <message>\n\rfics% ")
        self.assertEqual(a.command("tell nobody"), b"Usage: tell <name|channel|.> <message>\n\rfics% ")

    def test_tell_dot_goes_to_last(self):
        a, b, c = (self.guest(self.srv) for _ in range(3))
        a.command("tell %s first" % b.name)
        b.expect(b"tells you: first")
        self.assertEqual(a.command("tell . second"), b"(told %s)\n\rfics%% " % b.name.encode())
        b.expect(b"%s(U) tells you: second" % a.name.encode())
        # xtell does not change the target of "tell .".
        a.command("xtell %s aside" % c.name)
        c.expect(b"tells you: aside")
        a.command("tell . third")
        b.expect(b"tells you: third")
        # ".text" is "tell . text".
        a.command(".fourth")
        b.expect(b"%s(U) tells you: fourth" % a.name.encode())
        self.assertEqual(c.read_for(0.2).count(b"tells you"), 0)

    def test_channels(self):
        a, b, c = (self.guest(self.srv) for _ in range(3))
        self.assertEqual(a.command("+channel 77"), b"[77] added to your channel list.\n\rfics% ")
        self.assertEqual(a.command("+channel 77"), b"[77] is already on your channel list.\n\rfics% ")
        self.assertEqual(b.command("+channel 77"), b"[77] added to your channel list.\n\rfics% ")
        self.assertEqual(a.command("tell 77 hello channel"),
                         b"(told 1 players in channel 77)\n\rfics% ")
        b.expect(b"\n\r%s(U)(77): hello channel\n\rfics%% " % a.name.encode())
        # A channel with a name.
        a.command("+channel 50")
        b.command("+channel 50")
        self.assertEqual(b.command("tell 50 chat here"),
                         b'(told 1 players in channel 50 "Chat")\n\rfics% ')
        a.expect(b"%s(U)(50): chat here" % b.name.encode())
        # Non-members neither hear it nor send to it.
        self.assertEqual(c.command("tell 77 from outside"), b"You are not in channel 77.\n\rfics% ")
        self.assertNotIn(b"from outside", a.read_for(0.2) + b.read_for(0.2))
        # inchannel.
        names = sorted([a.name, b.name], key=str.lower)
        self.assertEqual(c.command("inchannel 77"),
                         b"Channel 77: %s(U) %s(U)\n\r2 players are in channel 77.\n\rfics%% " % (
                             names[0].encode(), names[1].encode()))
        self.assertEqual(c.command("inchannel %s" % a.name),
                         b"%s is in the following channels:\n\r50 77 \n\rfics%% " % a.name.encode())
        everything = c.command("inchannel")
        self.assertIn(b'Channel 50:', everything)
        self.assertIn(b"Channel 77:", everything)
        # Leaving.
        self.assertEqual(b.command("-channel 77"), b"[77] removed from your channel list.\n\rfics% ")
        self.assertEqual(b.command("-channel 77"), b"[77] is not in your channel list.\n\rfics% ")
        self.assertEqual(a.command("tell 77 anyone?"), b"(told 0 players in channel 77)\n\rfics% ")
        self.assertNotIn(b"anyone?", b.read_for(0.2))
        # Limits on channel numbers.
        self.assertEqual(a.command("+channel 256"), b"The channel number must be from 0 to 255.\n\rfics% ")
        self.assertEqual(a.command("+channel x"), b"The channel number must be from 0 to 255.\n\rfics% ")
        self.assertEqual(a.command("+channel 0"), b"Only admins may join channel 0.\n\rfics% ")

    def test_shout(self):
        self.srv.useradd("alice", "secret1")
        self.srv.useradd("bob", "secret2")
        a = self.user(self.srv, "alice", "secret1")
        b = self.user(self.srv, "bob", "secret2")
        g = self.guest(self.srv)
        self.assertEqual(g.command("shout hi all"),
                         b"Only registered players can use the shout command.\n\rfics% ")
        self.assertEqual(g.command("!hi all"),
                         b"Only registered players can use the shout command.\n\rfics% ")
        self.assertEqual(a.command("shout hello everyone"), b"(2) alice shouts: hello everyone\n\rfics% ")
        b.expect(b"\n\ralice shouts: hello everyone\n\rfics% ")
        g.expect(b"\n\ralice shouts: hello everyone\n\rfics% ")
        # Someone not listening.
        self.assertEqual(b.command("set shout 0"), b"You will not hear shouts.\n\rfics% ")
        self.assertEqual(a.command("!again"), b"(1) alice shouts: again\n\rfics% ")
        g.expect(b"alice shouts: again")
        self.assertNotIn(b"shouts", b.read_for(0.2))

    def test_who(self):
        self.srv.useradd("alice", "secret1")
        a = self.user(self.srv, "alice", "secret1")
        g = self.guest(self.srv)
        reply = a.command("who")
        self.assertIn(b"alice\n\r", reply)
        self.assertIn(b"%s(U)\n\r" % g.name.encode(), reply)
        self.assertRegex(reply, rb"\n\r2 players displayed \(of 2\)\.[^\n]*\n\rfics% $")
        g.send_line("quit")
        g.expect_closed()
        reply = a.command("w")
        self.assertNotIn(g.name.encode(), reply)
        self.assertIn(b"1 players displayed (of 1).", reply)

    def test_finger(self):
        self.srv.useradd("alice", "secret1")
        self.srv.useradd("bob", "secret2")
        self.srv.useradd("carol", "secret3")
        a = self.user(self.srv, "alice", "secret1")
        b = self.user(self.srv, "bob", "secret2")
        b.send_line("quit")
        b.expect_closed()
        g = self.guest(self.srv)
        # Online.
        reply = g.command("finger alice")
        self.assertTrue(reply.startswith(b"Finger of alice:\n\r\n\rOn for: "), reply)
        self.assertIn(b"Registered player.\n\r", reply)
        reply = a.command("finger %s" % g.name)
        self.assertTrue(reply.startswith(b"Finger of %s(U):\n\r" % g.name.encode()), reply)
        self.assertIn(b"Unregistered player (guest).", reply)
        # Offline, logged in before.
        reply = g.command("finger bob")
        self.assertTrue(reply.startswith(b"Finger of bob:\n\r\n\r"), reply)
        self.assertRegex(reply, rb"Last disconnected: \w{3} \w{3} [ \d]\d, \d\d:\d\d UTC \d{4}")
        self.assertIn(b"Registered player.", reply)
        # Offline, never logged in.
        reply = g.command("f carol")
        self.assertTrue(reply.startswith(b"Finger of carol:\n\r\n\rHas never logged in."), reply)
        self.assertEqual(g.command("finger nobody"),
                         b"There is no player matching that name.\n\rfics% ")

    def test_set_tell_0_blocks_guests(self):
        self.srv.useradd("alice", "secret1")
        self.srv.useradd("bob", "secret2")
        a = self.user(self.srv, "alice", "secret1")
        b = self.user(self.srv, "bob", "secret2")
        g = self.guest(self.srv)
        self.assertEqual(a.command("set tell 0"), b"You will not hear tells from unregistered users.\n\rfics% ")
        self.assertEqual(g.command("tell alice psst"),
                         b"Player \"alice\" isn't listening to unregistered tells.\n\rfics% ")
        self.assertEqual(b.command("tell alice registered may"), b"(told alice)\n\rfics% ")
        out = a.expect(b"bob tells you: registered may")
        self.assertNotIn(b"psst", out)
        a.command("set tell 1")
        g.command("tell alice now?")
        a.expect(b"%s(U) tells you: now?" % g.name.encode())

    def test_set_ctell_0_blocks_guests_in_channels(self):
        self.srv.useradd("alice", "secret1")
        a = self.user(self.srv, "alice", "secret1")
        g = self.guest(self.srv)
        a.command("+channel 77")
        a.command("set ctell 0")
        g.command("+channel 77")
        self.assertEqual(g.command("tell 77 psst"), b"(told 0 players in channel 77)\n\rfics% ")
        self.assertNotIn(b"psst", a.read_for(0.2))


if __name__ == "__main__":
    main()
