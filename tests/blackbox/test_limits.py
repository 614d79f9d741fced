#!/usr/bin/env python3
"""Every limit in server/limit.h, each with a small configured value, and the
server still serving a fresh client normally afterwards."""
import os
import re
import resource
import socket
import ssl
import threading
import time

from chessd_harness import ChessdTestCase, Client, GUEST_RE, IAC_WONT_ECHO, TIMEOUT, main

LINE_TOO_LONG = b"Line too long (more than %d bytes); ignored."


class LimitTestCase(ChessdTestCase):
    def assert_healthy(self, srv, **kw):
        """A fresh client logs in and gets answers."""
        c = self.connect(srv, **kw)
        name = c.login_guest()
        reply = c.command("who")
        self.assertIn(name.encode() + b"(U)", reply)
        self.assertIn(b"players displayed", reply)
        c.close()

    def connect_eventually(self, srv, timeout=TIMEOUT, **kw):
        """Connects until the server greets us (it frees slots at the end of a pass)."""
        deadline = time.monotonic() + timeout
        while True:
            c = Client(srv.tls_port if kw.get("tls") else srv.port, server=srv,
                       cafile=srv.cert_path if kw.get("tls") else None, **kw)
            try:
                c.expect(b"login: ", 2)
                self._clients.append(c)
                return c
            except AssertionError:
                c.close()
                if time.monotonic() > deadline:
                    raise


class LineBytes(LimitTestCase):
    CONFIG = {"line_bytes": 64}

    def two_guests(self, srv, tls=False):
        a = self.guest(srv, tls=tls)
        b = self.guest(srv)
        return a, b

    def test_long_line_rejected_connection_keeps_working(self):
        srv = self.start_server(config=self.CONFIG)
        a, b = self.two_guests(srv)
        a.send_line("tell %s %s" % (b.name, "x" * 100))
        self.assertEqual(a.expect_prompt(), b"\n\r" + LINE_TOO_LONG % 64 + b"\n\rfics% ")
        self.assertEqual(a.command("tell %s short" % b.name), b"(told %s)\n\rfics%% " % b.name.encode())
        got = b.expect(b"tells you: short")
        self.assertNotIn(b"xxxx", got)
        self.assert_healthy(srv)

    def test_boundary_lf(self):
        srv = self.start_server(config=self.CONFIG)
        a, b = self.two_guests(srv)
        prefix = "tell %s " % b.name
        line = prefix + "y" * (64 - len(prefix))
        self.assertEqual(len(line), 64)
        self.assertEqual(a.command(line), b"(told %s)\n\rfics%% " % b.name.encode())
        b.expect(b"tells you: yyy")
        a.send_line(line + "z")
        self.assertIn(LINE_TOO_LONG % 64, a.expect_prompt())

    def test_boundary_crlf(self):
        # xboard ends lines with \r\n; the \r is part of the line end, not of
        # the line, so a 64-byte line is allowed as with a bare \n.
        srv = self.start_server(config=self.CONFIG)
        a, b = self.two_guests(srv)
        prefix = "tell %s " % b.name
        line = prefix + "y" * (64 - len(prefix))
        a.send_line(line, eol=b"\r\n")
        self.assertEqual(a.expect_prompt(), b"(told %s)\n\rfics%% " % b.name.encode(),
                         "a 64-byte line ended by \\r\\n must be accepted with line_bytes = 64")

    def split_line(self, tls):
        srv = self.start_server(config=self.CONFIG)
        a, b = self.two_guests(srv, tls=tls)
        # A long line in small pieces; its tail looks like a command and must
        # not run.
        a.send_raw("tell %s " % b.name)
        for _ in range(6):
            a.send_raw("p" * 20)
            time.sleep(0.03)
        a.send_raw(" tell %s injected\n" % b.name)
        self.assertEqual(a.expect_prompt(), b"\n\r" + LINE_TOO_LONG % 64 + b"\n\rfics% ")
        self.assertEqual(a.command("tell %s after" % b.name), b"(told %s)\n\rfics%% " % b.name.encode())
        got = b.expect(b"tells you: after")
        self.assertNotIn(b"injected", got)
        self.assertNotIn(b"ppp", got)
        self.assertNotIn(LINE_TOO_LONG % 64, a.read_for(0.2))

    def test_long_line_split_across_sends(self):
        self.split_line(tls=False)

    def test_long_line_split_across_sends_tls(self):
        self.split_line(tls=True)

    def huge_line(self, tls):
        srv = self.start_server(config=self.CONFIG)
        a, b = self.two_guests(srv, tls=tls)
        # 1 MB with no newline at all: the error comes before any newline.
        chunk = b"h" * 16384
        for _ in range(64):
            a.send_raw(chunk)
        out = a.expect(LINE_TOO_LONG % 64)
        a.expect_prompt()
        self.assertNotIn(b"hhhh", out)
        a.send_raw(b"h" * 1000 + b"\n")
        self.assertEqual(a.command("tell %s alive" % b.name), b"(told %s)\n\rfics%% " % b.name.encode())
        b.expect(b"tells you: alive")
        # One error for the whole line.
        self.assertNotIn(LINE_TOO_LONG % 64, a.read_for(0.2))
        self.assert_healthy(srv)
        self.assert_healthy(srv, tls=True)

    def test_huge_line_without_newline(self):
        self.huge_line(tls=False)

    def test_huge_line_without_newline_tls(self):
        self.huge_line(tls=True)

    def test_long_line_at_login_prompt(self):
        srv = self.start_server(config=self.CONFIG)
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line("g" * 200)
        c.expect(LINE_TOO_LONG % 64)
        c.send_line("guest")
        c.expect(GUEST_RE)
        self.assert_healthy(srv)


class Clients(LimitTestCase):
    def test_server_full(self):
        srv = self.start_server(config={"clients": 3})
        first = [self.connect(srv) for _ in range(3)]
        for c in first:
            c.expect(b"login: ")
        extra = self.connect(srv)
        self.assertEqual(extra.expect_closed(),
                         b"\n\r**** The server is full; please try again later. ****\n\r")
        self.assertIn("refused 127.0.0.1: 3 connections in all", srv.log())
        # The others keep working.
        for c in first:
            c.send_line("guest")
            c.expect(GUEST_RE)
            c.expect(b'":\n\r')
            c.send_line("")
            c.expect_prompt()
        self.assertIn(b"3 players displayed (of 3).", first[0].command("who"))
        # A TLS client is refused too (without a message it could not read).
        t = Client(srv.tls_port, tls=True, cafile=srv.cert_path, server=srv, handshake=False)
        self._clients.append(t)
        with self.assertRaises((ssl.SSLError, OSError)):
            t.sock.do_handshake()
            t.expect(b"login: ", 3)
        # One leaves: a newcomer gets in.
        first[0].send_line("quit")
        first[0].expect_closed()
        c = self.connect_eventually(srv)
        c.send_line("guest")
        c.expect(GUEST_RE)
        self.assertIn(b"players displayed", first[1].command("who"))


class ClientsPerAddress(LimitTestCase):
    def test_flood_from_one_address_does_not_lock_out_another(self):
        srv = self.start_server(config={"clients_per_address": 2})
        mine = [self.connect(srv, source="127.0.0.2") for _ in range(2)]
        for c in mine:
            c.expect(b"login: ")
        refused = b"\n\r**** Too many connections from your address; please try again later. ****\n\r"
        flood = [self.connect(srv, source="127.0.0.2") for _ in range(30)]
        for c in flood:
            self.assertEqual(c.expect_closed(), refused)
        # Other addresses are fine.
        other = self.connect(srv, source="127.0.0.3")
        other.login_guest()
        self.assert_healthy(srv)
        # The first two from 127.0.0.2 still work.
        for c in mine:
            c.send_line("guest")
            c.expect(GUEST_RE)
        # One from 127.0.0.2 leaves: another from there gets in.
        mine[0].close()
        c = self.connect_eventually(srv, source="127.0.0.2")
        c.send_line("guest")
        c.expect(GUEST_RE)
        self.assertIn(b"players displayed", other.command("who"))


class LoginDeadlines(LimitTestCase):
    def test_login_timeout(self):
        srv = self.start_server(config={"login_ms": 500, "unauth_idle_ms": 60000})
        early = self.guest(srv)
        c = self.connect(srv)
        start = time.monotonic()
        c.expect(b"login: ")
        # Busy typing wrong names keeps it from idling, not from the deadline.
        out = b""
        while not c.closed and time.monotonic() - start < TIMEOUT:
            try:
                c.send_line("x1")
            except OSError:
                break
            out += c.read_for(0.1)
        out += c.expect_closed()
        elapsed = time.monotonic() - start
        self.assertTrue(out.endswith(b"**** LOGIN TIMEOUT ****\n\r"), out[-200:])
        self.assertGreaterEqual(elapsed, 0.45)
        self.assertIn("login timeout", srv.log())
        # A client that logged in before the deadline is not affected.
        time.sleep(0.1)
        self.assertIn(b"players displayed", early.command("who"))
        self.assert_healthy(srv)

    def test_login_timeout_at_password_prompt(self):
        srv = self.start_server(config={"login_ms": 600, "unauth_idle_ms": 60000})
        srv.useradd("alice", "secret1")
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        out = c.expect_closed()
        self.assertTrue(out.endswith(b"**** LOGIN TIMEOUT ****\n\r"), out)
        self.assert_healthy(srv)

    def test_unauth_idle(self):
        srv = self.start_server(config={"unauth_idle_ms": 600, "login_ms": 60000})
        c = self.connect(srv)
        start = time.monotonic()
        c.expect(b"login: ")
        out = c.expect_closed()
        self.assertGreaterEqual(time.monotonic() - start, 0.55)
        self.assertEqual(out, b"**** Idle too long before logging in ****\n\r")
        # A client that keeps talking is not idle.
        d = self.connect(srv)
        d.expect(b"login: ")
        for _ in range(10):
            d.send_line("x1")
            d.expect(b"login: ")
            time.sleep(0.1)
        d.send_line("guest")
        d.expect(GUEST_RE)
        d.expect(b'":\n\r')
        time.sleep(0.1)
        d.send_line("")
        d.expect_prompt()
        # Logged in: idleness no longer matters.
        time.sleep(0.8)
        self.assertIn(b"players displayed", d.command("who"))
        self.assert_healthy(srv)

    def test_tls_handshake_timeout(self):
        srv = self.start_server(config={"handshake_ms": 300})
        raw = socket.create_connection(("127.0.0.1", srv.tls_port))
        half = socket.create_connection(("127.0.0.1", srv.tls_port))
        half.sendall(b"\x16\x03\x01\x02\x00\x01")   # the start of a ClientHello
        start = time.monotonic()
        for s in (raw, half):
            s.settimeout(TIMEOUT)
            try:
                data = s.recv(100)
            except ConnectionResetError:
                data = b""
            self.assertEqual(data, b"")
            s.close()
        self.assertGreaterEqual(time.monotonic() - start, 0.2)
        self.assertIn("TLS handshake timeout", srv.log())
        # The plain port is not subject to the handshake deadline.
        p = self.connect(srv)
        p.expect(b"login: ")
        self.assertEqual(p.read_for(0.6), b"")
        self.assertFalse(p.closed)
        p.send_line("guest")
        p.expect(GUEST_RE)
        self.assert_healthy(srv, tls=True)


class CommandRate(LimitTestCase):
    def test_burst_answered_in_full_but_paced(self):
        rate, burst = 10, 4
        srv = self.start_server(config={"commands_per_sec": rate, "command_burst": burst})
        c = self.guest(srv)
        time.sleep(burst / rate + 0.2)     # the bucket refills
        n = 3 * burst
        start = time.monotonic()
        c.send_raw(b"".join(b"alias k%d\n" % i for i in range(n)))
        replies = b""
        for _ in range(n):
            replies += c.expect_prompt()
        elapsed = time.monotonic() - start
        found = re.findall(rb'You have no alias named "k(\d+)"\.', replies)
        self.assertEqual([int(x) for x in found], list(range(n)), replies)
        # burst at once, the rest at rate per second.
        self.assertGreaterEqual(elapsed, (n - burst) / rate * 0.75, elapsed)
        self.assert_healthy(srv)

    def test_rate_applies_per_client(self):
        srv = self.start_server(config={"commands_per_sec": 5, "command_burst": 2})
        a = self.guest(srv)
        b = self.guest(srv)
        a.send_raw(b"date\n" * 10)      # a is slowed to 5 a second
        start = time.monotonic()
        b.command("who")                # b is not
        self.assertLess(time.monotonic() - start, 1.0)
        for _ in range(10):
            a.expect_prompt()


class OutputLimits(LimitTestCase):
    CONFIG = {"output_soft_bytes": 8192, "output_hard_bytes": 65536,
              "commands_per_sec": 100000, "command_burst": 20}

    def spam(self, c, line, seconds):
        """Sends line as often as the socket takes it, without reading."""
        c.raw.settimeout(0.2)
        data = line * 200
        deadline = time.monotonic() + seconds
        sent = 0
        while time.monotonic() < deadline:
            try:
                sent += c.raw.send(data)
            except socket.timeout:
                continue
            except OSError:
                break
        return sent

    def test_slow_reader_disconnected_at_hard_limit(self):
        srv = self.start_server(config=self.CONFIG)
        victim = self.guest(srv, rcvbuf=4096)
        flooder = self.guest(srv)
        bystander = self.guest(srv)
        text = "f" * 900
        told = 0
        deadline = time.monotonic() + 30
        while True:
            reply = flooder.command("tell %s %s" % (victim.name, text))
            if reply.startswith(b"(told "):
                told += 1
            else:
                self.assertEqual(reply, b"No user named '%s' is logged in.\n\rfics%% " % victim.name.lower().encode())
                break
            self.assertLess(time.monotonic(), deadline, "victim never disconnected")
        self.assertIn("output buffer over the hard limit", srv.log())
        # It took more than the hard limit's worth of tells to get there.
        self.assertGreater(told * 900, 65536)
        # The others are unaffected.
        self.assertIn(b"2 players displayed (of 2).", bystander.command("who"))
        self.assertNotIn(victim.name.encode(), flooder.command("who"))
        # The victim reads what was sent before, then the end.
        victim.raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        out = victim.expect_closed(timeout=30)
        self.assertIn(b"tells you: fff", out)
        self.assert_healthy(srv)

    def test_help_spammer_not_reading(self):
        """A client that sends help after help and reads nothing: its input is
        no longer read once its output backs up, or it is cut off past the hard
        limit; either way the server keeps serving everyone else."""
        srv = self.start_server(config=self.CONFIG)
        victim = self.guest(srv, rcvbuf=4096)
        bystander = self.guest(srv)
        result = {}
        t = threading.Thread(target=lambda: result.update(sent=self.spam(victim, b"help\n", 3)))
        t.start()
        try:
            for _ in range(10):
                start = time.monotonic()
                self.assertIn(b"players displayed", bystander.command("who"))
                self.assertLess(time.monotonic() - start, 2.0)
                time.sleep(0.2)
        finally:
            t.join()
        # The victim can have at most soft + one pass of replies waiting at the
        # server: far less than it asked for.
        self.assertGreater(result["sent"], 100 * len(b"help\n"))
        self.assert_healthy(srv)
        with open("/proc/%d/status" % srv.proc.pid) as f:
            rss = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
        self.assertLess(rss, 512 * 1024, "chessd uses %d kB after the spam" % rss)

    def test_soft_limit_pauses_without_losing_anything(self):
        self.soft_limit_without_loss(tls=False)

    def test_soft_limit_pauses_without_losing_anything_tls(self):
        self.soft_limit_without_loss(tls=True)

    def test_tls_output_past_a_full_socket(self):
        """Over TLS a reply is written with SSL_write at once.  7.7 MB of
        replies to a client that reads nothing at first fill the socket
        (4 MB at most on Linux): OpenSSL must then be offered the same bytes
        again, which libevent's output buffer does.  Every reply arrives
        whole and in order."""
        srv = self.start_server(config={"output_soft_bytes": 2048, "output_hard_bytes": 1 << 26,
                                        "commands_per_sec": 100000, "command_burst": 1000})
        c = self.guest(srv, rcvbuf=4096, tls=True)
        reply = c.command("help")
        n = 3000
        rest = self.send_unread(c, b"help\n" * n, 2.0)
        self.send_reading(c, rest)
        for i in range(n):
            self.assertEqual(c.expect_prompt(timeout=30), reply,
                             "reply %d" % i)
        self.assertNotIn("hard limit", srv.log())

    @staticmethod
    def send_unread(c, data, seconds):
        """Sends for a while without reading; returns what the server did not take."""
        c.raw.settimeout(0.05)
        deadline = time.monotonic() + seconds
        while data and time.monotonic() < deadline:
            try:
                data = data[c.raw.send(data[:4096]):]
            except socket.timeout:
                pass
        return data

    def send_reading(self, c, data):
        """Sends the rest of data, reading whatever comes meanwhile."""
        deadline = time.monotonic() + 60
        while data:
            self.assertLess(time.monotonic(), deadline)
            c._recv(0.01)
            c.raw.settimeout(0.01)
            try:
                data = data[c.raw.send(data[:4096]):]
            except socket.timeout:
                pass

    def soft_limit_without_loss(self, tls):
        srv = self.start_server(config={"output_soft_bytes": 2048, "output_hard_bytes": 1 << 24,
                                        "commands_per_sec": 100000, "command_burst": 1000})
        c = self.guest(srv, rcvbuf=4096, tls=tls)
        other = self.guest(srv)
        n = 20000
        data = b"".join(b"alias k%d\n" % i for i in range(n))
        # Send without reading until the server stops taking input ...
        data = self.send_unread(c, data, 1.0)
        self.assertIn(b"players displayed", other.command("who"))
        # ... then read, sending the rest as the server takes it.
        self.send_reading(c, data)
        replies = b""
        for _ in range(n):
            replies += c.expect_prompt(timeout=30)
        found = [int(x) for x in re.findall(rb'You have no alias named "k(\d+)"\.', replies)]
        self.assertEqual(found, list(range(n)))
        self.assertNotIn("hard limit", srv.log())
        self.assertIn(b"players displayed", c.command("who"))

    def test_help_spammer_then_flooded_is_disconnected(self):
        srv = self.start_server(config=self.CONFIG)
        victim = self.guest(srv, rcvbuf=4096)
        flooder = self.guest(srv)
        self.spam(victim, b"help\n", 1)
        deadline = time.monotonic() + 30
        while True:
            reply = flooder.command("tell %s %s" % (victim.name, "g" * 900))
            if not reply.startswith(b"(told "):
                break
            self.assertLess(time.monotonic(), deadline, "victim never disconnected")
        self.assertIn("output buffer over the hard limit", srv.log())
        self.assert_healthy(srv)


class LoginFailures(LimitTestCase):
    def attempt(self, c, name, password):
        c.expect(b"login: ")
        c.send_line(name)
        c.expect(b"password: ")
        start = time.monotonic()
        c.send_line(password)
        out = c.expect(re.compile(rb"\*\*\*\* (Invalid password!|Starting FICS session as \w+) \*\*\*\*"))
        return time.monotonic() - start, out

    def test_delay_after_free_failures_grows(self):
        srv = self.start_server(config={"login_free_failures": 1, "login_delay_base_ms": 300,
                                        "login_delay_max_ms": 1200, "login_tries_per_conn": 100})
        srv.useradd("alice", "secret1")
        srv.useradd("bob", "secret2")
        c = self.connect(srv)
        delays = []
        for _ in range(5):
            d, out = self.attempt(c, "alice", "wrong")
            self.assertIn(b"Invalid password!", out)
            delays.append(d)
        d1, d2, d3, d4, d5 = delays
        self.assertGreaterEqual(d2, 0.25, delays)
        self.assertGreater(d2, d1 + 0.1, delays)
        self.assertGreaterEqual(d3, 0.55, delays)
        self.assertGreaterEqual(d4, 1.1, delays)
        self.assertGreaterEqual(d5, 1.1, delays)
        self.assertLess(d5, 1.2 + 4, delays)      # capped at login_delay_max_ms
        # The right password waits too, then works.
        d, out = self.attempt(c, "alice", "secret1")
        self.assertIn(b"Starting FICS session as alice", out)
        self.assertGreaterEqual(d, 1.1)
        # Another name from another /24 is not delayed.
        o = self.connect(srv, source="127.0.1.3")
        d, out = self.attempt(o, "bob", "secret2")
        self.assertIn(b"Starting FICS session as bob", out)
        self.assertLess(d, 1.0)
        self.assert_healthy(srv)

    def test_delay_follows_the_name_across_connections(self):
        srv = self.start_server(config={"login_free_failures": 2, "login_delay_base_ms": 800,
                                        "login_delay_max_ms": 800, "login_tries_per_conn": 100})
        srv.useradd("alice", "secret1")
        for source in ("127.0.0.2", "127.0.0.3"):
            c = self.connect(srv, source=source)
            self.attempt(c, "alice", "wrong")
        # A third address: the name has used its free failures.
        c = self.connect(srv, source="127.0.0.4")
        d, out = self.attempt(c, "alice", "wrong")
        self.assertGreaterEqual(d, 0.7)

    def test_tries_per_connection(self):
        srv = self.start_server(config={"login_tries_per_conn": 3, "login_free_failures": 100})
        srv.useradd("alice", "secret1")
        c = self.connect(srv)
        for _ in range(2):
            self.attempt(c, "alice", "wrong")
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        c.send_line("wrong")
        out = c.expect_closed()
        self.assertEqual(out, IAC_WONT_ECHO + b"\n\r\n\r**** Invalid password! ****\n\r\n\r"
                         b"**** Too many failed logins; goodbye. ****\n\r")
        # A new connection may try again.
        self.user(srv, "alice", "secret1")
        self.assert_healthy(srv)


class FileDescriptors(LimitTestCase):
    def test_emfile_pauses_and_recovers(self):
        limit = 48

        def lower_limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

        srv = self.start_server(config={"accept_pause_ms": 200}, preexec_fn=lower_limit)
        base = len(os.listdir("/proc/%d/fd" % srv.proc.pid))
        room = limit - base
        self.assertGreater(room, 5, "chessd already uses %d descriptors" % base)
        clients = [self.connect(srv) for _ in range(room + 3)]
        served, waiting = [], []
        for c in clients:
            (served if self._greeted(c, 3 if len(served) < room else 0.5) else waiting).append(c)
        self.assertEqual(len(served), room, "served %d of %d" % (len(served), len(clients)))
        self.assertEqual(len(waiting), 3)
        srv.wait_log(re.compile(r"accept: Too many open files; pausing accepts for 200 ms"))
        # The ones it serves still work meanwhile.
        served[0].send_line("guest")
        served[0].expect(GUEST_RE)
        served[0].send_line("")
        served[0].expect_prompt()
        self.assertIn(b"players displayed", served[0].command("who"))
        # Some leave: the waiting ones are taken in.
        for c in served[1:6]:
            c.close()
        for c in waiting:
            c.expect(b"login: ")
        srv.wait_log("accepting connections again")
        for c in waiting + served[6:]:
            c.close()
        self.assert_healthy(srv)
        srv.stop()

    def _greeted(self, c, timeout):
        try:
            c.expect(b"login: ", timeout)
            return True
        except AssertionError:
            return False


class Sanitizing(LimitTestCase):
    def test_nul_and_invalid_utf8_never_echoed_raw(self):
        srv = self.start_server()
        a, b = self.guest(srv), self.guest(srv)
        a.send_line(b"tell " + b.name.encode() +
                    b" a\x00b \xff\xfe c\xc3\xa9d \xc3\x28 \x80 \xed\xa0\x80 \xf8\x88 \x1b[31mred\x07 end")
        a.expect(b"(told %s)" % b.name.encode())
        a.expect_prompt()
        out = b.expect(re.compile(rb"tells you: [^\n]*end\n\r"))
        line = b.match.group(0)
        for bad in (b"\x00", b"\xff", b"\xfe", b"\x80", b"\x1b", b"\x07", b"\xed\xa0", b"\xf8"):
            self.assertNotIn(bad, line)
        line.decode("utf-8")        # well formed
        self.assertIn(b"c\xc3\xa9d", line)   # valid UTF-8 passes
        self.assertIn(b"?(", line)           # invalid bytes become '?'
        self.assertIn(b"red", line)
        # An unknown command is echoed back cleaned.
        reply = a.command(b"fo\x00o\x80\x1b")
        self.assertNotRegex(reply, rb"[\x00\x1b\x80]")
        self.assertIn(b"Command not found", reply)
        # A name at the login prompt.
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line(b"\xc3\x28bo\x00b")
        reply = c.expect(b"login: ")
        self.assertNotRegex(reply, rb"[\x00\xc3]")
        self.assert_healthy(srv)


if __name__ == "__main__":
    main()
