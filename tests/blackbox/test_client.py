"""End-to-end tests of the terminal client `chess` against a real chessd:
the interactive board under tmux (send-keys to type, capture-pane to read
the screen), a scripted client playing an engine account running
Stockfish, and the refusal of a pinned certificate that changed.

tmux and stockfish are required: without them these tests fail and say
which package to install (CI installs both)."""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import uuid

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


class CuttableProxy:
    """A TCP proxy on a free loopback port to the server's plain port; cut()
    drops every connection through it (as a network failure would) and it
    goes on accepting new ones."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.pairs = []
        self.accepted = 0
        self.closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closing:
            try:
                down, _ = self.listener.accept()
            except OSError:
                return
            try:
                up = socket.create_connection(("127.0.0.1", self.target_port), timeout=TIMEOUT)
            except OSError:
                down.close()
                continue
            with self.lock:
                self.pairs.append((down, up))
                self.accepted += 1
            for a, b in ((down, up), (up, down)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def close(self):
        self.closing = True
        self.cut()
        self.listener.close()


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

    def run_script(self, srv, text, *args, timeout=TIMEOUT, port=None, accept_new=True):
        """Runs the client non-interactively to the end of its script."""
        cmd = [CHESS, "--port", str(port or srv.tls_port), "--script", self.script_file(text)]
        cmd += (["--accept-new"] if accept_new else []) + list(args) + ["127.0.0.1"]
        return subprocess.run(cmd, env=self.env(), capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)

    def start_script(self, srv, text, *args):
        cmd = [CHESS, "--port", str(srv.tls_port), "--accept-new", "--script",
               self.script_file(text)]
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
        r = subprocess.run([CHESS, "--port", str(srv.tls_port), "--accept-new", "--user", "alice",
                            "--script",
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
            [CHESS, "--port", str(srv.tls_port), "--accept-new", "--user", "Fish",
             "--password-file", bot_pw,
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
            # The sought listing itself, not a <s> line announcing the seek meanwhile.
            if re.search(r"\d+ +\S+ +Fish +1 +0 ", r.stdout) or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        self.assertRegex(r.stdout, r"\d+ +\S+ +Fish +1 +0 ", r.stdout)
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
        self.assertIn("Pinned the certificate of 127.0.0.1:%d (SHA-256 " % tls_port, r.stderr)
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
        r = subprocess.run([CHESS, "--port", str(tls_port), "--accept-new", "--script",
                            self.script_file("who\n"),
                            "127.0.0.1"], env=self.env(XDG_CONFIG_HOME=xdg), capture_output=True,
                           text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(os.path.join(xdg, "chess", "known_hosts")))


    def test_new_certificate_needs_a_confirmation(self):
        """Without a terminal and without --accept-new a first-seen certificate
        is refused (exit 6) and nothing is pinned."""
        srv = self.start_server()
        r = self.run_script(srv, "who\n", accept_new=False)
        self.assertEqual(r.returncode, 6, r.stdout + r.stderr)
        self.assertIn("has not been pinned", r.stderr)
        self.assertIn("--accept-new", r.stderr)
        self.assertRegex(r.stderr, r"SHA-256 fingerprint: ([0-9A-F]{2}:){31}[0-9A-F]{2}")
        self.assertNotIn("Starting FICS session", r.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.home, ".config", "chess", "known_hosts")))

    def test_quit_in_a_script_exits_0(self):
        srv = self.start_server()
        r = self.run_script(srv, "who\nquit\n")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("Thank you for using chessd.", r.stdout)
        self.assertNotIn("closed the connection", r.stderr)


class TestScreen(ClientTestCase):
    def setUp(self):
        super().setUp()
        need_tmux(self)
        self.tmux_socket = "chess-test-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8])
        self.addCleanup(subprocess.run, ["tmux", "-L", self.tmux_socket, "kill-server"],
                        capture_output=True)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.tmux_socket] + list(args),
                              capture_output=True, text=True, check=True)

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "play").stdout

    def wait_screen(self, pattern, timeout=TIMEOUT, absent=False):
        """Waits for pattern on the screen (absent=True: for it to be gone)."""
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            m = re.search(pattern, text, re.M)
            if bool(m) != absent:
                return m, text
            time.sleep(0.1)
        self.fail("screen %s %r; it shows:\n%s" % ("still showed" if absent else "never showed",
                                                   pattern, text))

    def type(self, text):
        self.tmux("send-keys", "-t", "play", "-l", text)
        self.tmux("send-keys", "-t", "play", "Enter")

    def start_screen(self, port, user, pw_file, *args):
        """The interactive client in a 100x40 tmux pane, ASCII and no colours."""
        env = self.env()
        cmd = " ".join([CHESS, "--ascii", "--accept-new", "--port", str(port), "--user", user,
                        "--password-file", pw_file] + list(args) + ["127.0.0.1"])
        envs = ["HOME=" + env["HOME"], "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm-256color",
                "NO_COLOR=1"]
        self.tmux("new-session", "-d", "-s", "play", "-x", "100", "-y", "40",
                  "env " + " ".join(envs) + " " + cmd + "; sleep 30")

    def start_guest_screen(self, port, *args, again=False):
        """A guest client in a 200-column pane; again=True runs it anew in the same pane
        (killing the only session would stop the tmux server under the next command)."""
        env = self.env()
        cmd = " ".join([CHESS, "--ascii", "--port", str(port), "--user", "guest"] + list(args) +
                       ["127.0.0.1"])
        envs = ["HOME=" + env["HOME"], "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm-256color",
                "NO_COLOR=1"]
        shell = "env " + " ".join(envs) + " " + cmd + "; echo exit=$?; sleep 30"
        if again:
            self.tmux("respawn-pane", "-k", "-t", "play", "clear; " + shell)
        else:
            self.tmux("new-session", "-d", "-s", "play", "-x", "200", "-y", "40", shell)

    def test_first_certificate_asked_on_the_terminal(self):
        srv = self.start_server()
        known = os.path.join(self.home, ".config", "chess", "known_hosts")
        # "no": refused, nothing pinned.
        self.start_guest_screen(srv.tls_port)
        self.wait_screen(r"Are you sure you want to continue connecting \(yes/no\)\? *$")
        _, text = self.wait_screen(r"SHA-256 fingerprint: ([0-9A-F]{2}:){31}[0-9A-F]{2}")
        self.tmux("send-keys", "-t", "play", "no", "Enter")
        self.wait_screen(r"^exit=6$")
        self.assertFalse(os.path.exists(known))
        # "yes": pinned, and the session starts.
        self.start_guest_screen(srv.tls_port, again=True)
        self.wait_screen(r"^exit=6$", absent=True)
        self.wait_screen(r"continue connecting \(yes/no\)\?")
        self.tmux("send-keys", "-t", "play", "yes", "Enter")
        self.wait_screen(r"Starting FICS session as Guest")
        with open(known) as f:
            self.assertRegex(f.read(), r"^127\.0\.0\.1:%d ([0-9A-F]{2}:){31}[0-9A-F]{2}\n$"
                             % srv.tls_port)

    def test_typed_command_shown_once(self):
        srv = self.start_server()
        self.start_guest_screen(srv.port, "--plain")
        self.wait_screen(r"Starting FICS session as Guest")
        # Each of several commands once, where it was typed; the reply after it,
        # and a bare prompt (not the last command again) at the end.
        for command, reply in (("finger", r"Finger of Guest"), ("date", r"^GMT "),
                               ("uptime", r"[Uu]p for")):
            self.tmux("send-keys", "-t", "play", command, "Enter")
            _, text = self.wait_screen(reply)
            time.sleep(0.3)
            text = self.screen()
            lines = [l.rstrip() for l in text.splitlines() if l.strip()]
            self.assertEqual(sum(1 for l in lines if l.endswith(command)), 1, text)
            self.assertIn("> " + command, lines, text)
            self.assertEqual(lines[-1], ">", text)

    def raw_user(self, srv, name, password):
        """A scripted opponent over a raw socket (plain port)."""
        c = self.connect(srv)
        c.login(name, password)
        c.command("style 12")
        return c

    def accept_match(self, bob):
        bob.expect(b'You can "accept" or "decline", or propose different parameters.')
        bob.send_line("accept")
        bob.expect(b"{Game ")

    def answer(self, bob, expected_verbose, reply):
        """bob waits for White's move (its verbose form) on his board, then replies."""
        bob.expect(re.compile(rb"<12> [^\n]* %s " % re.escape(expected_verbose.encode())))
        if reply:
            bob.send_line(reply)

    def test_board_clocks_and_result(self):
        srv = self.start_server()
        alice_pw = self.account(srv, "alice", "alicepw")
        bob_pw = self.account(srv, "bob", "bobpw")
        # bob: a scripted opponent who answers 1. e4 with e5 after thinking 3 s, then resigns.
        bob = self.start_script(srv, "#wait Challenge:\naccept\n#wait alice bob 1 5 0\n"
                                "#sleep 3\ne5\n#wait alice bob 1 5 0\nresign\n#sleep 1\n",
                                "--user", "bob", "--password-file", bob_pw)
        env = self.env()
        cmd = " ".join([CHESS, "--ascii", "--accept-new", "--port", str(srv.tls_port),
                        "--user", "alice",
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

    def test_restart_adjourns_then_resume(self):
        """The server dies mid-game and comes back on the same data and ports:
        the client reconnects, says the game was adjourned, and "resume" (with
        the opponent's "resume") brings the board back with every move."""
        srv = self.start_server()
        srv.fixed_port, srv.fixed_tls_port = srv.port, srv.tls_port
        alice_pw = self.account(srv, "alice", "alicepw")
        srv.useradd("bob", "bobpw")
        bob = self.raw_user(srv, "bob", "bobpw")
        self.start_screen(srv.tls_port, "alice", alice_pw)
        self.wait_screen(r"Starting FICS session as alice")
        self.type("match bob 5 0 white")
        self.accept_match(bob)
        self.wait_screen(r"^> alice +[45]:\d\d")
        self.type("e4")
        self.answer(bob, "P/e2-e4", "e5")
        self.wait_screen(r"1\. e4 +e5")
        self.type("Nf3")
        self.answer(bob, "N/g1-f3", "Nc6")
        self.wait_screen(r"2\. Nf3 +Nc6")
        srv.kill()
        bob.close()
        self.wait_screen(r"Connection to the server lost")
        self.wait_screen(r"Reconnecting in \d+ s")
        srv.start()
        bob = self.raw_user(srv, "bob", "bobpw")
        _, text = self.wait_screen(r'Your game with bob was adjourned\. Type "resume bob"')
        self.assertIn("Reconnected as alice.", text)
        self.type("resume")
        bob.expect(b"alice would like to resume your adjourned game.")
        bob.send_line("resume")
        _, text = self.wait_screen(r"Creating: alice \(----\) bob \(----\)")
        self.assertRegex(text, r"(?m)^> alice +[45]:\d\d", text)
        self.assertRegex(text, r"1\. e4 +e5", text)
        self.assertRegex(text, r"2\. Nf3 +Nc6", text)
        self.assertRegex(text, r"(?m)^6  \.  \. \[n\] \.  \.  \.  \.  \.", text)
        self.assertRegex(text, r"(?m)^3  \.  \.  \.  \.  \.  N  \.  \.", text)
        # The game goes on: a move from the resumed position reaches bob.
        self.type("Bb5")
        self.answer(bob, "B/f1-b5", None)
        self.wait_screen(r"3\. Bb5")

    def test_lost_connection_within_grace_continues(self):
        """The network drops (a proxy cut): the client reconnects within the
        grace period and the server continues the game by itself."""
        srv = self.start_server()
        alice_pw = self.account(srv, "alice", "alicepw")
        srv.useradd("bob", "bobpw")
        proxy = CuttableProxy(srv.port)
        self.addCleanup(proxy.close)
        bob = self.raw_user(srv, "bob", "bobpw")
        self.start_screen(proxy.port, "alice", alice_pw, "--plain")
        self.wait_screen(r"Starting FICS session as alice")
        self.type("match bob 5 0 white")
        self.accept_match(bob)
        self.type("e4")
        self.answer(bob, "P/e2-e4", "e5")
        self.wait_screen(r"1\. e4 +e5")
        proxy.cut()
        bob.expect(b"Your opponent, alice, has lost contact or quit.")
        self.wait_screen(r"Connection to the server lost")
        bob.expect(b"alice has returned; the game continues.")
        _, text = self.wait_screen(r"Your game with bob continues\.")
        self.assertIn("Reconnected as alice.", text)
        self.assertEqual(proxy.accepted, 2)
        self.assertRegex(text, r"1\. e4 +e5", text)
        self.type("Nf3")
        self.answer(bob, "N/g1-f3", None)
        _, text = self.wait_screen(r"2\. Nf3")
        self.assertRegex(text, r"(?m)^3  \.  \.  \.  \.  \. \[N\] \.  \.", text)
        # A quit is not a lost connection: the client ends.
        self.type("quit")
        _, text = self.wait_screen(r"Thank you for using")
        time.sleep(1.5)
        after = self.screen().split("Thank you for using")[-1]
        self.assertNotIn("Reconnecting", after)
        self.assertNotIn("Sanitizer", after)     # under CHESS_SANITIZE: no leak or error report

    def test_observe_fetches_moves_and_names_complete(self):
        """Observing a game under way shows its moves from the first; player
        names complete with Tab, learnt from a quiet "who" at login and from
        a "who" the user types."""
        srv = self.start_server()
        alice_pw = self.account(srv, "alice", "alicepw")
        for name in ("carol", "dave", "erin"):
            srv.useradd(name, name + "pw")
        carol = self.raw_user(srv, "carol", "carolpw")
        dave = self.raw_user(srv, "dave", "davepw")
        carol.command("match dave 5 0 white")
        self.accept_match(dave)
        for mover, other, mv, verbose in ((carol, dave, "e4", "P/e2-e4"), (dave, carol, "e5", "P/e7-e5"),
                                          (carol, dave, "Nf3", "N/g1-f3")):
            mover.send_line(mv)
            other.expect(re.compile(rb"<12> [^\n]* %s " % re.escape(verbose.encode())))
        self.start_screen(srv.tls_port, "alice", alice_pw)
        self.wait_screen(r"Starting FICS session as alice")
        time.sleep(1)
        # The login's "who" is not shown, but its names complete.
        self.assertNotIn("players displayed", self.screen())
        self.tmux("send-keys", "-t", "play", "-l", "finger ca")
        self.tmux("send-keys", "-t", "play", "Tab")
        self.wait_screen(r"^> finger carol")
        self.tmux("send-keys", "-t", "play", "Enter")
        self.wait_screen(r"Finger of carol:")
        erin = self.raw_user(srv, "erin", "erinpw")
        self.type("who")
        self.wait_screen(r"4 players displayed")
        # (libedit may not redraw the completed line here: the tell reaching erin proves it.)
        self.tmux("send-keys", "-t", "play", "-l", "tell er")
        self.tmux("send-keys", "-t", "play", "Tab")
        time.sleep(0.3)
        self.tmux("send-keys", "-t", "play", "-l", "hello")
        self.tmux("send-keys", "-t", "play", "Enter")
        erin.expect(b"alice tells you: hello")
        # Joined at move 2: the moves before come from the server's move list.
        self.type("observe 1")
        _, text = self.wait_screen(r"2\. Nf3")
        self.assertRegex(text, r"1\. e4 +e5", text)
        self.assertNotIn("Movelist for game", text)
        dave.send_line("Nc6")
        _, text = self.wait_screen(r"2\. Nf3 +Nc6")
        self.assertRegex(text, r"1\. e4 +e5", text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
