#!/usr/bin/env python3
"""moretime N, as lasker's com_moretime: N seconds on the opponent's clock,
N a whole number above zero read by the checked parser (each bad one gets
one line), more than moretime_max_s (600, lasker's) cut to it with
lasker's line.  Only a player adds time, and only to its own opponent.
The time is stored before the reply: after a SIGKILL and a restart the
resumed game has it."""
import re

from fault_shim import ShimMixin
from games_harness import FAST, GT, LS, GamesTestCase, main, parse12


class MoretimeTest(GamesTestCase):

    def test_added_time_survives_a_kill(self):
        srv, a, b = self.two_users()
        self.start_match(a, b, "5 0 unrated")
        self.move(a, b, "e2e4")
        before = self.move(b, a, "e7e5")
        self.assertIn(b"60 seconds were added to your opponents clock", self.cmd(a, "moretime 60"))
        self.expect_line(b, re.escape("Your opponent has added 60 seconds to your clock."))
        # Shown by both: bob's clock is 60 s more than the move left it.
        for c in (a, b):
            out = self.cmd(c, "refresh")
            d = parse12(re.findall(rb"<12> ([^\n\r]*)\n\r", out)[-1])
            self.assertEqual(d["bclock"], before["bclock"] + 60000, d["raw"])
        srv.kill()                              # SIGKILL: no adjournment, no flush
        a.close()
        b.close()
        srv.start()
        a = self.user_player(srv, "alice", "apass1")
        b = self.user_player(srv, "bob", "bpass1")
        self.cmd(a, "resume bob")
        self.expect_line(b, re.escape("alice would like to resume your adjourned game."))
        b.send_line("resume alice")
        b.expect(re.compile(LS + rb"\{Game \d+ \(alice vs\. bob\) Continuing [^\n]*\}\n\r\n\r"
                            rb"<12> ([^\n\r]*)\n\r"), GT)
        d = parse12(b.match.group(1))
        self.assertEqual(d["bclock"], before["bclock"] + 60000, d["raw"])
        self.assertEqual(d["san"], "e5")

    def test_bad_numbers_one_line_each(self):
        srv = self.game_server(config={"moretime_max_s": 5})
        w, b, o = self.guest_player(srv), self.guest_player(srv), self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.cmd(o, "observe %d" % n)
        self.move(w, b, "e2e4")
        d = self.move(b, w, "e7e5")
        positive = b"Moretime requires an integer value greater than zero.\n\r"
        for bad in ("0", "-5", "-99999999999999999999999999", "+0"):
            self.assertEqual(self.cmd(w, "moretime " + bad), positive, bad)
        for junk in ("abc", "5x", "1e3", "0x10"):
            self.assertEqual(self.cmd(w, "moretime " + junk), b"Usage: moretime seconds\n\r", junk)
        self.assertIn(b"Usage: moretime", self.cmd(w, "moretime"))
        # Over the limit (5 here): cut to it, with lasker's line first.
        self.assertEqual(self.cmd(w, "moretime 99999999999999999999999999"),
                         b"Moretime has a maximum limit of 5 seconds.\n\r"
                         b"5 seconds were added to your opponents clock\n\r")
        self.expect_line(b, re.escape("Your opponent has added 5 seconds to your clock."))
        out = self.cmd(b, "refresh")
        got = parse12(re.findall(rb"<12> ([^\n\r]*)\n\r", out)[-1])
        self.assertEqual(got["bclock"], d["bclock"] + 5000)
        # Nobody else adds time: the observer, a player elsewhere, nor to oneself.
        x, y = self.guest_player(srv), self.guest_player(srv)
        self.start_match(x, y, "5 0")
        self.assertRegex(self.cmd(o, "moretime 5"), LS + rb"You are not playing a game\.\n\r\Z")
        self.assertIn(b"5 seconds were added", self.cmd(x, "moretime 5"))
        self.expect_line(y, re.escape("Your opponent has added 5 seconds to your clock."))
        out = self.cmd(w, "refresh")
        now = parse12(re.findall(rb"<12> ([^\n\r]*)\n\r", out)[-1])
        self.assertEqual(now["bclock"], d["bclock"] + 5000, "x's moretime reached another game")
        self.assertLessEqual(now["wclock"], d["wclock"], "w's own clock grew")

    def test_examiner_and_untimed(self):
        srv = self.game_server()
        e = self.guest_player(srv)
        self.assertIn(b"examin", self.cmd(e, "examine").lower())
        self.assertEqual(self.cmd(e, "moretime 10"),
                         b"You cannot use moretime in an examined game.\n\r")
        for verb in ("pause", "unpause", "switch"):
            self.assertEqual(self.cmd(e, verb), b"You are not playing a game.\n\r", verb)
        w, b = self.guest_player(srv), self.guest_player(srv)
        self.start_match(w, b, "0 0")
        self.assertEqual(self.cmd(w, "moretime 10"),
                         b"Your game is untimed: there is no clock to add time to.\n\r")



class MoretimeFaultTest(ShimMixin, GamesTestCase):

    def clock(self, c, field):
        out = self.cmd(c, "refresh")
        return parse12(re.findall(rb"<12> ([^\n\r]*)\n\r", out)[-1])[field]

    def test_time_the_database_refuses_is_not_added(self):
        srv = self.new_server(config=dict(FAST), tls=False)
        self.start_faulty(srv)
        w, b = self.guest_player(srv), self.guest_player(srv)
        self.start_match(w, b, "5 0")
        self.move(w, b, "e2e4")
        self.move(b, w, "e7e5")
        was = self.clock(w, "bclock")
        self.fail_writes("EIO")
        self.assertEqual(self.cmd(w, "moretime 30"),
                         b"The server could not save the added time; no time was added.\n\r")
        self.assertNotIn(b"added", self.cmd(b, "date"))
        self.assertEqual(self.clock(b, "bclock"), was)
        self.allow_writes()
        self.assertIn(b"30 seconds were added", self.cmd(w, "moretime 30"))
        self.assertEqual(self.clock(b, "bclock"), was + 30000)
        self.assertTrue(srv.running())


if __name__ == "__main__":
    main()
