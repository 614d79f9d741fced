#!/usr/bin/env python3
"""The terminal client against a hostile (or spoofed) server: whatever the
server sends, nothing reaches the user's terminal that could retitle, clear,
recolour or reorder it.  The server here is a small fake that logs the
client in, answers its set-up in block mode, then sends escape sequences."""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake_server import CHESS, TIMEOUT, FakeFics  # noqa: E402

EVIL = [
    b"\x1b]0;pwned-title\x07",              # OSC: set the window title
    b"\x1b]2;pwned-title\x1b\\",            # OSC ended by ST
    b"\x1b[2J\x1b[H",                       # clear the screen, home the cursor
    b"\x1b[31mred\x1b[0m",                  # colour
    b"\x1bc",                               # full reset
    b"\x1b]52;c;ZXZpbA==\x07clip",          # write the clipboard
    b"\xc2\x9b2J\xc2\x9d0;pwned-title\x07",  # C1 CSI and OSC as UTF-8
    b"\x9b2J",                              # raw 8-bit CSI
    b"bob tells you: \xe2\x80\xaeevil\xe2\x80\xa8fake line",  # bidi override, line separator
    b"bell\x07back\x08space\rreturn",
]
MARK = b"END-OF-EVIL"


def evil_server():
    """Login as a guest, block-mode set-up answered, then EVIL (and around the login too)."""
    return FakeFics(b"".join(b"\n\r" + e + b"\n\rfics% " for e in EVIL),
                    welcome=b"\x1b]0;pwned-title\x07\x1b[2JWelcome\n\rlogin: ", mark=MARK)


def assert_harmless(test, out):
    for bad in (b"\x1b", b"\x9b", b"\x9d", b"\xc2\x9b", b"\xc2\x9d", b"\xe2\x80\xae",
                b"\xe2\x80\xa8", b"\x07", b"\x08", b"\r"):
        test.assertNotIn(bad, out, "%r reached the terminal" % bad)
    test.assertNotIn(b"pwned-title", out)


class HostileServer(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="chess-hostile-")
        self.addCleanup(shutil.rmtree, self.home, True)
        self.env = dict(os.environ, HOME=self.home, XDG_CONFIG_HOME=self.home, LANG="C.UTF-8",
                        LC_ALL="C.UTF-8")
        self.fake = evil_server()

    def test_script_mode_output(self):
        r = subprocess.run([CHESS, "--plain", "--port", str(self.fake.port), "127.0.0.1"],
                           input=b"#wait " + MARK + b"\n", capture_output=True, env=self.env,
                           timeout=TIMEOUT)
        self.fake.join(TIMEOUT)
        self.assertIsNone(self.fake.error)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout
        self.assertIn(MARK, out)
        assert_harmless(self, out)
        assert_harmless(self, r.stderr)
        # The text around the sequences is still there, each sequence one '?'.
        self.assertIn(b"?red?", out)
        self.assertIn(b"\n?clip\n", out)
        self.assertIn(b"bob tells you: ?evil?fake line", out)
        self.assertIn(b"bell?back?space?return", out)   # a CR that ends no line is shown

    def test_screen_keeps_its_title(self):
        if not shutil.which("tmux"):
            self.fail("tmux is not installed (apt-get install tmux): this test needs it")
        sock = "chess-hostile-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8])
        self.addCleanup(subprocess.run, ["tmux", "-L", sock, "kill-server"], capture_output=True)

        def tmux(*args):
            return subprocess.run(["tmux", "-L", sock] + list(args), capture_output=True,
                                  check=True).stdout
        tmux("new-session", "-d", "-s", "evil", "-x", "100", "-y", "40",
             "env HOME=%s XDG_CONFIG_HOME=%s LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color "
             "%s --plain --user guest --port %d 127.0.0.1; sleep 30" % (self.home, self.home, CHESS,
                                                          self.fake.port))
        tmux("set-option", "-t", "evil", "allow-rename", "on")
        title = tmux("display-message", "-p", "-t", "evil", "#{pane_title}")
        deadline = time.monotonic() + TIMEOUT
        screen = b""
        while MARK not in screen and time.monotonic() < deadline:
            time.sleep(0.1)
            screen = tmux("capture-pane", "-p", "-e", "-t", "evil")
        self.assertIn(MARK, screen)
        # Nothing was cleared: the first line the server sent is still on the screen.
        self.assertIn(b"Welcome", screen)
        self.assertIn(b"red", screen)
        self.assertNotIn(b"\x1b[31m", screen)
        self.assertEqual(tmux("display-message", "-p", "-t", "evil", "#{pane_title}"), title)
        self.assertNotIn(b"pwned", tmux("display-message", "-p", "-t", "evil", "#{window_name}"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
