"""End to end with eboard: a guest in eboard examines a stored game and steps
through it with eboard's keys while a pupil observes from a raw socket.

Two accounts play Fool's Mate over raw sockets.  eboard, under Xvfb and
connected as in test_e2e_eboard (whose proxy and key helpers this file
uses), logs in as a guest and types "examine alice 0" in its console.  On
the first board (relation 2) eboard opens a notebook page "Exam.Game #N"
(proto_fics.cc createExaminedGame); F6 then F4, F4 bring that page up
(Main Board, Console, Seek Graph, the game), and there Ctrl+Right and
Ctrl+Left (mainwindow.cc gameWalk) send "forward 1" and "backward 1".

What eboard parsed is read from its -debug log: every board it takes sets
the board's info line to "MOVENO. SAN (TIME)" ("1. ... e5" for black),
logged as "Board::setInfo [...]".  What it shows is read from the window's
pixels: a step forward changes the picture, the step back restores the
earlier picture exactly.  The pupil's boards and the server's "goes
forward"/"backs up" lines confirm each step from the server's side.
Missing programs fail the test with the package to install, and it fails,
with what eboard sent and read, rather than run past a minute.
"""
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import e2e_x11 as X  # noqa: E402
import test_e2e_eboard as E  # noqa: E402
from games_harness import GamesTestCase, main  # noqa: E402

# The whole test, on a loaded machine under ASan too; every wait takes what is
# left of it, and an alarm stops anything that hangs past it.
BUDGET_S = 55.0
FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]
# eboard's info line for each half-move it is shown (the time taken varies).
INFO = ["0. startpos", "1. f3", "1. ... e5", "2. g4"]


class EboardExamineTest(E.EboardTest, GamesTestCase):
    # The login test runs in test_e2e_eboard, not twice.
    test_guest_login = None

    def left(self):
        """Seconds that a wait may take, leaving time to report what failed."""
        return max(0.5, self.deadline - time.monotonic())

    def overrun(self, signum, frame):
        raise AssertionError("the test ran over %g s%s" % (BUDGET_S + 3, self.diagnostics()))

    def debug_log(self):
        try:
            with open(os.path.join(self.home, "DEBUG.eboard"), encoding="latin-1") as f:
                return f.read()
        except OSError:
            return ""

    def wait_debug(self, pattern, start=0):
        """The first match of pattern in eboard's debug log after start."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + self.left()
        while True:
            m = rx.search(self.debug_log(), start)
            if m:
                return m
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.fail("eboard's debug log has no %r%s" % (pattern, self.diagnostics()))
            time.sleep(0.1)

    def pixels(self, unlike=None):
        """The main window's pixels (binary PPM body) once two looks agree and
        differ from unlike (the picture before the step): eboard logs a board
        before it draws it, and may animate the move."""
        last = None
        deadline = time.monotonic() + self.left()
        while time.monotonic() < deadline:
            ppm = subprocess.run([self.importer, "-display", self.display.name, "-window",
                                  self.main, "ppm:-"], capture_output=True, check=True,
                                 timeout=30, env=self.display.env()).stdout
            # Header: "P6\nW H\n255\n", then the pixels.
            body = ppm.split(b"\n", 3)[3]
            if body == last and body != unlike:
                return body
            last = body
            time.sleep(0.2)
        self.fail("eboard's window %s" % ("kept changing" if unlike is None or last != unlike
                                          else "did not change"))

    def press_until_sent(self, keys, line):
        """Presses keys in eboard's window until it sends line; retried only
        while eboard has sent nothing since."""
        for _ in range(3):
            mark = len(self.proxy.c2s)
            self.keys(*keys)
            if self.proxy.wait(lambda: b"\n" in self.proxy.c2s[mark:], E.STEP):
                self.assertTrue(self.sent_since(mark, line, self.left()),
                                "eboard sent %r, not %r" % (bytes(self.proxy.c2s[mark:]), line))
                return
        self.fail("eboard did not send %r for %r%s" % (line, keys, self.diagnostics()))

    def shown(self, ply, mark, unlike=None):
        """eboard's info line after mark names the half-move ply; returns the
        end of that log line and the window's pixels, once they are unlike the
        picture before."""
        m = self.wait_debug(r"Board::setInfo \[%s[ \]]" % re.escape(INFO[ply]), mark)
        return m.end(), self.pixels(unlike)

    def test_examine_and_step_with_the_keys(self):
        self.deadline = time.monotonic() + BUDGET_S
        signal.signal(signal.SIGALRM, self.overrun)
        signal.alarm(int(BUDGET_S) + 3)
        self.addCleanup(signal.alarm, 0)
        eboard, self.xdotool, self.importer = X.need(self, "eboard", "xdotool", "import")
        srv = self.new_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                              tls=False)
        for n in ("alice", "bob"):
            srv.useradd(n, n + "pw1")
        srv.start()
        a = self.user_player(srv, "alice", "alicepw1")
        b = self.user_player(srv, "bob", "bobpw1")
        a.name, b.name = "alice", "bob"
        self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, FOOLS_MATE)
        self.end_line(a)

        self.proxy = proxy = E.Proxy(srv.port)
        self.addCleanup(proxy.close)
        self.display = X.Display(self)
        self.addCleanup(self.display.stop)
        # A private HOME: the bookmark; ~/.eboard keeps the first-run window
        # away; a cursor that does not blink keeps the pixels still.
        self.home = home = os.path.join(srv.workdir, "home")
        os.makedirs(os.path.join(home, ".eboard", "scripts"))
        with open(os.path.join(home, ".eboard", "eboard.conf"), "w") as f:
            f.write("Host,127.0.0.1,%d,FICS without timeseal\n" % proxy.port)
            f.write("FicsAutoLogin::0\nEnableSounds::0\nPopupSecondaryGames::0\n")
        with open(os.path.join(home, ".gtkrc-2.0"), "w") as f:
            f.write("gtk-cursor-blink = 0\n")
        env = dict(self.display.env(), HOME=home, LC_ALL="C.UTF-8", LANG="C.UTF-8")
        env.pop("LANGUAGE", None)
        env.pop("LC_MESSAGES", None)
        self.eboard_err = os.path.join(srv.workdir, "eboard.stderr")
        with open(self.eboard_err, "wb") as err:
            self.proc = subprocess.Popen([eboard, "-log", "-debug"], stdin=subprocess.DEVNULL,
                                         stdout=err, stderr=err, cwd=home, env=env)
        # Cleanups run last-added first: kill, then reap.
        self.addCleanup(self.proc.wait)
        self.addCleanup(self.proc.kill)
        self.addCleanup(self.keep_transcripts, home)
        self.main = self.wait_window("^eboard$", self.left())

        # Peer > ICS Bookmarks > the first entry; then a guest login typed in
        # eboard's command line.
        self.step("connect from its ICS Bookmarks menu",
                  lambda: self.keys("alt+p", "b", "Return"),
                  lambda t: proxy.wait(lambda: proxy.connections > 0, t))
        self.assertTrue(proxy.wait_re(proxy.s2c, rb"login: ", self.left()), "no login prompt")
        mark = len(proxy.c2s)
        self.step("send the login name", lambda: self.type_line("guest"), self.sent_any(mark))
        m = proxy.wait_re(proxy.s2c, rb'Press return to enter the server as "(Guest[A-Z]{4})":',
                          self.left())
        self.assertTrue(m, "no guest name offered" + self.diagnostics())
        name, who = m.group(1).decode(), m.group(1)
        mark = len(proxy.c2s)
        self.step("confirm the guest name", lambda: self.type_line(""), self.sent_any(mark))
        self.assertTrue(proxy.wait_re(proxy.s2c, rb"Style 12 set\.", self.left()),
                        "eboard did not set itself up" + self.diagnostics())

        # The examined game, from eboard's command line.
        s2c_mark, mark = len(proxy.s2c), len(proxy.c2s)
        self.step("send the examine command", lambda: self.type_line("examine alice 0"),
                  self.sent_any(mark))
        self.assertTrue(self.sent_since(mark, "examine alice 0", self.left()))
        m = proxy.wait_re(proxy.s2c, rb"Starting a game in examine mode: alice vs\. bob, 4 moves "
                          rb"stored\.\n\r\n\r<12> (?:\S+ ){8}W -1 (?:\S+ ){5}(\d+) alice bob 2 ",
                          self.left(), s2c_mark)
        self.assertTrue(m, "no examined board" + self.diagnostics())
        number = int(m.group(1))
        # eboard took it as its examined game, at the start position.
        page = self.wait_debug(r"Notebook::addPage \[Exam\.Game #%d\]" % number)
        at = self.wait_debug(r"Board::setInfo \[%s\]" % re.escape(INFO[0]), page.end()).end()

        pupil = self.guest_player(srv)
        pupil.send_line("observe %s" % name)
        self.assertEqual(self.expect12(pupil, self.left(), game=number)["relation"], -2)

        # The game's page, then forward through three half-moves.
        self.press_until_sent(["F6", "F4", "F4", "ctrl+Right"], "forward 1")
        shots = [None]      # the window showed the console before
        for ply, san in enumerate(FOOLS_MATE[:3], start=1):
            if ply > 1:
                self.press_until_sent(["ctrl+Right"], "forward 1")
            pupil.expect(re.compile(rb"Game %d: %s goes forward 1 move\." % (number, who)),
                         self.left())
            self.assertEqual(self.expect12(pupil, self.left(), game=number)["san"], san)
            at, shot = self.shown(ply, at, unlike=shots[-1])
            shots.append(shot)

        # One step back: eboard shows black's e5 again, the picture of before.
        self.press_until_sent(["ctrl+Left"], "backward 1")
        pupil.expect(re.compile(rb"Game %d: %s backs up 1 move\." % (number, who)), self.left())
        self.assertEqual(self.expect12(pupil, self.left(), game=number)["san"], "e5")
        _, back = self.shown(2, at, unlike=shots[3])
        self.assertEqual(back, shots[2], "after backward eboard does not show the board after e5")
        self.display.screenshot(self, os.path.join(X.SHOTS, "eboard-examine.png"), width=640)

        after = bytes(proxy.s2c[s2c_mark:])
        self.assertIsNone(E.ERROR_RE.search(after), "the server answered eboard with an error:\n" +
                          after.decode("latin-1")[-3000:])


if __name__ == "__main__":
    main()
