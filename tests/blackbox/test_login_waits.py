"""Logins the server keeps waiting are neither dropped nor deafened.

- The unauthenticated-idle timer counts only time the server waits for the
  client: a login whose answer is delayed by the failed-login back-off for
  longer than unauth_idle_ms gets its answer, not "Idle too long".
- A delayed login whose turn comes while the password queue is full is
  told the server is busy, and reads its input again: the next name it
  types gets an answer.
- Busy is no failed login: the check never ran, so trying again at once
  owes no delay.

A check starts only when neither its name nor its /24 owes a delay, and one
per name at a time, so a full queue takes many names from many blocks: here
a queue of FLOOD_QUEUE on one worker, kept full by FLOOD accounts with dear
stored hashes, each logging in from its own /24.
"""
import base64
import hashlib
import os
import re
import select
import sqlite3
import sys
import time

from chessd_harness import ChessdTestCase, main

IDLE_MS = 1000
DELAY_MS = 3000
LONG_DELAY_MS = 60000
FLOOD = 12
FLOOD_QUEUE = 2
FLOOD_PASS = "fpass1"


def dear_hash(password):
    """A stored scrypt string at the most work the server verifies (N*r*p
    at its 256 MiB bound, eight times a new hash's): most of a second a check."""
    salt = os.urandom(16)
    key = hashlib.scrypt(password.encode(), salt=salt, n=1 << 14, r=8, p=16,
                         maxmem=64 << 20, dklen=32)
    return "scrypt$14$8$16$%s$%s" % (base64.b64encode(salt).decode(),
                                     base64.b64encode(key).decode())


class LoginWaitsTest(ChessdTestCase):

    def delayed_server(self, **extra):
        cfg = {"unauth_idle_ms": IDLE_MS, "login_free_failures": 0,
               "login_delay_base_ms": DELAY_MS, "login_delay_max_ms": DELAY_MS,
               "login_tries_per_conn": 10}
        cfg.update(extra)
        srv = self.start_server(config=cfg, tls=False)
        srv.useradd("alice", "apass1")
        srv.useradd("bob", "bpass1")
        return srv

    def fail_once(self, srv, source):
        """A wrong password for alice: every later answer for alice is delayed."""
        c = self.connect(srv, source=source)
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        c.send_line("wrong")
        c.expect(b"**** Invalid password! ****")
        c.close()

    def test_delayed_answer_outlives_the_idle_timer(self):
        srv = self.delayed_server()
        self.fail_once(srv, "127.0.0.2")
        c = self.connect(srv, source="127.0.0.3")
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        t0 = time.monotonic()
        c.send_line("apass1")
        out = c.expect(b"**** Starting FICS session as alice ****", DELAY_MS / 1000 + 20)
        self.assertNotIn(b"Idle too long", out)
        self.assertGreater(time.monotonic() - t0, DELAY_MS / 1000 * 0.8, "no delay: no test")

    def test_idle_timer_still_runs_after_the_answer(self):
        srv = self.delayed_server()
        self.fail_once(srv, "127.0.0.2")
        c = self.connect(srv, source="127.0.0.3")
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        c.send_line("wrong")
        c.expect(b"**** Invalid password! ****", DELAY_MS / 1000 + 20)
        t0 = time.monotonic()
        c.expect(b"**** Idle too long before logging in ****", 20)
        self.assertGreater(time.monotonic() - t0, IDLE_MS / 1000 * 0.8)

    def flood_server(self, **extra):
        """A login queue of FLOOD_QUEUE on one worker, and FLOOD accounts
        whose stored hashes cost the most the server verifies: while the
        flood lasts the queue is full but for the moment between one check
        ending and a busy flood client submitting the next."""
        cfg = {"unauth_idle_ms": 30000, "login_ms": 600000,
               "commands_per_sec": 1000, "command_burst": 1000,
               "hasher_threads": 1, "hasher_queue": FLOOD_QUEUE}
        cfg.update(extra)
        srv = self.delayed_server(**cfg)
        names = ["flood" + chr(ord("a") + i) for i in range(FLOOD)]
        for name in names:
            srv.useradd(name, FLOOD_PASS)
        dear = dear_hash(FLOOD_PASS)
        con = sqlite3.connect(srv.db_path)
        with con:
            con.executemany("UPDATE users SET password = ? WHERE name = ?",
                            [(dear, name) for name in names])
        con.close()
        return srv, names

    def flood_start(self, srv, names):
        """Each flood login from its own /24 under its own name, at the
        password prompt: no delay owed to one holds up another."""
        flood = []
        for i, name in enumerate(names):
            c = self.connect(srv, source="127.0.%d.4" % (i + 1))
            c.flood_name, c.flood_source = name, "127.0.%d.4" % (i + 1)
            flood.append(c)
        for f in flood:
            f.expect(b"login: ")
            f.send_line(f.flood_name)
        for f in flood:
            f.expect(b"password: ")
        return flood

    def pump(self, srv, flood, waiting, done, timeout, when_full=None):
        """Keeps the password queue full: a flood client told the server is
        busy logs in again at once, one let in is replaced by a fresh
        connection under its name.  when_full(waiting) runs once a flood
        client was told the server is busy.  Returns the flood's connections
        when done(waiting) holds."""
        deadline = time.monotonic() + timeout
        by_sock = {f.sock: f for f in flood + [waiting]}
        for f in flood:
            f.send_line(FLOOD_PASS)
        while time.monotonic() < deadline:
            ready, _, _ = select.select(list(by_sock), [], [], 0.05)
            for sock in ready:
                c = by_sock[sock]
                c._recv(0)
                if c is waiting:
                    if done(c):
                        return [f for f in by_sock.values() if f is not waiting]
                    continue
                if when_full and b"The server is busy" in c.buf:
                    when_full(waiting)
                    when_full = None
                if b"Starting FICS session" in c.buf:
                    del by_sock[sock]
                    c.close()
                    fresh = self.connect(srv, source=c.flood_source)
                    fresh.flood_name, fresh.flood_source = c.flood_name, c.flood_source
                    by_sock[fresh.sock] = fresh
                elif b"password: " in c.buf:
                    c.buf = b""
                    c.send_line(FLOOD_PASS)
                elif b"login: " in c.buf:
                    c.buf = b""
                    c.send_line(c.flood_name)
                elif c.closed:
                    del by_sock[sock]
        raise AssertionError("the delayed login was never answered")

    def test_delayed_login_meeting_a_full_queue_reads_again(self):
        srv, names = self.flood_server()
        flood = self.flood_start(srv, names)
        self.fail_once(srv, "127.0.0.2")
        waiting = self.connect(srv, source="127.0.0.3")
        waiting.expect(b"login: ")
        waiting.send_line("alice")
        waiting.expect(b"password: ")
        waiting.send_line("apass1")
        self.pump(srv, flood, waiting,
                  lambda c: b"login: " in c.buf or b"Starting FICS session" in c.buf,
                  DELAY_MS / 1000 + 20)
        out = waiting.expect(b"login: ", 20)
        self.assertIn(b"The server is busy", out, "the queue was not full: no test")
        waiting.send_line("alice")
        waiting.expect(b"password: ", 20)

    def test_busy_is_not_a_failed_login(self):
        """Told the server is busy, one tries again at once and is checked
        as soon as there is room: no delay is owed for a check that never ran."""
        srv, names = self.flood_server(login_delay_base_ms=LONG_DELAY_MS,
                                       login_delay_max_ms=LONG_DELAY_MS, unauth_idle_ms=300000)
        flood = self.flood_start(srv, names)
        carol = self.connect(srv, source="127.0.0.3")
        carol.expect(b"login: ")
        carol.send_line("bob")
        carol.expect(b"password: ")
        flood = self.pump(srv, flood, carol,
                          lambda c: b"login: " in c.buf or b"Starting" in c.buf, 60,
                          when_full=lambda c: c.send_line("bpass1"))
        out = carol.expect(b"login: ", 20)
        self.assertIn(b"The server is busy", out, "the queue was not full: no test")
        # The flood goes; at most its last checks run before there is room.
        for f in flood:
            f.close()
        t0 = time.monotonic()
        while time.monotonic() - t0 < LONG_DELAY_MS / 1000 + 20:
            carol.send_line("bob")
            carol.expect(b"password: ", 20)
            carol.send_line("bpass1")
            out = carol.expect(re.compile(rb"The server is busy|Starting FICS session as bob"),
                               LONG_DELAY_MS / 1000 + 20)
            if b"Starting" in out:
                break
        took = time.monotonic() - t0
        sys.stderr.write("\n[busy: answered %.1f s after the flood went]\n" % took)
        # Had the busy answer been a failure, the retry would wait out the delay.
        self.assertLess(took, LONG_DELAY_MS / 1000 / 2, "a busy answer was counted as a failed login")

if __name__ == "__main__":
    main()
