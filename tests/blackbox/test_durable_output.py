"""Durable before visible, for everyone.

A test hook (CHESSD_TEST_SYNC_DELAY_MS) makes the syncer wait before each
fdatasync, as a slow disk would.  A move's own acknowledgement waits for
that flush; a third party who asks about the game right after the move
(moves, refresh) must not learn of it any sooner: its reply is released no
earlier than the mover's acknowledgement.
"""
import os
import re
import time

from games_harness import GT, GamesTestCase, main

DELAY_MS = 2000


class DurableOutputTest(GamesTestCase):

    def stalled_server(self):
        os.environ["CHESSD_TEST_SYNC_DELAY_MS"] = str(DELAY_MS)
        try:
            return self.game_server()
        finally:
            del os.environ["CHESSD_TEST_SYNC_DELAY_MS"]

    @staticmethod
    def wait_all(watch, timeout):
        """watch: {name: (client, regex)}; returns {name: arrival time} once
        each client's unread input matched its regex (polled together, so
        the times are comparable)."""
        seen = {}
        deadline = time.monotonic() + timeout
        while len(seen) < len(watch):
            for name, (c, rx) in watch.items():
                if name in seen:
                    continue
                c._recv(0.005)
                if rx.search(c.buf):
                    seen[name] = time.monotonic()
            if time.monotonic() > deadline:
                raise AssertionError("only %s arrived within %.0f s: %r" % (
                    sorted(seen), timeout, {n: c.buf[-400:] for n, (c, _) in watch.items()}))
        return seen

    def check_third_party(self, command, shows_move):
        srv = self.stalled_server()
        self.assertIn("test hook", srv.log())
        alice, bob, carol = (self.guest_player(srv) for _ in range(3))
        n, _ = self.start_match(alice, bob)
        self.cmd(carol, "moves %d" % n)     # every earlier commit is durable by now
        alice.buf = bob.buf = carol.buf = b""
        t0 = time.monotonic()
        alice.send_line("e4")
        time.sleep(0.3)                     # the move is read and committed by now
        carol.send_line(command % n)
        got = self.wait_all({"ack": (alice, re.compile(rb"<12> [^\n]* P/e2-e4 ")),
                             "third": (carol, shows_move)}, GT)
        self.assertGreater(got["ack"] - t0, DELAY_MS / 1000 * 0.75,
                           "the acknowledgement did not wait for the stalled flush")
        self.assertGreater(got["third"], got["ack"] - 0.25,
                           "%r showed the move %.2f s before the mover's acknowledgement"
                           % (command, got["ack"] - got["third"]))

    def test_moves_waits_for_the_flush(self):
        self.check_third_party("moves %d", re.compile(rb"1\.  e4 "))

    def test_refresh_waits_for_the_flush(self):
        self.check_third_party("refresh %d", re.compile(rb"<12> [^\n]* P/e2-e4 "))


if __name__ == "__main__":
    main()
