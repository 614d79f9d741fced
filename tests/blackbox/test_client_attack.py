#!/usr/bin/env python3
"""The terminal client against a hostile server on loopback, in script mode:
control bytes and escape sequences are shown as '?', a line without end is
cut at PROTO_LINE_MAX with a note and memory stays flat, positions no game
reaches do not crash it, and over TLS a certificate other than the pinned
one is refused, a plain server on the TLS port is never sent a login, and
garbage or a close without close_notify end with one clear line."""
import itertools
import os
import random
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake_server import CHESS, MARK, TIMEOUT, FakeFics  # noqa: E402

PROTO_LINE_MAX = 8192           # client/proto.h
CUT_MARK = b" [line cut: the server sent more than 8191 bytes]"


def run_client(port, *args, script=b"#wait " + MARK + b"\n", env=None, plain=True,
               host="127.0.0.1"):
    cmd = [CHESS] + (["--plain"] if plain else []) + ["--port", str(port)] + list(args)
    p = subprocess.Popen(cmd + [host], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    out, err = p.communicate(script, timeout=TIMEOUT)
    return p.returncode, out, err


def assert_harmless(test, out):
    for bad in (b"\x1b", b"\x00", b"\r", b"\x07", b"\x08", b"\x9b", b"\xc2\x9b", b"\xc2\x9d"):
        test.assertNotIn(bad, out, "%r reached the terminal" % bad)


class Case(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="chess-attack-")
        self.addCleanup(shutil.rmtree, self.home, True)
        self.env = dict(os.environ, HOME=self.home, XDG_CONFIG_HOME=self.home,
                        LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.env.pop("SSL_CERT_FILE", None)
        self.env.pop("SSL_CERT_DIR", None)


class Stream(Case):
    def test_controls_are_shown_visibly(self):
        attack = [
            (b"bob tells you: a\x00b", b"bob tells you: a?b"),
            (b"bob tells you: hi\rAdmin: you are banned",
             b"bob tells you: hi?Admin: you are banned"),
            (b"\x1b]8;;http://evil.example/\x1b\\click me\x1b]8;;\x1b\\", b"?click me?"),
            (b"up\x1b[10Aover\x1b[5;5Hhome", b"up?over?home"),
            (b"\x1b7saved\x1b8restored", b"?saved?restored"),
            (b"\x1b[6n\x1b[?25lhidden", b"??hidden"),            # a report request, cursor off
            (b"\x1b]52;c;cm0gLXJmIH4=\x07paste", b"?paste"),
            (b"bad \xc3\x28 \xf8\x88\x80\x80\x80 \xed\xa0\x80 end", b"bad ?( ????? ??? end"),
            (b"\x1bP+q544e\x1b\\dcs", b"?dcs"),
        ]
        fake = FakeFics(b"\n\r".join(a for a, _ in attack))
        code, out, err = run_client(fake.port, env=self.env)
        self.assertEqual(code, 0, err)
        self.assertIn(MARK, out)
        lines = out.split(b"\n")
        for sent, shown in attack:
            self.assertIn(shown, lines, "%r not shown as %r in %r" % (sent, shown, out))
        assert_harmless(self, out)
        assert_harmless(self, err)
        self.assertNotIn(b"evil.example/", out)

    def peak_kb(self, attack):
        """The client's peak resident memory (VmHWM) over a session that gets attack."""
        fake = FakeFics(attack)
        # Under ASan freed memory waits in a quarantine: without one, RSS means use again.
        env = dict(self.env, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                                           ":quarantine_size_mb=0").lstrip(":"))
        p = subprocess.Popen([CHESS, "--plain", "--port", str(fake.port), "127.0.0.1"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env)
        # After the mark the script sleeps: the peak is read while the client still runs.
        p.stdin.write(b"#wait " + MARK + b"\n#sleep 1\n")
        p.stdin.close()
        p.stdin = None
        out = b""
        while MARK not in out:
            chunk = p.stdout.read1(65536)
            if not chunk:
                break
            out += chunk
        with open("/proc/%d/status" % p.pid) as f:
            peak = int(re.search(r"^VmHWM:\s+(\d+) kB", f.read(), re.M).group(1))
        rest, err = p.communicate(timeout=TIMEOUT)
        self.assertEqual(p.returncode, 0, err)
        return peak, out + rest

    def test_line_without_end_is_cut_and_memory_stays_flat(self):
        small, _ = self.peak_kb(b"short")
        size = 16 << 20

        megabytes = (b"A" * (1 << 20) for _ in range(size >> 20))
        huge, out = self.peak_kb(itertools.chain([b"\n\r"], megabytes))
        line = next(l for l in out.split(b"\n") if l.startswith(b"AAAA"))
        self.assertEqual(line, b"A" * (PROTO_LINE_MAX - 1) + CUT_MARK)
        self.assertIn(MARK, out)
        print("peak memory: %d kB after a short line, %d kB after %d MB without a newline"
              % (small, huge, size >> 20))
        self.assertLess(huge - small, 2048, (small, huge))

    def test_impossible_positions_survive(self):
        rest = b"1 1 1 1 0 7 alice bob 0 5 0 39 39 300 300 %d none (0:00) %s 0 1 0"
        bad = [
            b"<12> " + b"KKKKKKKK " * 8 + b"W -1 " + rest % (1, b"none"),
            b"<12> " + b"KKKKKKKK " * 8 + b"B -1 " + rest % (1, b"Kb2"),
            b"<12> " + b"-------- " * 8 + b"B 7 " + rest % (1, b"none"),
            b"<12> " + b"PPPPPPPP " * 4 + b"pppppppp " * 4 + b"W 3 " + rest % (1, b"e4"),
            b"<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 "
            b"1 1 1 1 0 99999999999999999999 alice bob 9 5 0 39 39 -99999999999999 300 0 "
            b"none (0:00) none 7 1 -99999999999",
        ]
        good = (b"<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 "
                + rest % (1, b"e4"))
        fake = FakeFics(b"\n\r".join(bad + [good]))
        code, out, err = run_client(fake.port, env=self.env)
        self.assertEqual(code, 0, err)
        self.assertIn(MARK, out)
        self.assertNotIn(b"runtime error", err)     # UBSan, in the sanitizer build
        for line in bad + [good]:
            self.assertIn(line, out.split(b"\n"))


EC_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]


def make_cert(directory, name, ca=None, san="IP:127.0.0.1"):
    """A key and certificate for san: self-signed, or signed by ca (a name made
    before); a name starting with "ca" is an authority."""
    key, crt = (os.path.join(directory, name + ext) for ext in (".key", ".crt"))
    exts = ["subjectAltName=" + san]
    if name.startswith("ca"):
        exts.append("basicConstraints=critical,CA:TRUE")
    if ca is None:
        cmd = ["openssl", "req", "-x509"] + EC_KEY + ["-keyout", key, "-out", crt, "-days", "2",
                                                       "-subj", "/CN=" + name]
        for e in exts:
            cmd += ["-addext", e]
        subprocess.run(cmd, check=True, capture_output=True)
    else:
        csr, ext = (os.path.join(directory, name + e) for e in (".csr", ".ext"))
        with open(ext, "w") as f:
            f.write("\n".join(exts) + "\n")
        subprocess.run(["openssl", "req", "-new"] + EC_KEY + ["-keyout", key, "-out", csr,
                                                             "-subj", "/CN=" + name],
                       check=True, capture_output=True)
        ca_key, ca_crt = (os.path.join(directory, ca + e) for e in (".key", ".crt"))
        subprocess.run(["openssl", "x509", "-req", "-in", csr, "-CA", ca_crt, "-CAkey", ca_key,
                        "-CAcreateserial", "-out", crt, "-days", "2", "-extfile", ext],
                       check=True, capture_output=True)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(crt, key)
    return ctx


def fingerprint(directory, name):
    out = subprocess.run(["openssl", "x509", "-in", os.path.join(directory, name + ".crt"),
                          "-noout", "-fingerprint", "-sha256"], check=True, capture_output=True,
                         text=True).stdout
    return out.strip().split("=", 1)[1]


class Tls(Case):
    @classmethod
    def setUpClass(cls):
        if not shutil.which("openssl"):
            raise AssertionError("the openssl command is missing (apt-get install openssl)")
        cls.certs = tempfile.mkdtemp(prefix="chess-certs-")
        cls.self_a = make_cert(cls.certs, "serverA")
        cls.self_b = make_cert(cls.certs, "serverB")
        make_cert(cls.certs, "ca")
        cls.signed = make_cert(cls.certs, "signed", ca="ca")
        cls.misnamed = make_cert(cls.certs, "misnamed", ca="ca", san="DNS:other.example")
        cls.named = make_cert(cls.certs, "named", ca="ca", san="DNS:localhost")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.certs, True)

    def known_hosts(self):
        path = os.path.join(self.home, "chess", "known_hosts")
        if not os.path.exists(path):
            return None
        with open(path) as f:
            return f.read()

    def test_another_certificate_than_the_pinned_one_is_refused(self):
        fake = FakeFics(tls=self.self_a)
        port = fake.port
        code, out, err = run_client(port, "--accept-new", env=self.env, plain=False)
        self.assertEqual(code, 0, err)
        self.assertIn(b"Pinned the certificate of 127.0.0.1:%d" % port, err)
        pinned = self.known_hosts()
        self.assertEqual(pinned, "127.0.0.1:%d %s\n" % (port, fingerprint(self.certs, "serverA")))
        fake.join(TIMEOUT)
        # The same certificate again: silently trusted.
        fake = FakeFics(tls=self.self_a, port=port)
        code, out, err = run_client(port, env=self.env, plain=False)
        self.assertEqual(code, 0, err)
        self.assertEqual(err, b"")
        fake.join(TIMEOUT)
        # Another certificate on the same host and port: refused, with or without --accept-new.
        for args in ((), ("--accept-new",)):
            fake = FakeFics(tls=self.self_b, port=port)
            code, out, err = run_client(port, *args, env=self.env, plain=False)
            self.assertEqual(code, 5, err)
            self.assertIn(b"THE CERTIFICATE OF 127.0.0.1:%d HAS CHANGED" % port, err)
            self.assertIn(fingerprint(self.certs, "serverB").encode(), err)
            self.assertIn(b"Refusing to connect", err)
            self.assertNotIn(b"Starting FICS session", out)
            fake.join(TIMEOUT)
            self.assertNotIn(b"guest", fake.received)
            self.assertEqual(self.known_hosts(), pinned)
        # An authority's signature does not override the pin.
        env = dict(self.env, SSL_CERT_FILE=os.path.join(self.certs, "ca.crt"))
        fake = FakeFics(tls=self.signed, port=port)
        code, out, err = run_client(port, env=env, plain=False)
        self.assertEqual(code, 5, err)
        self.assertIn(b"HAS CHANGED", err)
        self.assertIn(b"the pin still decides", err)
        fake.join(TIMEOUT)
        # The user says otherwise by removing the pin: the new one is then pinned.
        os.unlink(os.path.join(self.home, "chess", "known_hosts"))
        fake = FakeFics(tls=self.self_b, port=port)
        code, out, err = run_client(port, "--accept-new", env=self.env, plain=False)
        self.assertEqual(code, 0, err)
        self.assertEqual(self.known_hosts(), "127.0.0.1:%d %s\n"
                         % (port, fingerprint(self.certs, "serverB")))

    def test_authority_and_hostname_are_verified(self):
        env = dict(self.env, SSL_CERT_FILE=os.path.join(self.certs, "ca.crt"))
        fake = FakeFics(tls=self.signed)
        code, out, err = run_client(fake.port, env=env, plain=False)
        self.assertEqual(code, 0, err)
        self.assertIn(MARK, out)
        self.assertEqual(err, b"")                  # no question, nothing pinned
        self.assertIsNone(self.known_hosts())
        # Signed by the same authority, but for another name: not verified, so not trusted
        # unless pinned (and without a terminal or --accept-new, not pinned).
        fake = FakeFics(tls=self.misnamed)
        code, out, err = run_client(fake.port, env=env, plain=False)
        self.assertEqual(code, 6, err)
        self.assertIn(b"IP address mismatch", err)
        self.assertNotIn(b"Starting FICS session", out)
        self.assertIsNone(self.known_hosts())
        # By name: the certificate's DNS name is checked (and the name is sent in SNI).
        fake = FakeFics(tls=self.named)
        code, out, err = run_client(fake.port, env=env, plain=False, host="localhost")
        self.assertEqual(code, 0, err)
        self.assertEqual(err, b"")
        fake = FakeFics(tls=self.misnamed)
        code, out, err = run_client(fake.port, env=env, plain=False, host="localhost")
        self.assertEqual(code, 6, err)
        self.assertIn(b"(hostname mismatch)", err)
        self.assertIsNone(self.known_hosts())

    def test_plain_server_on_the_tls_port_gets_no_login(self):
        fake = FakeFics()                           # speaks plain FICS
        code, out, err = run_client(fake.port, "--accept-new", env=self.env, plain=False)
        self.assertEqual(code, 1, err)
        self.assertEqual(err.count(b"\n"), 1, err)
        self.assertIn(b"chess: TLS handshake with 127.0.0.1:%d failed" % fake.port, err)
        self.assertIn(b"; nothing was sent\n", err)
        self.assertNotIn(b"--plain", err)          # no advice to give TLS up
        fake.join(TIMEOUT)
        self.assertNotIn(b"guest", fake.received)
        self.assertTrue(fake.received.startswith(b"\x16\x03"), fake.received[:8])  # a ClientHello

    def test_garbage_after_the_handshake(self):
        def garbage(fake, conn):
            raw = socket.socket(fileno=os.dup(conn.fileno()))
            raw.sendall(b"\n\r" + bytes(random.Random(7).randrange(256) for _ in range(4096)))
            time.sleep(1)
            raw.close()
        fake = FakeFics(garbage, tls=self.self_a)
        code, out, err = run_client(fake.port, "--accept-new", env=self.env, plain=False)
        self.assertEqual(code, 1, err)
        self.assertIn(b"Starting FICS session", out)
        self.assertRegex(err.split(b"\n", 1)[1], rb"^chess: TLS error on the connection: [^\n]+\n$")

    def test_close_without_close_notify(self):
        def vanish(fake, conn):
            conn.sendall(b"last words\n\rfics% ")
            raw = socket.socket(fileno=os.dup(conn.fileno()))
            raw.shutdown(socket.SHUT_RDWR)          # no close_notify: the TCP stream just ends
            raw.close()
        fake = FakeFics(vanish, tls=self.self_a)
        code, out, err = run_client(fake.port, "--accept-new", env=self.env, plain=False)
        self.assertEqual(code, 1, err)
        self.assertIn(b"last words\n", out)
        self.assertTrue(err.endswith(b"\nchess: the server closed the connection\n"), err)

    def test_close_during_the_handshake(self):
        def hang_up(fake, conn):
            fake.received = conn.recv(4096)
        fake = FakeFics(before_tls=hang_up)
        code, out, err = run_client(fake.port, env=self.env, plain=False)
        self.assertEqual(code, 1, err)
        self.assertEqual(err, b"chess: the server closed the connection during the TLS handshake\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
