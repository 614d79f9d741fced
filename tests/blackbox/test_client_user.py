#!/usr/bin/env python3
"""The terminal client as a user finds it, against a real chessd over TLS:
the README's promises for a game, checked on the screen under tmux: the
board in Unicode pieces and the move list in Spanish (--lang es), an
illegal move refused in one line, a premove kept and played at the turn,
Ctrl-C asking before it resigns, the result kept on the board, and "quit"
ending the client with exit 0."""
import os
import re
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_client  # noqa: E402
from test_client import CHESS, TIMEOUT  # noqa: E402


class TestUser(test_client.ClientTestCase):
    def setUp(self):
        super().setUp()
        test_client.need_tmux(self)
        self.tmux_socket = "chess-user-%d" % os.getpid()
        self.addCleanup(self.tmux_quiet, "kill-server")

    def tmux_quiet(self, *args):
        subprocess.run(["tmux", "-L", self.tmux_socket] + list(args), capture_output=True)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.tmux_socket] + list(args), capture_output=True,
                              text=True, check=True)

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "play").stdout

    def wait_screen(self, pattern, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if re.search(pattern, text, re.M):
                return text
            time.sleep(0.1)
        self.fail("screen never showed %r; it shows:\n%s" % (pattern, text))

    def type(self, text):
        self.tmux("send-keys", "-t", "play", "-l", text)
        self.tmux("send-keys", "-t", "play", "Enter")

    def test_a_game_in_spanish_with_premove_resign_and_quit(self):
        srv = self.start_server()
        alice_pw = self.account(srv, "alice", "alicepw")
        srv.useradd("bob", "bobpw")
        bob = self.connect(srv)
        bob.login("bob", "bobpw")
        bob.command("style 12")
        envs = ["HOME=" + self.home, "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm-256color",
                "NO_COLOR=1"]
        cmd = " ".join([CHESS, "--lang", "es", "--accept-new", "--port", str(srv.tls_port),
                        "--user", "alice", "--password-file", alice_pw, "127.0.0.1"])
        self.tmux("new-session", "-d", "-s", "play", "-x", "100", "-y", "40",
                  "env " + " ".join(envs) + " " + cmd + "; echo exit=$?; sleep 30")
        self.wait_screen(r"Starting FICS session as alice")
        self.type("match bob 5 0 white")
        bob.expect(b'You can "accept" or "decline"')
        bob.send_line("accept")
        text = self.wait_screen(r"^Partida \d+: alice contra bob \(5 0\)")
        # Unicode pieces, White at the bottom.
        self.assertRegex(text, "(?m)^1 +\u2656 +\u2658 +\u2657 +\u2655 +\u2654")
        self.assertRegex(text, "(?m)^8 +\u265c +\u265e")
        # An illegal move is refused on the client, in one line; nothing goes to the server.
        self.type("e5")
        self.wait_screen(r"^Illegal move: e5$")
        self.type("e4")
        bob.expect(re.compile(rb"<12> [^\n]* P/e2-e4 "))
        # Before bob answers, a Spanish knight move is kept as a premove...
        self.type("Cf3")
        self.wait_screen(r"\(premove kept until your turn\)")
        bob.send_line("e5")
        # ...and played as soon as it is alice's turn.
        bob.expect(re.compile(rb"<12> [^\n]* N/g1-f3 "))
        text = self.wait_screen(r"2\. Cf3")
        self.assertRegex(text, r"1\. e4 +e5")
        bob.send_line("Nc6")
        self.wait_screen(r"2\. Cf3 +Cc6")
        # Ctrl-C asks first; anything but y goes on.
        self.tmux("send-keys", "-t", "play", "C-c")
        self.wait_screen(r"Resign this game\? Type y to resign, anything else to go on\.")
        self.type("n")
        self.wait_screen(r"^Not resigned\.$")
        self.tmux("send-keys", "-t", "play", "C-c")
        self.wait_screen(r"Resign this game\?")
        self.type("y")
        bob.expect(b"alice resigns")
        text = self.wait_screen(r"Resultado: 0-1 \(alice resigns\)")
        self.assertRegex(text, r"2\. Cf3 +Cc6")    # the board and list stay
        self.type("quit")
        text = self.wait_screen(r"^exit=\d+$")
        self.assertRegex(text, r"(?m)^exit=0$")
        self.assertIn("Thank you for using", text)
        # The close after "quit" is no news: no error line, no prompt left over.
        self.assertNotIn("closed the connection", text)
        self.assertRegex(text, r"Thank you for using chessd\.\n+exit=0")
        self.assertNotIn("Sanitizer", text)
        if os.environ.get("SHOW"):
            print(text)

    def test_max_games_out_of_range_is_refused(self):
        # The README says 1 to 16; 17 was taken and quietly made 16.
        for bad in ("0", "17", "99999999999", "x"):
            r = subprocess.run([CHESS, "--engine", "/bin/true", "--user", "Fish", "--max-games",
                                bad, "127.0.0.1"], capture_output=True, text=True,
                               timeout=TIMEOUT, env=self.env())
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(r.stderr, "chess: --max-games takes a number from 1 to 16\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
