#!/usr/bin/env python3
"""TLS: the self-signed certificate made on first start, verification for
"localhost", reuse, reload on SIGHUP, and abrupt clients."""
import os
import re
import shutil
import signal
import socket
import ssl
import stat
import time

from chessd_harness import ChessdTestCase, Client, GUEST_RE, Server, TIMEOUT, main


def served_cert_der(srv, cafile=None, hostname="localhost"):
    """The DER certificate a new TLS connection sees (verified against cafile)."""
    ctx = ssl.create_default_context(cafile=cafile or srv.cert_path)
    with socket.create_connection(("127.0.0.1", srv.tls_port), timeout=TIMEOUT) as raw:
        with ctx.wrap_socket(raw, server_hostname=hostname) as s:
            return s.getpeercert(binary_form=True)


def file_der(path):
    with open(path) as f:
        return ssl.PEM_cert_to_DER_cert(f.read())


class Tls(ChessdTestCase):
    def test_login_over_tls_verified_for_localhost(self):
        srv = self.start_server()
        c = self.connect(srv, tls=True)
        self.assertEqual(c.sock.version() in ("TLSv1.2", "TLSv1.3"), True, c.sock.version())
        name = c.login_guest()
        self.assertIn(name.encode() + b"(U)", c.command("who"))
        # Registered login over TLS, with the telnet echo bytes intact.
        srv.useradd("alice", "secret1")
        a = self.connect(srv, tls=True)
        out = a.login("alice", "secret1")
        self.assertIn(b"\xff\xfb\x01password: ", out)
        self.assertIn(b"**** Starting FICS session as alice ****", out)
        # A plain and a TLS user talk to each other.
        p = self.guest(srv)
        p.command("tell alice over plain")
        a.expect(b"%s(U) tells you: over plain" % p.name.encode())
        self.assertIn("(TLS)", srv.log())

    def test_verification_fails_for_another_host_name(self):
        srv = self.start_server()
        with self.assertRaises(ssl.SSLCertVerificationError) as cm:
            Client(srv.tls_port, tls=True, cafile=srv.cert_path,
                   server_hostname="not-this-server.example")
        self.assertIn("Hostname mismatch", str(cm.exception))
        # Without the certificate as trust anchor, it is not trusted either.
        ctx = ssl.create_default_context()
        with socket.create_connection(("127.0.0.1", srv.tls_port)) as raw:
            with self.assertRaises(ssl.SSLCertVerificationError):
                ctx.wrap_socket(raw, server_hostname="localhost")
        # The server shrugs these off.
        self.connect(srv, tls=True).login_guest()

    def test_certificate_files_created_and_reused(self):
        srv = self.start_server()
        self.assertTrue(os.path.isfile(srv.cert_path))
        self.assertTrue(os.path.isfile(srv.key_path))
        self.assertEqual(stat.S_IMODE(os.stat(srv.key_path).st_mode), 0o600)
        self.assertEqual(stat.S_IMODE(os.stat(srv.cert_path).st_mode) & 0o022, 0)
        with open(srv.cert_path, "rb") as f:
            cert1 = f.read()
        with open(srv.key_path, "rb") as f:
            key1 = f.read()
        self.assertIn(b"BEGIN CERTIFICATE", cert1)
        self.assertIn(b"PRIVATE KEY", key1)
        self.assertEqual(served_cert_der(srv), file_der(srv.cert_path))
        srv.stop()
        srv.start()
        with open(srv.cert_path, "rb") as f:
            self.assertEqual(f.read(), cert1)
        with open(srv.key_path, "rb") as f:
            self.assertEqual(f.read(), key1)
        self.assertEqual(served_cert_der(srv), file_der(srv.cert_path))
        # Another data directory gets a different pair.
        other = self.start_server()
        self.assertNotEqual(file_der(other.cert_path), file_der(srv.cert_path))

    def test_sighup_reloads_certificate(self):
        srv = self.start_server()
        old_der = file_der(srv.cert_path)
        old_ca = os.path.join(srv.workdir, "old-cert.pem")
        shutil.copy(srv.cert_path, old_ca)
        # An existing TLS session, logged in.
        keep = self.connect(srv, tls=True)
        keep.login_guest()
        # A fresh pair made by another chessd in another data directory.
        maker = self.start_server()
        maker.kill()            # it has written its pair; only the files matter
        new_der = file_der(maker.cert_path)
        self.assertNotEqual(new_der, old_der)
        for src, dst in ((maker.key_path, srv.key_path), (maker.cert_path, srv.cert_path)):
            tmp = dst + ".new"
            shutil.copy(src, tmp)
            os.chmod(tmp, 0o600)
            os.replace(tmp, dst)
        mark = len(srv.log())
        srv.signal(signal.SIGHUP)
        srv.wait_log("certificate reloaded", since=mark)
        # New connections see the new certificate ...
        self.assertEqual(served_cert_der(srv, cafile=srv.cert_path), new_der)
        with self.assertRaises(ssl.SSLCertVerificationError):
            served_cert_der(srv, cafile=old_ca)
        n = self.connect(srv, tls=True)
        n.login_guest()
        # ... while the old session keeps working.
        self.assertIn(b"2 players displayed (of 2).", keep.command("who"))
        keep.command("tell %s still here" % n.name)
        n.expect(b"tells you: still here")
        srv.stop()

    def test_sighup_with_broken_files_keeps_old_certificate(self):
        srv = self.start_server()
        old_der = file_der(srv.cert_path)
        with open(srv.cert_path, "rb") as f:
            good = f.read()
        with open(srv.cert_path, "w") as f:
            f.write("-----BEGIN CERTIFICATE-----\ngarbage\n-----END CERTIFICATE-----\n")
        mark = len(srv.log())
        srv.signal(signal.SIGHUP)
        srv.wait_log("certificate reload failed, keeping the old one", since=mark)
        with open(srv.cert_path, "wb") as f:
            f.write(good)
        self.assertEqual(served_cert_der(srv), old_der)
        self.connect(srv, tls=True).login_guest()
        srv.stop()

    def test_sighup_with_mismatched_key_keeps_old_certificate(self):
        srv = self.start_server()
        old_der = file_der(srv.cert_path)
        maker = self.start_server()
        maker.kill()
        shutil.copy(maker.key_path, srv.key_path)     # the key of another pair
        mark = len(srv.log())
        srv.signal(signal.SIGHUP)
        m = srv.wait_log(re.compile(r"certificate reload failed, keeping the old one: ([^\n]*)"),
                         since=mark)
        self.assertIn("does not match", m.group(1))
        self.assertEqual(served_cert_der(srv), old_der)
        self.connect(srv, tls=True).login_guest()
        srv.stop()

    def test_sighup_without_tls_port_is_harmless(self):
        srv = self.start_server(tls=False)
        c = self.guest(srv)
        srv.signal(signal.SIGHUP)
        time.sleep(0.2)
        self.assertIn(b"players displayed", c.command("who"))
        srv.stop()

    def test_reset_mid_session_does_not_disturb_others(self):
        srv = self.start_server()
        a = self.connect(srv, tls=True)
        a.login_guest()
        b = self.connect(srv, tls=True)
        b.login_guest()
        p = self.guest(srv)
        # a sends half a record, then resets the connection.
        a.send_under_tls(b"\x17\x03\x03\x00\x40" + b"\x00" * 10)
        a.reset()
        # One that resets in the middle of the handshake.
        h = socket.create_connection(("127.0.0.1", srv.tls_port))
        h.sendall(b"\x16\x03\x01\x00\xc8\x01\x00\x00\xc4\x03\x03")
        h.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        h.close()
        # And one that sends plain text to the TLS port.
        t = socket.create_connection(("127.0.0.1", srv.tls_port))
        t.sendall(b"guest\r\n")
        t.settimeout(TIMEOUT)
        try:
            while t.recv(4096):
                pass
        except ConnectionResetError:
            pass
        t.close()
        deadline = time.monotonic() + TIMEOUT
        while True:
            who = b.command("who")
            if b"2 players displayed (of 2)." in who:
                break
            self.assertLess(time.monotonic(), deadline, who)
            time.sleep(0.05)
        b.command("tell %s fine" % p.name)
        p.expect(b"tells you: fine")
        self.connect(srv, tls=True).login_guest()
        srv.stop()

    def test_server_side_closes_send_close_notify(self):
        srv = self.start_server(config={"login_tries_per_conn": 1, "login_free_failures": 100})
        srv.useradd("alice", "secret1")
        # quit
        q = self.connect(srv, tls=True)
        q.login_guest()
        q.send_line("quit")
        self.assertIn(b"Thank you for using chessd.", q.expect_closed())
        self.assertEqual(q.close_kind, "close_notify")
        # too many failed logins
        f = self.connect(srv, tls=True)
        f.expect(b"login: ")
        f.send_line("alice")
        f.expect(b"password: ")
        f.send_line("wrong")
        self.assertIn(b"**** Too many failed logins; goodbye. ****", f.expect_closed())
        self.assertEqual(f.close_kind, "close_notify")
        # replaced by a new login
        a = self.connect(srv, tls=True)
        a.login("alice", "secret1")
        self.user(srv, "alice", "secret1", tls=True)
        self.assertIn(b"you can't both be logged in", a.expect_closed())
        self.assertEqual(a.close_kind, "close_notify")
        srv.stop()
        # login timeout (a server of its own: the deadline is short)
        srv = self.start_server(config={"login_ms": 300})
        t = self.connect(srv, tls=True)
        t.expect(b"login: ")
        self.assertIn(b"**** LOGIN TIMEOUT ****", t.expect_closed())
        self.assertEqual(t.close_kind, "close_notify")
        self.connect(srv).expect_closed()
        srv.stop()

    def test_cert_and_key_options(self):
        maker = self.start_server()
        maker.kill()            # it has written its pair; only the files matter
        srv = self.start_server(extra_args=["--cert", maker.cert_path, "--key", maker.key_path])
        self.assertEqual(served_cert_der(srv, cafile=maker.cert_path), file_der(maker.cert_path))
        self.assertFalse(os.path.exists(srv.cert_path), "no default pair is made with --cert")
        self.connect(srv, tls=True, cafile=maker.cert_path).login_guest()
        srv.stop()


if __name__ == "__main__":
    main()
