"""End-to-end tests of the terminal client `chess` against a real chessd:
the interactive board under tmux (send-keys to type, capture-pane to read
the screen), a scripted client playing an engine account running
Stockfish, and the refusal of a pinned certificate that changed.

tmux and stockfish are required: without them these tests fail and say
which package to install (CI installs both)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chessd_harness as harness  # noqa: E402

CHESS = os.environ.get("CHESS") or os.path.join(
    os.path.dirname(harness.CHESSD), "chess")
STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")
TIMEOUT = max(harness.TIMEOUT, 30)


def need_tmux(test):
    if not shutil.which("tmux"):
        test.fail("tmux is not installed (apt-get install tmux): the screen tests need it")


def need_stockfish(test):
    if not os.access(STOCKFISH, os.X_OK):
        test.fail("%s is missing (apt-get install stockfish): the engine test needs it" % STOCKFISH)


class ClientTestCase(harness.ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.home = tempfile.mkdtemp(prefix="chess-home-")
        self.addCleanup(shutil.rmtree, self.home, True)
        self.procs = []
        self.addCleanup(self._stop_procs)

    def _stop_procs(self):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()

    def env(self, **extra):
        env = dict(os.environ, HOME=self.home, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.pop("XDG_CONFIG_HOME", None)
        env.update(extra)
        return env

    def account(self, srv, name, password):
        srv.useradd(name, password)
        path = os.path.join(self.home, name + ".pw")
        with open(path, "w") as f:
            f.write(password + "\n")
        return path

    def script_file(self, text):
        fd, path = tempfile.mkstemp(prefix="chess-script-", dir=self.home)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        return path

    def run_script(self, srv, text, *args, timeout=TIMEOUT, port=None):
        """Runs the client non-interactively to the end of its script."""
        cmd = [CHESS, "--port", str(port or srv.tls_port), "--script", self.script_file(text)]
        cmd += list(args) + ["127.0.0.1"]
        return subprocess.run(cmd, env=self.env(), capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)

    def start_script(self, srv, text, *args):
        cmd = [CHESS, "--port", str(srv.tls_port), "--script", self.script_file(text)]
        cmd += list(args) + ["127.0.0.1"]
        p = subprocess.Popen(cmd, env=self.env(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        self.procs.append(p)
        return p


class TestScriptAndEngine(ClientTestCase):
    def test_script_lines_out(self):
        srv = self.start_server()
        pw = self.account(srv, "alice", "alicepw")
        r = self.run_script(srv, "who\nfinger alice\n", "--user", "alice", "--password-file", pw)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertIn("**** Starting FICS session as alice ****", lines)
        self.assertIn("Finger of alice:", lines)
        self.assertTrue(any(re.search(r"\d+ players? displayed", l) for l in lines), r.stdout)
        # Set-up replies and prompts are not shown; no line carries block framing.
        self.assertNotIn("ms set.", lines)
        self.assertFalse(any("fics%" in l or "\x15" in l or "\x17" in l for l in lines))

    def test_wrong_password_exits_3(self):
        srv = self.start_server()
        self.account(srv, "alice", "alicepw")
        r = subprocess.run([CHESS, "--port", str(srv.tls_port), "--user", "alice", "--script",
                            self.script_file("who\n"), "127.0.0.1"],
                           env=self.env(CHESS_PASSWORD="wrong"), capture_output=True, text=True,
                           timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
        self.assertIn("invalid password", r.stderr)

    def test_game_against_engine_account(self):
        need_stockfish(self)
        srv = self.start_server()
        bot_pw = self.account(srv, "Fish", "fishpw")
        alice_pw = self.account(srv, "alice", "alicepw")
        bot = subprocess.Popen(
            [CHESS, "--port", str(srv.tls_port), "--user", "Fish", "--password-file", bot_pw,
             "--engine", STOCKFISH, "--engine-option", "Skill Level=0",
             "--engine-option", "Threads=1", "--seek", "1 0", "--accept-from", "alice",
             "127.0.0.1"],
            env=self.env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, text=True)
        self.procs.append(bot)
        # The engine account keeps a seek posted.
        deadline = time.monotonic() + TIMEOUT
        while True:
            r = self.run_script(srv, "sought\n", "--user", "alice", "--password-file", alice_pw)
            if "Fish" in r.stdout or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        self.assertRegex(r.stdout, r"\d+ +\S+ +Fish +1 0 ", r.stdout)
        # alice plays two quiet moves as White, answered by the engine, then resigns.
        my_move = "#wait alice Fish 1 1 0\n"
        r = self.run_script(srv, "match Fish 1 0 white\n#wait Creating:\n" + my_move +
                            "a3\n" + my_move + "h3\n" + my_move + "resign\n#wait {Game\n",
                            "--user", "alice", "--password-file", alice_pw, timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        out = r.stdout
        self.assertIn("Creating: alice (----) Fish (----) rated lightning 1 0", out)
        boards = [l for l in out.splitlines() if l.startswith("<12> ")]
        engine_moves = [l.split()[29 + 1] for l in boards if l.split()[9] == "W" and
                        l.split()[29 + 1] != "none"]
        self.assertGreaterEqual(len(engine_moves), 2, out)
        self.assertRegex(out, r"\{Game \d+ \(alice vs\. Fish\) alice resigns\} 0-1")
        # After the game the engine account seeks again.
        deadline = time.monotonic() + TIMEOUT
        seen = ""
        while time.monotonic() < deadline:
            r = self.run_script(srv, "sought\n", "--user", "alice", "--password-file", alice_pw)
            if "Fish" in r.stdout:
                break
            time.sleep(0.3)
        self.assertIn("Fish", r.stdout, seen)
        bot.terminate()
        bot_out, _ = bot.communicate(timeout=TIMEOUT)
        self.assertEqual(bot_out.count("Your seek has been posted"), 2, bot_out)


class TestPinning(ClientTestCase):
    def test_changed_certificate_is_refused(self):
        srv = self.start_server()
        port, tls_port = srv.port, srv.tls_port
        r = self.run_script(srv, "who\n")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("SHA-256 fingerprint", r.stderr)
        known = os.path.join(self.home, ".config", "chess", "known_hosts")
        with open(known) as f:
            pinned = f.read()
        self.assertRegex(pinned, r"^127\.0\.0\.1:%d ([0-9A-F]{2}:){31}[0-9A-F]{2}\n$" % tls_port)
        # Same certificate: no notice, no new line.
        r = self.run_script(srv, "who\n")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("fingerprint", r.stderr)
        srv.stop()
        # Another server (a new data directory: a new certificate) on the same ports.
        other = self.new_server(port=port, tls_port=tls_port)
        other.start()
        r = self.run_script(other, "who\n")
        self.assertEqual(r.returncode, 5, r.stdout + r.stderr)
        self.assertIn("HAS CHANGED", r.stderr)
        self.assertIn("Refusing to connect", r.stderr)
        self.assertNotIn("Starting FICS session", r.stdout)
        with open(known) as f:
            self.assertEqual(f.read(), pinned)
        # XDG_CONFIG_HOME takes precedence over $HOME/.config.
        xdg = os.path.join(self.home, "xdg")
        r = subprocess.run([CHESS, "--port", str(tls_port), "--script", self.script_file("who\n"),
                            "127.0.0.1"], env=self.env(XDG_CONFIG_HOME=xdg), capture_output=True,
                           text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(os.path.join(xdg, "chess", "known_hosts")))


class TestScreen(ClientTestCase):
    def setUp(self):
        super().setUp()
        need_tmux(self)
        self.tmux_socket = "chess-test-%d" % os.getpid()
        self.addCleanup(subprocess.run, ["tmux", "-L", self.tmux_socket, "kill-server"],
                        capture_output=True)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.tmux_socket] + list(args),
                              capture_output=True, text=True, check=True)

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "play").stdout

    def wait_screen(self, pattern, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            m = re.search(pattern, text, re.M)
            if m:
                return m, text
            time.sleep(0.1)
        self.fail("screen never showed %r; it shows:\n%s" % (pattern, text))

    def type(self, text):
        self.tmux("send-keys", "-t", "play", "-l", text)
        self.tmux("send-keys", "-t", "play", "Enter")

    def test_board_clocks_and_result(self):
        srv = self.start_server()
        alice_pw = self.account(srv, "alice", "alicepw")
        bob_pw = self.account(srv, "bob", "bobpw")
        # bob: a scripted opponent who answers 1. e4 with e5 after thinking 3 s, then resigns.
        bob = self.start_script(srv, "#wait Challenge:\naccept\n#wait alice bob 1 5 0\n"
                                "#sleep 3\ne5\n#wait alice bob 1 5 0\nresign\n#sleep 1\n",
                                "--user", "bob", "--password-file", bob_pw)
        env = self.env()
        cmd = " ".join([CHESS, "--ascii", "--port", str(srv.tls_port), "--user", "alice",
                        "--password-file", alice_pw, "127.0.0.1"])
        envs = ["HOME=" + env["HOME"], "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm-256color",
                "NO_COLOR=1"]  # without colour the screen marks the side to move with ">"
        self.tmux("new-session", "-d", "-s", "play", "-x", "100", "-y", "40",
                  "env " + " ".join(envs) + " " + cmd + "; sleep 30")
        self.wait_screen(r"Starting FICS session as alice")
        time.sleep(0.5)  # bob logs in too
        self.type("match bob 5 0 white")
        self.wait_screen(r"^> alice +[45]:\d\d")
        self.type("e4")
        m, text = self.wait_screen(r"^4  \.  \.  \.  \. \[P\] \.  \.  \.")
        self.assertRegex(text, r"(?m)^2  P  P  P  P \[\.\] P  P  P", text)
        self.assertRegex(text, r"1\. e4", text)
        # bob thinks: his clock, at the top, counts down on alice's screen.
        m1, _ = self.wait_screen(r"^> bob +(\d+):(\d\d)")
        first = int(m1.group(1)) * 60 + int(m1.group(2))
        time.sleep(2.2)
        m2, _ = self.wait_screen(r"^> bob +(\d+):(\d\d)")
        second = int(m2.group(1)) * 60 + int(m2.group(2))
        self.assertLess(second, first)
        self.assertGreaterEqual(second, first - 4)
        # e5 arrives: the board shows it, marked, and the move list has it.
        _, text = self.wait_screen(r"^5  \.  \.  \.  \. \[p\] \.  \.  \.")
        self.assertRegex(text, r"1\. e4 +e5", text)
        self.type("Nf3")
        _, text = self.wait_screen(r"Result: 1-0 \(bob resigns\)")
        self.assertRegex(text, r"(?m)^3  \.  \.  \.  \.  \. \[N\] \.  \.", text)
        self.assertRegex(text, r"2\. Nf3", text)
        bob.wait(TIMEOUT)
        self.type("quit")
        self.wait_screen(r"Thank you for using")


if __name__ == "__main__":
    unittest.main(verbosity=2)
