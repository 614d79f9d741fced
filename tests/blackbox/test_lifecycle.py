#!/usr/bin/env python3
"""Starting and stopping: graceful shutdown, databases that cannot be used,
one chessd per data directory, and durability across SIGKILL."""
import os
import random
import re
import signal
import socket
import sqlite3
import ssl
import subprocess
import time

from chessd_harness import ChessdTestCase, GUEST_RE, TIMEOUT, main

REGISTERED = b"You are now registered as %s."


class Shutdown(ChessdTestCase):
    def test_sigterm_tells_everyone_and_closes_tls_cleanly(self):
        srv = self.start_server(config={"server_name": "Testd"})
        plain = self.guest(srv)
        tls = self.connect(srv, tls=True)
        tls.login_guest()
        waiting = self.connect(srv)            # not logged in yet
        waiting.expect(b"login: ")
        srv.signal(signal.SIGTERM)
        line = b"\n\r**** Testd is shutting down now. ****\n\r"
        out = plain.expect_closed()
        self.assertTrue(out.startswith(line), out)
        self.assertIn(getattr(plain, "close_kind", None), ("eof",))
        out = tls.expect_closed()
        self.assertTrue(out.startswith(line), out)
        self.assertEqual(getattr(tls, "close_kind", None), "close_notify",
                         "the TLS client must get a close_notify, not a bare TCP close")
        waiting.expect_closed()
        self.assertEqual(srv.wait_exit(), 0, srv.log())
        self.assertIn("shutting down (SIGTERM)", srv.log())

    def test_sigint_is_graceful_too(self):
        srv = self.start_server()
        c = self.guest(srv)
        srv.signal(signal.SIGINT)
        self.assertIn(b"**** chessd is shutting down now. ****", c.expect_closed())
        self.assertEqual(srv.wait_exit(), 0, srv.log())

    def test_sigterm_with_no_clients_ever(self):
        # (Other tests always connect a client before a clean stop, so that
        # they do not all trip over a failure of this one.)
        srv = self.start_server()
        srv.stop()
        self.assertIn("stopped", srv.log())

    def test_sigterm_with_a_client_that_does_not_read(self):
        # A client with megabytes of unread output must not hold the shutdown
        # forever: the others are told and closed, the stuck one is dropped.
        srv = self.start_server(config={"output_hard_bytes": 1 << 28,
                                        "commands_per_sec": 100000, "command_burst": 100000})
        slow = self.guest(srv, rcvbuf=4096)
        flooder = self.guest(srv)
        line = ("tell %s %s\n" % (slow.name, "s" * 900)).encode()
        flooder.raw.settimeout(TIMEOUT)
        for _ in range(80):
            flooder.send_raw(line * 100)            # 8 MB for slow in all
            flooder.read_for(0.01)
        self.assertNotIn("hard limit", srv.log())
        start = time.monotonic()
        srv.signal(signal.SIGTERM)
        flooder.expect(b"is shutting down now.", timeout=30)
        self.assertEqual(srv.wait_exit(timeout=30), 0, srv.log())
        self.assertLess(time.monotonic() - start, 15)
        self.assertRegex(srv.log(), "did not drain in time|too far behind to drain")


def ipv6_loopback():
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


class Listening(ChessdTestCase):
    def test_default_bind_takes_ipv4_and_ipv6(self):
        srv = self.start_server(bind=None)
        self.assertIn("listening on [::]:%d" % srv.port, srv.log())
        self.connect(srv, host="127.0.0.1").login_guest()
        self.connect(srv, host="127.0.0.1", tls=True).login_guest()
        if ipv6_loopback():
            self.connect(srv, host="::1").login_guest()
            self.connect(srv, host="::1", tls=True).login_guest()
        srv.stop()

    def test_bind_ipv6_literal(self):
        if not ipv6_loopback():
            # No IPv6 here: the IPv4 literal is all that can be checked.
            srv = self.start_server(bind="127.0.0.1")
            self.connect(srv).login_guest()
            srv.stop()
            return
        srv = self.start_server(bind="::1")
        self.assertIn("listening on [::1]:%d" % srv.port, srv.log())
        self.connect(srv, host="::1").login_guest()
        self.connect(srv, host="::1", tls=True).login_guest()
        srv.stop()

    def test_port_in_use_is_refused(self):
        blocker = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        blocker.bind(("127.0.0.1", 0))
        blocker.listen(1)
        try:
            srv = self.new_server(port=blocker.getsockname()[1])
            srv.start(expect_exit=True)
            self.assertEqual(srv.wait_exit(), 1, srv.log())
            self.assertIn("cannot listen on 127.0.0.1:%d" % srv.port, srv.log())
        finally:
            blocker.close()


class WorkInFlight(ChessdTestCase):
    """Password hashing runs on a worker thread; its owner may vanish first."""

    def test_disconnect_during_password_verification(self):
        # (Failed logins are not delayed here: some wrong passwords below may
        # be checked before their connection goes.)
        srv = self.start_server(config={"login_free_failures": 1000})
        srv.useradd("alice", "secret1")
        for i in range(20):
            c = self.connect(srv, tls=(i % 2 == 1))
            c.expect(b"login: ")
            c.send_line("alice")
            c.expect(b"password: ")
            c.send_line("secret1" if i % 3 else "wrong")
            if i % 4 == 0:
                time.sleep(0.01 * (i % 7))
            c.reset()
        for i in range(10):
            g = self.guest(srv)
            g.send_line("register user%s secret1" % ("abcdefghij"[i] * 3))
            g.reset()
        a = self.user(srv, "alice", "secret1")
        self.assertIn(b"1 players displayed (of 1).", a.command("who"))
        a.send_line("passwd secret1 secret2")
        a.reset()
        self.connect(srv).login_guest()
        srv.stop()

    def test_shutdown_with_hashing_in_flight(self):
        srv = self.start_server()
        srv.useradd("alice", "secret1")
        srv.useradd("bob", "secret2")
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        g = self.guest(srv)
        b = self.user(srv, "bob", "secret2")
        c.send_line("secret1")
        g.send_line("register carol secret3")
        b.send_line("passwd secret2 secret4")
        srv.signal(signal.SIGTERM)
        for x in (c, g, b):
            x.expect_closed()
        self.assertEqual(srv.wait_exit(), 0, srv.log())

    def test_replaced_while_changing_password(self):
        srv = self.start_server()
        srv.useradd("alice", "secret1")
        a = self.user(srv, "alice", "secret1")
        a.send_line("passwd secret1 secret2")
        b = self.user(srv, "alice", "secret1")
        a.expect_closed()
        self.assertIn(b"1 players displayed (of 1).", b.command("who"))
        srv.stop()


class BadDatabase(ChessdTestCase):
    def assert_refuses(self, srv, pattern, started=False):
        if not started:
            srv.start(expect_exit=True)
        if srv.running():
            srv.kill()
            self.fail("chessd started although it should have refused (%s):\n%s"
                      % (pattern, srv.log()))
        rc = srv.wait_exit(TIMEOUT + 5)
        log = srv.log()
        self.assertEqual(rc, 1, log)
        lines = log.strip().splitlines()
        self.assertEqual(len(lines), 1, "expected one line on stderr:\n" + log)
        self.assertRegex(lines[0], pattern)
        return lines[0]

    def prepared(self):
        """A data directory with a database holding one user (made by the
        useradd subcommand, so no server run is involved)."""
        srv = self.new_server()
        srv.useradd("alice", "secret1")
        return srv

    def test_locked_database(self):
        srv = self.prepared()
        con = sqlite3.connect(srv.db_path, isolation_level=None, timeout=0)
        try:
            con.execute("BEGIN EXCLUSIVE")
            con.execute("INSERT INTO news (posted, title) VALUES (0, 'x')")
            srv.start(expect_exit=True)
            if srv.running():
                # Show what such a server does with a write before failing.
                g = self.guest(srv)
                start = time.monotonic()
                g.send_line("register carol secret1")
                g.expect(re.compile(rb"(Registration failed[^\n]*|You are now registered[^\n]*)"))
                took = time.monotonic() - start
                self.fail("chessd started although another process holds an exclusive "
                          "transaction on chess.db; a registration then answered %r after "
                          "%.1f s (the event loop blocks in the busy timeout)\n%s"
                          % (g.match.group(1), took, srv.log()))
            self.assert_refuses(srv, r"cannot start: .*chess\.db: .*locked", started=True)
        finally:
            con.execute("ROLLBACK")
            con.close()

    def test_locked_database_exclusive_locking_mode(self):
        srv = self.prepared()
        con = sqlite3.connect(srv.db_path, isolation_level=None, timeout=0)
        try:
            con.execute("PRAGMA locking_mode = EXCLUSIVE")
            con.execute("BEGIN EXCLUSIVE")
            con.execute("INSERT INTO news (posted, title) VALUES (0, 'x')")
            self.assert_refuses(srv, r"cannot start: .*chess\.db: .*locked")
        finally:
            con.execute("ROLLBACK")
            con.close()

    def test_garbage_database(self):
        srv = self.prepared()
        for suffix in ("-wal", "-shm"):
            if os.path.exists(srv.db_path + suffix):
                os.remove(srv.db_path + suffix)
        with open(srv.db_path, "wb") as f:
            f.write(bytes(random.Random(1).getrandbits(8) for _ in range(8192)))
        self.assert_refuses(srv, r"cannot start: .*chess\.db: .*(not a chessd database|corrupt)")

    def test_corrupt_pages(self):
        srv = self.prepared()
        con = sqlite3.connect(srv.db_path)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("PRAGMA journal_mode=DELETE")
        page_size = con.execute("PRAGMA page_size").fetchone()[0]
        pages = con.execute("PRAGMA page_count").fetchone()[0]
        con.close()
        self.assertGreater(pages, 2)
        with open(srv.db_path, "r+b") as f:
            # Keep the header page; smash the rest.
            f.seek(page_size)
            f.write(b"\xa5" * (page_size * (pages - 1)))
        self.assert_refuses(srv, r"cannot start: .*chess\.db: .*corrupt")

    def test_newer_schema(self):
        srv = self.prepared()
        con = sqlite3.connect(srv.db_path)
        con.execute("PRAGMA user_version = 999")
        con.commit()
        con.close()
        line = self.assert_refuses(srv, r"cannot start: database schema version 999 is newer than "
                                        r"this chessd understands \(\d+\); run a newer chessd")
        # The database is left alone.
        con = sqlite3.connect(srv.db_path)
        self.assertEqual(con.execute("PRAGMA user_version").fetchone()[0], 999)
        self.assertEqual(con.execute("SELECT name FROM users").fetchall(), [("alice",)])
        con.close()

    def test_second_chessd_on_same_data_dir(self):
        srv = self.start_server()
        c = self.guest(srv)
        second = self.new_server(data_dir=srv.data_dir)
        second.start(expect_exit=True)
        self.assertEqual(second.wait_exit(), 1, second.log())
        lines = second.log().strip().splitlines()
        self.assertEqual(len(lines), 1, second.log())
        self.assertIn("%s is in use by another chessd" % srv.data_dir, lines[0])
        # The first is undisturbed.
        self.assertIn(b"players displayed", c.command("who"))
        srv.stop()
        # Once it is gone, the data directory may be used again.
        second.start()
        self.guest(second)
        second.stop()

    def test_bad_config_is_refused(self):
        srv = self.new_server(config={"line_bytes": "8"})
        srv.start(expect_exit=True)
        self.assertEqual(srv.wait_exit(), 2, srv.log())
        self.assertIn("line_bytes must be a whole number from 16 to 65536", srv.log())


class Durability(ChessdTestCase):
    def test_acknowledged_changes_survive_sigkill(self):
        rnd = random.Random(os.getpid())
        srv = self.start_server()
        expected_users = {}
        expected = {}       # name -> dict(shout=, channels=set(), aliases={})
        for round_ in range(4):
            # New registrations through the protocol.
            g = self.guest(srv)
            name = "user" + "abcdefghij"[round_] * 3
            password = "pw-%d-%d" % (round_, rnd.randrange(10 ** 6))
            g.send_line("register %s %s" % (name, password))
            g.expect(REGISTERED % name.encode())
            expected_users[name] = password
            expected[name] = {"shout": 1, "channels": set(), "aliases": {}, "width": 79}
            g.close()
            # Changes by every user so far, then a kill at a random moment
            # right after the last acknowledgement.
            clients = {}
            for uname, pw in expected_users.items():
                c = self.user(srv, uname, pw)
                clients[uname] = c
                st = expected[uname]
                for _ in range(rnd.randrange(1, 4)):
                    what = rnd.choice(["shout", "channel", "alias", "width", "passwd"])
                    if what == "shout":
                        v = rnd.randrange(2)
                        c.command("set shout %d" % v)
                        st["shout"] = v
                    elif what == "channel":
                        ch = rnd.randrange(1, 200)
                        if ch in st["channels"]:
                            self.assertIn(b"removed", c.command("-channel %d" % ch))
                            st["channels"].discard(ch)
                        else:
                            self.assertIn(b"added", c.command("+channel %d" % ch))
                            st["channels"].add(ch)
                    elif what == "alias":
                        a = "al" + "xyz"[rnd.randrange(3)]
                        v = "tell %s %d" % (uname, rnd.randrange(1000))
                        self.assertIn(b"Alias", c.command("alias %s %s" % (a, v)))
                        st["aliases"][a] = v
                    elif what == "width":
                        v = rnd.randrange(32, 241)
                        self.assertEqual(c.command("set width %d" % v), b"Width set to %d.\n\rfics%% " % v)
                        st["width"] = v
                    else:
                        new = "np-%d" % rnd.randrange(10 ** 6)
                        c.send_line("passwd %s %s" % (expected_users[uname], new))
                        c.expect(b"Password changed.")
                        c.expect_prompt()
                        expected_users[uname] = new
            time.sleep(rnd.random() * 0.05)
            srv.kill()
            self.assertEqual(srv.returncode, -signal.SIGKILL)
            srv.start()
            # Everything acknowledged is there.
            for uname, pw in expected_users.items():
                c = self.user(srv, uname, pw)
                st = expected[uname]
                vars_ = c.command("variables")
                self.assertRegex(vars_, rb"(^|\s)shout=%d\s" % st["shout"], uname)
                self.assertRegex(vars_, rb"(^|\s)width=%d\s" % st["width"], uname)
                chans = c.command("=channel")
                if st["channels"]:
                    want = b" ".join(b"%d" % ch for ch in sorted(st["channels"])) + b" \n\r"
                    self.assertIn(b"following channels:\n\r" + want, chans, uname)
                else:
                    self.assertIn(b"(none)", chans)
                aliases = c.command("alias")
                for a, v in st["aliases"].items():
                    self.assertIn(("%s -> %s\n\r" % (a, v)).encode(), aliases, uname)
                c.close()
        srv.stop()

    def test_useradd_while_running_then_kill(self):
        srv = self.start_server()
        srv.useradd("alice", "secret1")
        srv.kill()
        srv.start()
        self.user(srv, "alice", "secret1")
        srv.stop()


if __name__ == "__main__":
    main()
