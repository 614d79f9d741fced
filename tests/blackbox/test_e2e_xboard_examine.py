"""End to end with xboard: a coach runs a lesson from xboard in ICS mode under
Xvfb while a pupil watches from a raw socket.

xboard loads a game that starts from a set-up position (-lgf, a PGN with a
FEN tag) and the coach picks Action > Upload to Examine (Alt+A, then the
eleventh item).  xboard then sends what backend.c's UploadGameEvent sends a
FICS server: "examine", "bsetup fen PLACEMENT", "bsetup wcastle ...",
"bsetup bcastle ...", "bsetup done", the moves, "commit".  The pupil
observes the board mid-lesson (relation -2, the position set up and played
on), then the coach's Backward and Forward keys (Alt+Left, Alt+Right, which
xboard sends as "backward" and "forward" while examining) move the pupil's
board, and Stop Examining (F11, "unexamine") ends it.  Keys go through XTEST
to the focused window (xdotool windowfocus, then key), as in test_e2e_eboard;
each step is retried only while xboard's debug log shows it sent nothing.
Missing programs fail the test with the package to install.
"""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import chessd_harness as H  # noqa: E402
import e2e_x11 as X  # noqa: E402

T = max(float(os.environ.get("CHESSD_TEST_TIMEOUT", "0") or 0), 60.0)
STEP = 10.0
S12_RE = re.compile(rb"<12> ([^\n\r]*)\n\r")
LESSON = """[Event "Lesson"]
[White "Coach"]
[Black "Pupil"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1"]

1. O-O Kd7 2. e4 *
"""


def fields(line):
    return line.decode().split(" ")


class XboardExamineTest(H.ChessdTestCase):
    def xdo(self, *args, check=False):
        return subprocess.run([self.xdotool] + list(args), env=self.display.env(),
                              capture_output=True, text=True, timeout=30, check=check)

    def debug_text(self):
        try:
            with open(self.debug, encoding="latin-1") as f:
                return f.read()
        except OSError:
            return ""

    def wait_debug(self, pattern, start=0, timeout=T):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.compile(pattern).search(self.debug_text(), start)
            if m:
                return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        return None

    def step(self, what, keys, command):
        """Presses keys in xboard's window until its log shows it sent command
        (the log writes a line end as the text \\015\\012)."""
        for _ in range(3):
            mark = len(self.debug_text())
            self.xdo("windowfocus", "--sync", self.main)
            self.xdo("key", "--delay", "120", *keys)
            if self.wait_debug(r">ICS: " + re.escape(command) + r"\\015\\012", mark, STEP):
                return
            self.xdo("key", "Escape", "Escape")
        self.fail("xboard did not %s; its log ends:\n%s" % (what, self.debug_text()[-4000:]))

    def test_upload_to_examine_and_step_with_the_keys(self):
        (xboard, self.xdotool) = X.need(self, "xboard", "xdotool")
        srv = self.start_server(config={"commands_per_sec": 1000, "command_burst": 1000}, tls=False)
        srv.useradd("xbcoach", "xbsecret")
        work = srv.workdir
        logon, lesson = os.path.join(work, "logon.txt"), os.path.join(work, "lesson.pgn")
        self.debug = os.path.join(work, "xboard-debug.log")
        with open(logon, "w") as f:
            f.write("xbcoach\nxbsecret\n")
        with open(lesson, "w") as f:
            f.write(LESSON)
        self.display = X.Display(self)
        self.addCleanup(self.display.stop)
        self.proc = subprocess.Popen(
            [xboard, "-ics", "-icshost", "127.0.0.1", "-icsport", str(srv.port),
             "-icslogon", logon, "-lgf", lesson, "-noChessProgram", "true",
             "-debug", "-nameOfDebugFile", self.debug, "-size", "medium",
             "-xexit", "-popupExitMessage", "false", "-internetChessServerInputBox", "false",
             "-icsAlarm", "false", "-autoObserve", "false", "-autoComment", "false"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=self.display.env(), cwd=work)

        def stop():
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            self.proc.stdin.close()
        self.addCleanup(stop)

        # xboard logs in and sets itself up (style 12 last).
        self.assertTrue(self.wait_debug(r"Style 12 set\."),
                        "xboard did not log in; log:\n%s" % self.debug_text()[-4000:])
        deadline = time.monotonic() + T
        ids = []
        while not ids and time.monotonic() < deadline:
            ids = self.xdo("search", "--onlyvisible", "--name", r"lesson\.pgn|Coach").stdout.split()
            time.sleep(0.2)
        self.assertTrue(ids, "no xboard window")
        self.main = ids[0]

        # Action > Upload to Examine: Accept is selected first, Upload is ten down.
        self.step("upload the game to examine", ["alt+a"] + ["Down"] * 10 + ["Return"],
                  "examine")
        m = self.wait_debug(r">ICS: commit")
        self.assertTrue(m, "xboard did not finish the upload; log:\n%s" % self.debug_text()[-4000:])
        log = self.debug_text()
        sent = re.findall(r">ICS: ([^\n]*?)(?:\\015)?\\012", log[log.find(">ICS: examine"):m.end()])
        self.assertEqual(sent[:5], ["examine", "bsetup fen 4k3/8/8/8/8/8/4P3/4K2R",
                                    "bsetup wcastle kside", "bsetup bcastle none",
                                    "bsetup done"], sent)
        self.assertEqual([s for s in sent[5:] if s not in ("$", "")], ["O-O", "Kd7", "e4"])
        # The server accepted every line of it.
        answers = log[log.find(">ICS: examine"):]
        for text in ("Game is validated - entering examine mode.", "xbcoach moves: O-O",
                     "xbcoach moves: Kd7", "xbcoach moves: e4", "main line."):
            self.assertTrue(self.wait_debug(re.escape(text)), "no %r in xboard's log" % text)
        self.assertNotRegex(answers, r"Illegal move|not valid|Command not found|Usage: ")

        # A pupil joins mid-lesson and sees the line as it stands.
        pupil = self.guest(srv)
        pupil.command("style 12")
        pupil.send_line("observe xbcoach")
        pupil.expect(S12_RE, T)
        f = fields(pupil.match.group(1))
        number = int(f[15])
        self.assertEqual((f[18], f[28], f[8]), ("-2", "e4", "B"), f)
        self.assertEqual(f[:8], ["--------", "---k----", "--------", "--------", "----P---",
                                 "--------", "--------", "-----RK-"], f)

        # The coach's Backward and Forward keys move the pupil's board.
        self.step("step backward", ["alt+Left"], "backward")
        pupil.expect(re.compile(rb"Game %d: xbcoach backs up 1 move\." % number), T)
        pupil.expect(S12_RE, T)
        self.assertEqual(fields(pupil.match.group(1))[28], "Kd7")
        self.step("step forward", ["alt+Right"], "forward")
        pupil.expect(re.compile(rb"Game %d: xbcoach goes forward 1 move\." % number), T)
        pupil.expect(S12_RE, T)
        self.assertEqual(fields(pupil.match.group(1))[28], "e4")
        # xboard itself read the examiner's boards (relation 2).
        self.assertTrue(self.wait_debug(r"Parsing board: (?:\S+ ){18}2 (?:\S+ ){7}P/e2-e4"),
                        "xboard did not parse its examined board")

        # Stop Examining ends the board for the pupil.
        self.step("stop examining", ["F11"], "unexamine")
        pupil.expect(re.compile(rb"xbcoach stopped examining game %d\." % number), T)
        pupil.expect(re.compile(rb"There are no examiners\."), T)
        keep = os.environ.get("E2E_TRANSCRIPTS")
        if keep:
            os.makedirs(keep, exist_ok=True)
            with open(os.path.join(keep, "xboard-examine-debug.log"), "w",
                      encoding="latin-1") as out:
                out.write(self.debug_text())


if __name__ == "__main__":
    H.main()
