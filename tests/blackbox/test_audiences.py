#!/usr/bin/env python3
"""Who hears what, kept as sets the server updates on each change: a
variable turned off stops the news at once, a channel left stops its tells,
a session gone is told nothing and counted nowhere, channel listings stay
in name order, and follow keeps to the identity followed, not its name."""
import re

from games_harness import GT, GamesTestCase, main


class AudienceTest(GamesTestCase):

    def unregistered(self, srv, name):
        c = self.connect(srv)
        c.login_unregistered(name, GT)
        return self.setup_client(c)

    def test_pin_follows_the_variable_both_ways(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        self.cmd(w, "set pin 1")
        a = self.guest_player(srv)
        w.expect(b"[%s has connected.]\n\r" % a.name.encode(), GT)
        self.cmd(w, "set pin 0")
        self.cmd(w, "iset pin 1")
        b = self.guest_player(srv)
        w.expect(b"<wa> %s\n\r" % b.name.encode(), GT)
        self.cmd(w, "iset pin 0")
        c = self.guest_player(srv)
        c.send_line("quit")
        srv.wait_log("%s logged out" % c.name)
        self.assertNotIn(c.name.encode(), self.cmd(w, "date"))

    def test_channel_members_come_and_go(self):
        srv = self.game_server()
        names = ["zed", "amy", "mia", "bob"]
        cs = [self.unregistered(srv, n) for n in names]
        for c in cs:
            self.assertIn(b"[77] added", self.cmd(c, "+channel 77"))
        srv.useradd("carl", "carlpw1")
        talker = self.user_player(srv, "carl", "carlpw1")
        self.cmd(talker, "+channel 77")
        # listed in name order whatever the order they joined in
        out = self.cmd(talker, "inchannel 77")
        self.assertIn(b"Channel 77: amy(U) bob(U) carl mia(U) zed(U)\n\r5 players are in channel 77.", out)
        self.assertIn(b"(told 4 players in channel 77)", self.cmd(talker, "tell 77 hello"))
        for c in cs:
            c.expect(b"carl(77): hello", GT)
        # one leaves, one logs out: neither is told nor counted
        self.cmd(cs[1], "-channel 77")
        cs[2].send_line("quit")
        srv.wait_log("mia logged out")
        self.assertIn(b"(told 2 players in channel 77)", self.cmd(talker, "tell 77 again"))
        self.assertNotIn(b"again", cs[1].read_for(0.3))
        self.assertIn(b"Channel 77: bob(U) carl zed(U)\n\r3 players are in channel 77.",
                      self.cmd(talker, "inchannel 77"))
        # joining again puts them back
        self.cmd(cs[1], "+channel 77")
        self.assertIn(b"(told 3 players in channel 77)", self.cmd(talker, "tell 77 third"))
        cs[1].expect(b"carl(77): third", GT)
        # inchannel alone lists the occupied channels only
        out = self.cmd(talker, "inchannel")
        self.assertEqual(re.findall(rb"Channel (\d+)", out), [b"77"])
        # an empty channel lists nobody (and, under UBSan, sorts nothing)
        self.assertIn(b"Channel 78 is empty.", self.cmd(talker, "inchannel 78"))

    def test_who_keeps_up_with_logins_and_logouts(self):
        srv = self.game_server()
        viewer = self.unregistered(srv, "kim")
        names = lambda: re.findall(rb"\n?(\w+)\(U\)\n", self.cmd(viewer, "who"))
        self.assertEqual(names(), [b"kim"])
        cs = {n: self.unregistered(srv, n) for n in ("zoe", "abe", "lee")}
        self.assertEqual(names(), [b"abe", b"kim", b"lee", b"zoe"])
        cs["lee"].send_line("quit")
        srv.wait_log("lee logged out")
        self.unregistered(srv, "bea")
        self.assertEqual(names(), [b"abe", b"bea", b"kim", b"zoe"])
        self.assertIn(b"4 players displayed (of 4)", self.cmd(viewer, "who"))

    def test_seek_removal_stops_with_the_variable(self):
        srv = self.game_server()
        w, seeker = self.guest_player(srv), self.guest_player(srv)
        self.cmd(w, "iset seekinfo 1")
        self.cmd(w, "iset seekremove 1")
        self.cmd(seeker, "seek 5 0 unrated")
        w.expect(re.compile(rb"<s> (\d+) w=%s " % seeker.name.encode()), GT)
        self.cmd(w, "iset seekremove 0")
        self.cmd(seeker, "unseek")
        self.assertNotIn(b"<sr>", self.cmd(w, "date"))

    def test_follow_keeps_to_the_session_not_the_name(self):
        srv = self.game_server()
        f = self.guest_player(srv)
        first = self.unregistered(srv, "bobby")
        self.assertIn(b"You will now be following bobby's games.", self.cmd(f, "follow bobby"))
        first.send_line("quit")
        srv.wait_log("bobby logged out")
        # someone else under the same name is not the player followed
        other, opp = self.unregistered(srv, "bobby"), self.guest_player(srv)
        self.start_match(other, opp, "5 0 unrated")
        self.assertNotIn(b"You are now observing", f.read_for(0.5) + self.cmd(f, "date"))

    def test_follow_keeps_to_the_account_across_logins(self):
        srv = self.game_server()
        srv.useradd("alice", "alicepw1")
        f = self.guest_player(srv)
        a = self.user_player(srv, "alice", "alicepw1")
        self.cmd(f, "follow alice")
        a.send_line("quit")
        srv.wait_log("alice logged out")
        a, b = self.user_player(srv, "alice", "alicepw1"), self.guest_player(srv)
        n, _ = self.start_match(a, b, "5 0 unrated")
        f.expect(b"You are now observing game %d." % n, GT)


if __name__ == "__main__":
    main()
