"""Registration is bounded: a connection registers at most
registrations_per_conn names, an address (IPv4, IPv6 /64) at most
registrations_per_address_hour an hour; and a flood of registrations on
the password hasher never holds up people logging in to their accounts
(registrations queue apart and never take the last free worker)."""
import re
import sqlite3
import threading
import time

import chessd_harness as H
from chessd_harness import ChessdTestCase, main

REGISTERED = b"You are now registered as %s."


def user_count(path):
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT count(*) FROM users").fetchone()[0]
    finally:
        con.close()


class RegistrationLimits(ChessdTestCase):

    def test_one_registration_per_connection(self):
        srv = self.start_server()
        g = self.guest(srv)
        g.send_line("register alpha secret1")
        g.expect(REGISTERED % b"alpha")
        g.expect_prompt()
        out = g.command("register bravo secret1")
        self.assertIn(b"Sorry, one connection may register at most 1 name.", out)
        self.assertNotIn(b"Registering", out)
        self.assertEqual(user_count(srv.db_path), 1)

    def test_per_connection_setting(self):
        srv = self.start_server(config={"registrations_per_conn": 2})
        g = self.guest(srv)
        for name in (b"alpha", b"bravo"):
            g.send_line(b"register " + name + b" secret1")
            g.expect(REGISTERED % name)
            g.expect_prompt()
        self.assertIn(b"at most 2 names.", g.command("register charlie secret1"))
        self.assertEqual(user_count(srv.db_path), 2)

    def test_per_address_per_hour(self):
        srv = self.start_server(config={"registrations_per_address_hour": 3})
        for name in (b"alpha", b"bravo", b"charlie"):
            g = self.guest(srv)
            g.send_line(b"register " + name + b" secret1")
            g.expect(REGISTERED % name)
            g.close()
        g = self.guest(srv)
        out = g.command("register delta secret1")
        self.assertIn(b"Sorry, too many names were registered from your address in the last hour; "
                      b"try again later.", out)
        self.assertEqual(user_count(srv.db_path), 3)
        # Logging in is not registering: the accounts work.
        self.user(srv, "alpha", "secret1")

    def test_bad_setting_refused(self):
        srv = self.new_server(config={"registrations_per_conn": -1})
        srv.start(wait=False, expect_exit=True)
        self.assertNotEqual(srv.wait_exit(), 0)


class RegistrationFlood(ChessdTestCase):
    FLOODERS = 40

    def login_seconds(self, srv):
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        t0 = time.monotonic()
        c.send_line("secret1")
        c.expect(b"**** Starting FICS session as alice ****", 60)
        took = time.monotonic() - t0
        c.close()
        return took

    def test_flood_does_not_delay_login(self):
        srv = self.new_server(config={"registrations_per_address_hour": 100000,
                                      "commands_per_sec": 1000, "command_burst": 1000})
        srv.useradd("alice", "secret1")
        srv.start()
        quiet = min(self.login_seconds(srv) for _ in range(2))
        guests = [self.guest(srv) for _ in range(self.FLOODERS)]
        # Every guest asks at once: the hasher has a queue full of new hashes.
        for i, g in enumerate(guests):
            g.send_line("register flood%s secret1" % "".join(chr(97 + int(d)) for d in "%03d" % i))
        time.sleep(0.05)
        busy = self.login_seconds(srv)
        done = 0
        for g in guests:
            g.expect(re.compile(rb"(You are now registered as|The server is busy)"), 120)
            done += g.match.group(1).startswith(b"You")
        self.assertGreater(done, 0)
        # A hash takes about what a quiet login takes; behind the flood in one
        # queue the login would wait for all of them.
        bound = 5 * quiet + 1.0
        print("login %.3f s quiet, %.3f s during a flood of %d registrations (%d made); bound %.3f s"
              % (quiet, busy, self.FLOODERS, done, bound))
        self.assertLess(busy, bound)


if __name__ == "__main__":
    main()
