"""A player disconnects mid-game: the opponent and observers are told, the
clocks stop for the grace period (reconnect_grace_ms, 60 s by default), and a
registered player who logs back in within it continues the game
("Continuing" lines and the board).  When the grace period runs out the
opponent may claim the win ("flag" -> "forfeits by disconnection"); that test
shortens the period with the reconnect_grace_ms setting.
"""
import os
import re
import time
import unittest

from games_harness import FAST, GT, LS, GamesTestCase, main, parse12



class DisconnectTest(GamesTestCase):

    def users_server(self, **settings):
        cfg = dict(FAST)
        cfg.update(settings)
        srv = self.new_server(config=cfg, tls=False)
        srv.useradd("alice", "alicepw1")
        srv.useradd("bob", "bobpw1")
        srv.start()
        a = self.user_player(srv, "alice", "alicepw1")
        b = self.user_player(srv, "bob", "bobpw1")
        return srv, a, b

    def test_return_within_grace_clock_stopped(self):
        srv, a, b = self.users_server()
        o = self.guest_player(srv)
        n, _ = self.start_match(a, b, "0.05 0 unrated")     # 3 seconds each
        self.cmd(o, "observe %d" % n)
        self.play_moves(a, b, ["e4", "e5", "Nf3"], [o])
        # Bob, to move with under 3 s left, drops the connection.
        b.close()
        self.expect_line(a, re.escape("Your opponent, bob, has lost contact or quit.  The clocks are "
                                      "stopped; they have 60 seconds to return."))
        self.expect_line(o, re.escape("bob has lost contact; game %d is paused." % n))
        t_left = time.monotonic()
        # Well past bob's clock: no flag falls, and alice cannot claim one.
        out = a.read_for(4.5)
        self.assertNotIn(b"{Game", out)
        self.assertNotIn(b"{Game", o.read_for(0.1))
        self.assertIn(b"Your opponent is not out of time.", self.cmd(a, "flag"))
        # bob comes back (a new connection, same account).
        b = self.connect(srv)
        b.login("bob", "bobpw1", timeout=GT)
        self.assertLess(time.monotonic() - t_left, 60)
        b.expect(re.compile(LS + rb"Creating: alice \(----\) bob \(----\) unrated lightning ([^\n\r]*)\n\r"
                            rb"\{Game %d \(alice vs\. bob\) Continuing unrated lightning match\.\}\n\r"
                            rb"\n\r<12> ([^\n\r]*)\n\r" % n), GT)
        d = parse12(b.match.group(2))
        self.assertEqual((d["side"], d["san"], d["relation"], d["moveno"]), ("B", "Nf3", 1, 2))
        # (the new session has no "iset ms 1": clocks in seconds) bob's clock did not run out.
        self.assertGreaterEqual(d["bclock"], 1, d["raw"])
        self.assertLessEqual(d["bclock"], 3, d["raw"])
        self.expect_line(a, re.escape("bob has returned; the game continues."))
        a.expect(b"Creating: alice (----) bob (----) unrated lightning", GT)
        da = self.expect12(a)
        self.assertEqual((da["relation"], da["san"]), (-1, "Nf3"))
        self.assertGreater(da["bclock"], 1000, da["raw"])     # alice has ms
        self.assertEqual(da["ticking"], 1)
        # The clock runs again: bob does not move and loses on time.
        t0 = time.monotonic()
        self.assertEqual(self.end_line(a, GT + 5), (n, "alice", "bob", "bob forfeits on time", "1-0"))
        self.assertGreaterEqual(time.monotonic() - t0, 0.5)
        self.assertEqual(self.end_line(b)[3:], ("bob forfeits on time", "1-0"))
        self.assertEqual(self.end_line(o)[3:], ("bob forfeits on time", "1-0"))

    def test_moves_refused_while_paused(self):
        srv, a, b = self.users_server()
        n, _ = self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["e4", "e5"])
        # alice (to move) leaves; bob cannot move for her, nor move at all.
        a.close()
        self.expect_line(b, re.escape("Your opponent, alice, has lost contact or quit.  The clocks "
                                      "are stopped; they have 60 seconds to return."))
        self.assertIn(b"The game is paused until alice returns.", self.cmd(b, "Nc6"))
        a = self.connect(srv)
        a.login("alice", "alicepw1", timeout=GT)
        a.expect(b"Creating: alice (----) bob (----) unrated blitz 5 0", GT)
        d = self.expect12(a)
        self.assertEqual((d["relation"], d["side"], d["san"]), (1, "W", "e5"))
        self.expect_line(b, re.escape("alice has returned; the game continues."))
        b.expect(b"Creating: alice (----) bob (----) unrated blitz 5 0", GT)
        self.assertEqual(self.expect12(b)["relation"], -1)
        self.move(a, b, "Nf3", san="Nf3")
        out = self.cmd(b, "moves")
        self.assertRegex(out, rb"  1\.  e4 +\(\S+\) +e5 +\(\S+\)\s*\n\r  2\.  Nf3 ")

    def test_disconnect_on_move_one_aborts(self):
        srv, a, b = self.users_server()
        n, _ = self.start_match(a, b, "5 0 unrated")
        self.move(a, b, "e4")
        b.close()
        self.assertEqual(self.end_line(a), (n, "alice", "bob", "Game aborted on move 1", "*"))

    def test_both_disconnect_adjourns(self):
        srv, a, b = self.users_server()
        n, _ = self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["e4", "e5", "Nf3"])
        a.close()
        self.expect_line(b, r"Your opponent, alice, has lost contact or quit\..*")
        b.close()
        deadline = time.monotonic() + GT
        while "adjourned: Game adjourned when both players disconnected" not in srv.log():
            self.assertLess(time.monotonic(), deadline, srv.log())
            time.sleep(0.05)
        a = self.user_player(srv, "alice", "alicepw1")
        out = self.cmd(a, "stored")
        self.assertRegex(out, rb" 1: W bob +N +\[ bu  5   0\]")

    def test_grace_expires_then_flag_wins(self):
        srv, a, b = self.users_server(reconnect_grace_ms=1500)
        n, _ = self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["e4", "e5", "Nf3"])
        t_left = time.monotonic()
        b.close()
        self.expect_line(a, re.escape("Your opponent, bob, has lost contact or quit.  The clocks are "
                                      "stopped; they have 2 seconds to return."))
        self.assertIn(b"Your opponent is not out of time.", self.cmd(a, "flag"))
        self.expect_line(a, re.escape('bob has not come back.  You may claim the win with "flag", '
                                      'adjourn the game with "adjourn", abort it with "abort", or '
                                      'ask an administrator to decide with "adjudicate".'), GT)
        self.assertGreaterEqual(time.monotonic() - t_left, 1.4)
        a.send_line("flag")
        self.assertEqual(self.end_line(a),
                         (n, "alice", "bob", "bob forfeits by disconnection", "1-0"))

    def test_adjudication_requested_and_decided(self):
        srv, a, b = self.users_server(reconnect_grace_ms=500)
        srv.useradd("judge", "judgepw1", admin=True)
        n, _ = self.start_match(a, b, "5 0 rated")
        self.play_moves(a, b, ["e4", "e5", "Nf3"])
        b.close()
        self.expect_line(a, r"bob has not come back\..*", GT)
        a.send_line("adjudicate")
        self.assertEqual(self.end_line(a),
                         (n, "alice", "bob", "Game adjourned for adjudication", "*"))
        judge = self.user_player(srv, "judge", "judgepw1")
        out = self.cmd(judge, "adjudicate")
        m = re.search(rb"\s(\d+): alice vs\. bob, rated blitz 5\+0", out)
        self.assertIsNotNone(m, out)
        self.assertIn(b"Only administrators adjudicate games.",
                      self.cmd(a, "adjudicate %s 1-0" % m.group(1).decode()))
        out = self.cmd(judge, "adjudicate %s 1-0" % m.group(1).decode())
        self.assertIn(b"(alice vs. bob): 1-0.", out)
        self.expect_line(a, re.escape("Your game alice vs. bob was adjudicated by judge: 1-0."))
        self.assertRegex(self.cmd(a, "history"), rb"\+ +0 W +0 bob +\[ br  5   0\] --- Adj .*\n\r")
        self.assertRegex(self.cmd(a, "finger"), rb"Blitz +\d{4}P +[\d.]+ +1 +0 +0 +1")
        self.assertIn(b"There is no adjourned game", self.cmd(judge, "adjudicate %s 0-1" %
                                                               m.group(1).decode()))


if __name__ == "__main__":
    main()
