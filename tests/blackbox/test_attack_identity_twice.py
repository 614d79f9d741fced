"""Attacking identity with two sessions of one account: the second login
takes over (as in lasker, with lasker's texts, the first session's line
being the one pychess reads as a logout rather than a lost connection), the
game seat passes to the new session, and the first can no longer act in
the game.  Our terminal client, so replaced, does not log in again to win
the seat back (two clients would evict each other for ever)."""
import os
import re
import subprocess
import time
import uuid

from games_harness import CHESSD, FAST, GT, GamesTestCase, main

PW = "secret1"
HERE = os.path.dirname(os.path.abspath(__file__))
CHESS = os.environ.get("CHESS_CLIENT") or os.path.join(os.path.dirname(CHESSD), "chess")
SYSTEM_PYTHON = os.environ.get("PYCHESS_PYTHON", "/usr/bin/python3")

# pychess's own regular expressions for being logged out, read from its
# AutoLogOutManager through a connection that records what it registers.
PYCHESS_LOGOUT = r"""
import builtins, json
builtins.__dict__.setdefault("_", lambda s: s)
import gi
gi.require_version("Gtk", "3.0")
from pychess.ic.managers.AutoLogOutManager import AutoLogOutManager
class Recorder:
    def __init__(self):
        self.rx = []
    def expect_line(self, cb, rx):
        self.rx.append(rx)
r = Recorder()
AutoLogOutManager(r)
print(json.dumps(r.rx))
"""


def pychess_logout_patterns():
    out = subprocess.run([SYSTEM_PYTHON, "-c", PYCHESS_LOGOUT], capture_output=True, text=True,
                         timeout=60)
    if out.returncode != 0:
        raise AssertionError("pychess could not be imported: %s" % out.stderr)
    import json
    return [re.compile(p) for p in json.loads(out.stdout.strip().splitlines()[-1])]


class TwoSessions(GamesTestCase):

    def tearDown(self):
        self.stop_servers_clean()

    def server(self):
        srv = self.new_server(config=FAST, tls=False)
        srv.useradd("alice", PW)
        srv.useradd("bob", PW)
        srv.start()
        return srv

    def test_second_login_takes_the_seat_with_laskers_texts(self):
        srv = self.server()
        a = self.user_player(srv, "alice", PW)
        b = self.user_player(srv, "bob", PW)
        self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["e4", "e5", "Nf3"])
        c = self.connect(srv)
        c.expect(b"login: ", GT)
        c.send_line("BOB")
        c.expect(b"password: ", GT)
        c.send_line(PW)
        out = c.expect(b"**** Starting FICS session as bob ****", GT)
        self.assertIn(b"\n\r **** bob is already logged in - kicking them out. ****\n\r", out)
        # The first session is told in lasker's words, which pychess reads as a logout.
        old = b.expect_closed(GT)
        m = re.search(rb"\n\r(\*\*\*\* [^\n\r]* \*\*\*\*)\n\r", old)
        self.assertIsNotNone(m, old)
        line = m.group(1).decode()
        self.assertEqual(line, "**** bob has arrived - you can't both be logged in. ****")
        self.assertTrue(any(p.match(line) for p in pychess_logout_patterns()), line)
        # The seat is the new session's: it gets the board and moves.
        c.expect(re.compile(rb"\{Game (\d+) \(alice vs\. bob\) Continuing [^\n]*\}"), GT)
        c.name = "bob"
        self.setup_client(c)
        a.expect(b"bob has returned; the game continues.", GT)
        self.expect12(a, san="Nf3")      # the board shown again as the game goes on
        d = self.move(c, a, "Nc6")
        self.assertEqual(d["relation"], -1)
        self.move(a, c, "Bc4")
        self.assertEqual(self.cmd(a, "who").count(b"bob"), 1)

    def test_the_first_session_cannot_act_once_replaced(self):
        srv = self.server()
        a = self.user_player(srv, "alice", PW)
        b = self.user_player(srv, "bob", PW)
        self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["e4", "e5", "Nf3"])
        c = self.connect(srv)
        c.login("bob", PW, timeout=GT)
        self.setup_client(c)
        b.expect(b"you can't both be logged in", GT)
        # Whatever the old socket still sends is not read.
        try:
            b.send_raw(b"resign\nNc6\nabort\n")
        except OSError:
            pass
        b.expect_closed(GT)
        a.expect(b"bob has returned; the game continues.", GT)
        self.expect12(a, san="Nf3")
        self.assertNotIn(b"resigns", a.read_for(0.5))
        self.assertNotIn(b"<12>", a.read_for(0.1))
        # Still black's move, and the new session's to make.
        self.move(c, a, "Nc6", san="Nc6")

    def test_guest_name_is_never_taken_over(self):
        """A guest's name is the session's: typing it again is refused."""
        srv = self.server()
        g = self.guest_player(srv)
        x = self.connect(srv)
        x.expect(b"login: ", GT)
        x.send_line(g.name)
        out = x.expect(re.compile(rb"login: |password: |Press return"), GT)
        if b"Press return" in out:
            x.send_line("")
            out += x.expect(b"login: ", GT)
        self.assertIn(b"is already logged in", out)
        self.assertNotIn(b"Starting FICS session", out)
        self.assertIn(g.name.encode(), self.cmd(g, "finger"))


class ReplacedClient(GamesTestCase):
    """The terminal client in tmux, replaced by a login elsewhere."""
    tearDown = TwoSessions.tearDown

    def setUp(self):
        super().setUp()
        self.assertEqual(subprocess.run(["tmux", "-V"], capture_output=True).returncode, 0,
                         "tmux is needed")
        self.tmux_socket = "chess-twice-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8])
        self.addCleanup(subprocess.run, ["tmux", "-L", self.tmux_socket, "kill-server"],
                        capture_output=True)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.tmux_socket] + list(args),
                              capture_output=True, text=True, check=True)

    def wait_screen(self, pattern, timeout=GT):
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.tmux("capture-pane", "-p", "-t", "play").stdout
            if re.search(pattern, text, re.M):
                return text
            time.sleep(0.1)
        self.fail("screen never showed %r; it shows:\n%s" % (pattern, text))

    def test_replaced_client_does_not_log_in_again(self):
        srv = self.new_server(config=FAST, tls=False)
        srv.useradd("alice", PW)
        srv.start()
        home = os.path.join(srv.workdir, "home")
        os.makedirs(home, exist_ok=True)
        pw_file = os.path.join(home, "pw")
        with open(pw_file, "w") as f:
            f.write(PW + "\n")
        os.chmod(pw_file, 0o600)
        cmd = " ".join([CHESS, "--ascii", "--plain", "--port", str(srv.port), "--user", "alice",
                        "--password-file", pw_file, "127.0.0.1"])
        envs = ["HOME=" + home, "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm-256color",
                "NO_COLOR=1"]
        self.tmux("new-session", "-d", "-s", "play", "-x", "100", "-y", "40",
                  "env " + " ".join(envs) + " " + cmd + "; echo exit=$?; sleep 30")
        self.wait_screen(r"Starting FICS session as alice")
        other = self.user_player(srv, "alice", PW)
        self.wait_screen(r"you can't both be logged in")
        # Were the client to log in again, this session would be the one replaced.
        self.assertNotIn(b"you can't both be logged in", other.read_for(3.0))
        self.assertEqual(self.cmd(other, "who").count(b"alice"), 1)
        self.assertNotIn("Reconnected", self.tmux("capture-pane", "-p", "-t", "play").stdout)


if __name__ == "__main__":
    main()
