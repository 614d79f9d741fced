#!/usr/bin/env python3
"""Login scripts: a client may send its name, password and setup commands in
one packet, before any prompt; every command after the login gets its reply."""
import re
import socket

from chessd_harness import ChessdTestCase, GUEST_RE, main

STARTED = re.compile(rb"\*\*\*\* Starting FICS session as (\w+)(?:\(U\))? \*\*\*\*")


class LoginScript(ChessdTestCase):
    def run_script(self, c, script):
        """Sends the whole script in one send(); returns the name logged in as."""
        c.send_raw(script)
        c.expect(STARTED)
        return c.match.group(1).decode()

    def assert_setup_answered(self, c, name):
        out = c.expect(b"Finger of %s" % name.encode())
        self.assertIn(b"Style 12 set.", out)
        c.expect_prompt()
        # Style 12 is in force: the commands ran, in order, as this user.
        reply = c.command("variables")
        self.assertRegex(reply, rb"style=12\b")

    def test_account_script_in_one_packet(self):
        srv = self.start_server()
        srv.useradd("alice", "secret1")
        c = self.connect(srv)
        name = self.run_script(c, b"alice\nsecret1\nset style 12\nfinger\n")
        self.assertEqual(name, "alice")
        self.assert_setup_answered(c, name)

    def test_account_script_with_crlf_and_more_commands(self):
        srv = self.start_server()
        srv.useradd("alice", "secret1")
        c = self.connect(srv)
        c.send_raw(b"alice\r\nsecret1\r\nset style 12\r\nfinger\r\nset shout 0\r\nwho\r\n")
        c.expect(STARTED)
        out = c.expect(b"players displayed")
        self.assertIn(b"Style 12 set.", out)
        self.assertIn(b"Finger of alice", out)
        self.assertIn(b"You will not hear shouts.", out)

    def test_wrong_password_script_goes_on_at_login(self):
        # A wrong password returns to login: the rest of the packet is read there.
        srv = self.start_server()
        srv.useradd("alice", "secret1")
        c = self.connect(srv)
        name = self.run_script(c, b"alice\nwrong\nalice\nsecret1\nset style 12\nfinger\n")
        self.assertEqual(name, "alice")
        self.assertIn(b"Invalid password!", c.seen)
        self.assert_setup_answered(c, name)

    def test_account_script_behind_a_login_delay(self):
        # The password waits out a delay owed for earlier failures; the lines
        # behind it wait with it.
        srv = self.start_server(config={"login_free_failures": 0, "login_delay_base_ms": 500,
                                        "login_delay_max_ms": 500})
        srv.useradd("alice", "secret1")
        c = self.connect(srv, source="127.0.0.2")
        c.send_raw(b"alice\nwrong\n")
        c.expect(b"Invalid password!")
        c = self.connect(srv, source="127.0.0.3")
        name = self.run_script(c, b"alice\nsecret1\nset style 12\nfinger\n")
        self.assertEqual(name, "alice")
        self.assert_setup_answered(c, name)

    def test_account_script_then_hang_up(self):
        # Sent, then the sending side closed: the commands still run and
        # their replies still come.
        srv = self.start_server()
        srv.useradd("alice", "secret1")
        c = self.connect(srv)
        c.send_raw(b"alice\nsecret1\nset style 12\nfinger\n")
        c.sock.shutdown(socket.SHUT_WR)
        out = c.expect_closed()
        self.assertIn(b"Starting FICS session as alice", out)
        self.assertIn(b"Style 12 set.", out)
        self.assertIn(b"Finger of alice", out)

    def test_guest_script_in_one_packet(self):
        srv = self.start_server()
        c = self.connect(srv)
        c.send_raw(b"guest\n\nset style 12\nfinger\n")
        c.expect(GUEST_RE)
        name = c.match.group(1).decode()
        c.expect(STARTED)
        self.assertEqual(c.match.group(1).decode(), name)
        self.assert_setup_answered(c, name)

    def test_unregistered_script_in_one_packet(self):
        srv = self.start_server()
        c = self.connect(srv)
        name = self.run_script(c, b"Zebediah\n\nset style 12\nfinger\n")
        self.assertEqual(name, "Zebediah")
        self.assert_setup_answered(c, name)


if __name__ == "__main__":
    main()
