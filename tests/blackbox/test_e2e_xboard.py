"""End to end with xboard: the Debian xboard in ICS mode under Xvfb plays a
whole game by itself (zippy, with the fairymax engine) against a scripted
raw-socket opponent on a real chessd.  Its -debug log must show every board
the server sent parsed and the result; a small screenshot of the final
position goes to tests/e2e/xboard-final.png.

xboard's UCI support (-fUCI, e.g. stockfish) goes through polyglot, which is
not a dependency here; fairymax speaks xboard's own protocol.  Missing
programs fail the test with the package to install.
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

CHESS_RULES = os.environ.get("CHESS_RULES") or os.path.join(H.ROOT, "build", "bin", "chess-rules")
T = max(float(os.environ.get("CHESSD_TEST_TIMEOUT", "0") or 0), 60.0)
S12_RE = re.compile(rb"<12> ([^\n\r]*)\n\r")
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
OPPONENT_MOVES = 8        # the scripted side resigns after this many moves

# Debian's fairymax 5.0b reads uninitialised memory when it meets a command it
# does not know, and in ICS mode xboard sends it two: "name" and "rating".  It
# then crashes or searches forever, at random.  The engine therefore runs
# behind this filter, which passes every other line through unchanged (and,
# like fairymax, ignores the SIGINT xboard sends its engine).
ENGINE_FILTER = """import signal, subprocess, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
engine = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, bufsize=0)
for line in sys.stdin.buffer:
    if line.split(b" ", 1)[0].strip() in (b"name", b"rating"):
        continue
    engine.stdin.write(line)
engine.stdin.close()
engine.wait()
"""


def rules(*args):
    return subprocess.run([CHESS_RULES] + list(args), capture_output=True, text=True,
                          timeout=30, check=True).stdout


def uci_of_verbose(verbose, white_moved):
    """P/e2-e4 -> e2e4, P/e7-e8=Q -> e7e8q, o-o -> e1g1 (or e8g8)."""
    if verbose in ("o-o", "o-o-o"):
        rank = "1" if white_moved else "8"
        return "e%s%s%s" % (rank, "g" if verbose == "o-o" else "c", rank)
    m = re.match(r"^[PNBRQK]/([a-h][1-8])-([a-h][1-8])(?:=([NBRQ]))?$", verbose)
    return m.group(1) + m.group(2) + (m.group(3) or "").lower()


def start_xboard(test, srv, logon_text, *extra):
    """xboard in ICS mode under a fresh Xvfb, logging in with logon_text, with
    zippy and fairymax (behind ENGINE_FILTER) and a -debug log; stopped at
    cleanup.  Returns the process, a function reading the debug log, and the display."""
    xboard, engine = X.need(test, "xboard", "fairymax")
    work = srv.workdir
    logon = os.path.join(work, "logon.txt")
    with open(logon, "w") as f:
        f.write(logon_text)
    debug = os.path.join(work, "xboard-debug.log")
    shim = os.path.join(work, "engine_filter.py")
    with open(shim, "w") as f:
        f.write(ENGINE_FILTER)
    engine_cmd = "%s %s %s" % (sys.executable, shim, engine)

    display = X.Display(test)
    test.addCleanup(display.stop)
    proc = subprocess.Popen(
        [xboard, "-ics", "-icshost", "127.0.0.1", "-icsport", str(srv.port),
         "-icslogon", logon, "-zp", "-fcp", engine_cmd, "-fd", work,
         "-debug", "-nameOfDebugFile", debug, "-size", "medium", "-autoflag", "false",
         "-xexit", "-popupExitMessage", "false", "-noChessProgram", "false",
         "-internetChessServerInputBox", "false", "-icsAlarm", "false",
         "-autoComment", "false", "-autoObserve", "false",
         "-zippyTalk", "false", "-zippyPassword", "", "-zippyAcceptOnly", ""] + list(extra),
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=display.env(), cwd=work)

    def stop_xboard():
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        proc.stdin.close()
    test.addCleanup(stop_xboard)

    def debug_text():
        try:
            with open(debug, encoding="latin-1") as f:
                return f.read()
        except OSError:
            return ""
    return proc, debug_text, display


class XboardTest(H.ChessdTestCase):
    def test_whole_game(self):
        if not os.access(CHESS_RULES, os.X_OK):
            self.fail("chess-rules not found at %s (set CHESS_RULES)" % CHESS_RULES)
        srv = self.start_server(config={"commands_per_sec": 1000, "command_burst": 1000}, tls=False)
        srv.useradd("xbplayer", "xbsecret")
        proc, debug_text, display = start_xboard(self, srv, "xbplayer\nxbsecret\n",
                                                 "-showCoords", "true")

        # xboard logs in from the logon file; wait for the session.
        opp = self.guest(srv)
        deadline = time.monotonic() + T
        while "Starting FICS session as xbplayer" not in debug_text():
            if proc.poll() is not None or time.monotonic() > deadline:
                self.fail("xboard did not log in (exit %r); debug log tail:\n%s" % (
                    proc.poll(), debug_text()[-4000:]))
            time.sleep(0.2)
        for line in ("style 12", "iset ms 1"):
            opp.send_line(line)
            opp.expect_prompt(T)

        # The opponent challenges as white; zippy accepts and its engine plays.
        opp.send_line("match xbplayer 3 0 u white")
        opp.expect(S12_RE, T)
        first = opp.match.group(1).decode().split(" ")
        gameno = int(first[15])
        self.assertEqual((first[16], first[17]), (opp.name, "xbplayer"))

        moves, boards = [], 1
        fen = START_FEN
        for n in range(OPPONENT_MOVES):
            legal = sorted(rules("perft", fen, "1", "--divide").split("\n"))
            legal = [l.split(":")[0].strip() for l in legal if ":" in l]
            self.assertTrue(legal, "no legal move for the opponent in %s" % fen)
            mv = legal[(n * 7) % len(legal)]
            opp.send_line(mv)
            moves.append(mv)
            # Our move's echo, then the engine's reply.
            opp.expect(S12_RE, T)
            boards += 1
            opp.expect(S12_RE, T)
            boards += 1
            f = opp.match.group(1).decode().split(" ")
            self.assertEqual(f[8], "W", "xboard's engine did not answer: %s" % f)
            moves.append(uci_of_verbose(f[26], white_moved=False))
            fen = rules("status", START_FEN, *moves).split("\n")[0].split(":", 1)[1].strip()
        # The final position, before zippy resets its board at the game's end.
        time.sleep(1.0)
        shot = display.screenshot(self, os.path.join(X.SHOTS, "xboard-final.png"))
        self.assertLess(os.path.getsize(shot), 200 * 1024)
        opp.send_line("resign")
        opp.expect(re.compile(rb"\{Game %d \(%s vs\. xbplayer\) %s resigns\} 0-1" % (
            gameno, opp.name.encode(), opp.name.encode())), T)

        # xboard's debug log: every board parsed, and the result.
        # Wait until xboard has also told its engine (the last thing it logs).
        deadline = time.monotonic() + T
        while (not re.search(r">first : result 0-1 \{%s resigns\}" % opp.name, debug_text())
               and time.monotonic() < deadline):
            time.sleep(0.2)
        log = debug_text()
        keep = os.environ.get("E2E_TRANSCRIPTS")
        if keep:
            os.makedirs(keep, exist_ok=True)
            with open(os.path.join(keep, "xboard-debug.log"), "w", encoding="latin-1") as f:
                f.write(log)
        self.assertIn("{Game %d (%s vs. xbplayer) %s resigns} 0-1" % (gameno, opp.name, opp.name), log)
        # Boards of this game in what xboard read, and boards it loaded and titled.
        received = len(re.findall(r"<12> (?:\S+ ){15}%d %s xbplayer " % (gameno, opp.name), log))
        self.assertEqual(received, boards, "xboard read %d boards, the server sent %d" % (received, boards))
        self.assertGreaterEqual(log.count("Display title '%s(" % opp.name), boards,
                                "xboard did not display every board")
        # The result reached its game logic and its engine.
        self.assertRegex(log, r"GameEnds\(\d+, %s resigns" % opp.name)
        self.assertRegex(log, r">first : result 0-1 \{%s resigns\}" % opp.name)
        self.last_debug = log


if __name__ == "__main__":
    H.main()
