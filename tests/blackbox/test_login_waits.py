"""Logins the server keeps waiting are neither dropped nor deafened.

- The unauthenticated-idle timer counts only time the server waits for the
  client: a login whose answer is delayed by the failed-login back-off for
  longer than unauth_idle_ms gets its answer, not "Idle too long".
- A delayed login whose turn comes while the password queue is full is
  told the server is busy, and reads its input again: the next name it
  types gets an answer.
"""
import select
import time

from chessd_harness import ChessdTestCase, main

IDLE_MS = 1000
DELAY_MS = 3000


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

    @staticmethod
    def pump(flood, waiting, timeout):
        """Keeps the password queue full: each flood client that is told the
        server is busy logs in again at once.  Returns when the waiting
        client's delayed answer came."""
        deadline = time.monotonic() + timeout
        by_sock = {f.sock: f for f in flood + [waiting]}
        while time.monotonic() < deadline:
            ready, _, _ = select.select(list(by_sock), [], [], 0.05)
            for sock in ready:
                c = by_sock[sock]
                c._recv(0)
                if c is waiting:
                    if b"login: " in c.buf or b"Starting FICS session" in c.buf:
                        return
                    continue
                if b"password: " in c.buf:
                    c.buf = b""
                    c.send_line("bpass1")
                elif b"login: " in c.buf:
                    c.buf = b""
                    c.send_line("bob")
                if c.closed:
                    del by_sock[sock]
        raise AssertionError("the delayed login was never answered")

    def test_delayed_login_meeting_a_full_queue_reads_again(self):
        srv = self.delayed_server(unauth_idle_ms=30000, commands_per_sec=1000,
                                  command_burst=1000)
        # More logins than the password queue holds (64 jobs), at the password prompt.
        flood = [self.connect(srv, source="127.0.0.4") for _ in range(120)]
        for f in flood:
            f.expect(b"login: ")
            f.send_line("bob")
        for f in flood:
            f.expect(b"password: ")
        self.fail_once(srv, "127.0.0.2")
        waiting = self.connect(srv, source="127.0.0.3")
        waiting.expect(b"login: ")
        waiting.send_line("alice")
        waiting.expect(b"password: ")
        waiting.send_line("apass1")
        for f in flood:
            f.send_line("bpass1")
        self.pump(flood, waiting, DELAY_MS / 1000 + 20)
        out = waiting.expect(b"login: ", 20)
        self.assertIn(b"The server is busy", out, "the queue was not full: no test")
        waiting.send_line("alice")
        waiting.expect(b"password: ", 20)

if __name__ == "__main__":
    main()
