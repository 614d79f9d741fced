#!/usr/bin/env python3
"""Login throttling counts guesses, not waits: however many connections
guess in parallel, a name gets one password check at a time and one per
delay window; failures count per IPv4 /24, connections per IPv4 address."""
import re
import threading
import time

from chessd_harness import ChessdTestCase, Client, TIMEOUT, main

ANSWER = re.compile(rb"\*\*\*\* (Invalid password!|Starting FICS session as \w+) \*\*\*\*")
DELAY_MS = 1000


class Throttle(ChessdTestCase):
    CONFIG = {"login_free_failures": 1, "login_delay_base_ms": DELAY_MS,
              "login_delay_max_ms": DELAY_MS, "login_tries_per_conn": 1000,
              "clients_per_address": 1000}

    def guessers(self, srv, pairs, seconds):
        """One connection per (source, name) guesses wrong passwords in a loop
        for the given time; returns the times of the answers, per connection."""
        answers = [[] for _ in pairs]
        errors = []
        end = time.monotonic() + seconds

        def guess(i, source, name):
            try:
                c = Client(srv.port, source=source, server=srv)
            except OSError as e:
                errors.append(e)
                return
            try:
                c.expect(b"login: ")
                n = 0
                while time.monotonic() < end:
                    c.send_line(name)
                    c.expect(b"password: ")
                    n += 1
                    c.send_line("wrong%d" % n)
                    # Parked guesses still waiting at the end are abandoned.
                    if not self.wait_answer(c, end):
                        break
                    answers[i].append(time.monotonic())
                    c.expect(b"login: ")
            except AssertionError as e:
                errors.append(e)
            finally:
                c.close()

        threads = [threading.Thread(target=guess, args=(i, source, name))
                   for i, (source, name) in enumerate(pairs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        return answers

    @staticmethod
    def wait_answer(c, end):
        """Waits for the answer to a guess until end; False if none came."""
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return False
            try:
                c.expect(b"**** Invalid password! ****", min(left, 0.5))
                return True
            except AssertionError:
                if c.closed:
                    raise

    def attempt(self, srv, source, name, password):
        c = self.connect(srv, source=source)
        c.expect(b"login: ")
        c.send_line(name)
        c.expect(b"password: ")
        start = time.monotonic()
        c.send_line(password)
        out = c.expect(ANSWER)
        return time.monotonic() - start, out

    def test_parallel_connections_get_one_check_per_window(self):
        srv = self.start_server(config=self.CONFIG)
        srv.useradd("alice", "secret1")
        seconds, conns = 6.0, 30
        # Each from its own /24, so only the name's tally can hold them back.
        start = time.monotonic()
        answers = self.guessers(srv, [("127.0.%d.1" % (i + 1), "alice") for i in range(conns)],
                                seconds)
        elapsed = time.monotonic() - start
        checked = sum(len(a) for a in answers)
        # One free failure, then one check per window (each window starts when
        # the previous check ends, so this bound is generous).
        bound = 1 + int(elapsed * 1000 / DELAY_MS) + 1
        self.assertLessEqual(checked, bound, "%d checks in %.1f s from %d connections" % (
            checked, elapsed, conns))
        self.assertGreaterEqual(checked, 3)
        # The server checked what was answered, and at most one more at the end.
        logged = srv.log().count("failed login for alice")
        self.assertGreaterEqual(logged, checked)
        self.assertLessEqual(logged, checked + 1)
        # The answers came one window apart (the first one is free).
        times = sorted(t for a in answers for t in a)
        close = [b - a for a, b in zip(times[1:], times[2:]) if b - a < DELAY_MS / 1000 * 0.5]
        self.assertEqual(close, [], "answers closer than the delay")
        # Once the guessing stops, the owner gets in after one window at most.
        d, out = self.attempt(srv, "127.0.200.1", "alice", "secret1")
        self.assertIn(b"Starting FICS session as alice", out)
        self.assertLess(d, DELAY_MS / 1000 + 3)

    def test_owner_gets_in_during_an_attack_from_its_own_block(self):
        """One check per name at a time would queue the owner behind every
        guesser; from the block it last logged in from, only that block's
        own failures hold the owner back."""
        config = dict(self.CONFIG, login_delay_max_ms=30000, login_ms=120000)
        srv = self.start_server(config=config)
        srv.useradd("alice", "secret1")
        d, out = self.attempt(srv, "127.0.60.1", "alice", "secret1")
        self.assertIn(b"Starting FICS session as alice", out)
        result = {}
        attack = threading.Thread(target=lambda: result.update(answers=self.guessers(
            srv, [("127.0.%d.1" % (i + 1), "alice") for i in range(20)], 12.0)))
        attack.start()
        try:
            time.sleep(4.0)  # the guessers have the name's delay doubling by now
            # Another address of the owner's /24, as a home router hands out.
            d, out = self.attempt(srv, "127.0.60.2", "alice", "secret1")
            self.assertIn(b"Starting FICS session as alice", out)
            self.assertLess(d, 3.0, "the owner waited %.1f s behind the guessers" % d)
            # Someone else's block gets no such pass.
            c = self.connect(srv, source="127.0.61.1")
            c.expect(b"login: ")
            c.send_line("alice")
            c.expect(b"password: ")
            start = time.monotonic()
            c.send_line("secret1")
            with self.assertRaises(AssertionError):
                c.expect(ANSWER, 1.5)
            self.assertGreater(time.monotonic() - start, 1.4)
        finally:
            attack.join()
        # The attack still got its one check per window.
        checked = sum(len(a) for a in result["answers"])
        self.assertLessEqual(checked, 1 + 12 + 2)

    def test_one_block_gets_one_check_per_window_across_names(self):
        # A running check counts as a failure of its /24 at once: parallel
        # guesses on many names from one /24 do not all pass its delay.
        srv = self.start_server(config=self.CONFIG)
        names = ["user%s" % chr(ord("a") + i) for i in range(20)]
        for n in names:
            srv.useradd(n, "secret1")
        seconds = 5.0
        start = time.monotonic()
        answers = self.guessers(srv, [("127.0.5.%d" % (i + 1), n) for i, n in enumerate(names)],
                                seconds)
        elapsed = time.monotonic() - start
        checked = sum(len(a) for a in answers)
        bound = 1 + int(elapsed * 1000 / DELAY_MS) + 1
        self.assertLessEqual(checked, bound, "%d checks in %.1f s" % (checked, elapsed))
        self.assertGreaterEqual(checked, 3)

    def test_failures_count_per_slash24(self):
        srv = self.start_server(config={"login_free_failures": 1, "login_delay_base_ms": 1500,
                                        "login_delay_max_ms": 1500})
        for n in ("bob", "carol", "dave"):
            srv.useradd(n, "secret1")
        d, out = self.attempt(srv, "127.0.7.1", "bob", "wrong")
        self.assertIn(b"Invalid password!", out)
        # Another address of that /24, another name: delayed.
        d, out = self.attempt(srv, "127.0.7.2", "carol", "secret1")
        self.assertIn(b"Starting FICS session as carol", out)
        self.assertGreaterEqual(d, 1.0)
        # The right password was no failure: the block is not charged for it.
        d, out = self.attempt(srv, "127.0.8.1", "dave", "secret1")
        self.assertIn(b"Starting FICS session as dave", out)
        self.assertLess(d, 1.2)

    def test_success_is_not_charged_to_the_block(self):
        srv = self.start_server(config={"login_free_failures": 2, "login_delay_base_ms": 1500,
                                        "login_delay_max_ms": 1500})
        srv.useradd("erin", "secret1")
        for i in range(4):
            d, out = self.attempt(srv, "127.0.9.%d" % (i + 1), "erin", "secret1")
            self.assertIn(b"Starting FICS session as erin", out)
            self.assertLess(d, 1.2, "login %d was delayed" % i)

    def test_connection_cap_per_ipv4_address(self):
        srv = self.start_server(config={"clients_per_address": 2})
        mine = [self.connect(srv, source="127.0.11.1") for _ in range(2)]
        for c in mine:
            c.expect(b"login: ")
        refused = self.connect(srv, source="127.0.11.1")
        self.assertIn(b"Too many connections from your address", refused.expect_closed())
        # Same /24, another address: its own count.
        other = self.connect(srv, source="127.0.11.2")
        other.login_guest()


if __name__ == "__main__":
    main()
