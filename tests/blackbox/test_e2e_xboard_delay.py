"""End to end with xboard: a `5d3` (Bronstein delay) game without drifting
clocks.

FICS has no field for a delay, so chessd shows a delay game as its minutes
with increment 0 and applies the delay itself.  A client told "increment 3"
would add 3 s per move to its own clocks (and tell its engine so), drifting
from the server's.  xboard (zippy, with fairymax behind the filter of
test_e2e_xboard.py) plays black in a 5d3 game against a scripted opponent;
its -debug log shows what it parsed: the engine's "level" (the increment it
took from the server) and, before every engine move, "time"/"otim" (its own
clocks).  Those must be the server's style 12 clocks, never 3 s more per
move, and the server's clock must show the delay applied.

Missing programs fail the test with the package to install.
"""
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import chessd_harness as H  # noqa: E402
import test_e2e_xboard as XB  # noqa: E402

T = XB.T
OPPONENT_MOVES = 6
DELAY_MS = 3000
# xboard's clocks are its last board's, less what it counts itself since.
CLOCK_SLACK_CS = 100
S12_RE = XB.S12_RE


def style12(line):
    f = line.split(" ")
    return {"game": int(f[15]), "side": f[8], "initial": int(f[19]), "inc": int(f[20]),
            "wclock": int(f[23]), "bclock": int(f[24]), "verbose": f[26], "taken": f[27]}


def taken_ms(text):
    m = re.match(r"^\((\d+):(\d+)\.(\d+)\)$", text)
    return (int(m.group(1)) * 60 + int(m.group(2))) * 1000 + int(m.group(3))


class XboardDelayTest(H.ChessdTestCase):
    def test_delay_game_clocks(self):
        if not os.access(XB.CHESS_RULES, os.X_OK):
            self.fail("chess-rules not found at %s (set CHESS_RULES)" % XB.CHESS_RULES)
        srv = self.start_server(config={"commands_per_sec": 1000, "command_burst": 1000}, tls=False)
        srv.useradd("xbplayer", "xbsecret")
        opp = self.guest(srv)
        for line in ("style 12", "iset ms 1", "iset seekinfo 1"):
            opp.send_line(line)
            opp.expect_prompt(T)

        # zippy answers only challenges whose time is "minutes increment", and
        # a 5d3 challenge says "5d3": xboard's logon script seeks the game instead.
        proc, debug_text, _ = XB.start_xboard(self, srv,
                                              "xbplayer\nxbsecret\nseek 5d3 unrated black\n")

        def wait_log(pattern, what):
            deadline = time.monotonic() + T
            while True:
                m = list(re.finditer(pattern, debug_text()))
                if m:
                    return m
                if proc.poll() is not None or time.monotonic() > deadline:
                    self.fail("xboard: no %s (exit %r); debug log tail:\n%s" % (
                        what, proc.poll(), debug_text()[-4000:]))
                time.sleep(0.2)

        wait_log(r"Starting FICS session as xbplayer", "login")
        opp.expect(re.compile(rb"<s> (\d+) w=xbplayer [^\n]* t=5 i=0 r=u [^\n]* c=B "), T)
        seek = int(opp.match.group(1))
        # The logon script's seek goes out before xboard's own set-up (style 12
        # and the rest, which it sends once it sees the session start): a game
        # begun before that would reach xboard as a style 1 board.
        wait_log(r"Width set to \d+\.", "the end of xboard's set-up")
        opp.send_line("play %d" % seek)
        opp.expect(re.compile(rb"Creating: %s \([^)]*\) xbplayer \([^)]*\) unrated blitz 5 0\n\r" %
                              opp.name.encode()), T)
        opp.expect(S12_RE, T)
        first = style12(opp.match.group(1).decode())
        gameno = first["game"]
        # What FICS clients are shown of a delay game: 5 minutes, no increment.
        self.assertEqual((first["initial"], first["inc"]), (5, 0))
        self.assertEqual((first["wclock"], first["bclock"]), (300000, 300000))

        # xboard told its engine the control it parsed: 5 minutes, increment 0.
        level = wait_log(r">first : level (\d+) (\S+) (\d+)\n", "level command to the engine")
        self.assertEqual(level[-1].groups(), ("0", "5", "0"),
                         "xboard took an increment from the server")

        moves, fen = [], XB.START_FEN
        engine_boards = []      # the server's boards after each of the engine's moves
        before_engine = []      # the server's boards xboard's engine moved from
        for n in range(OPPONENT_MOVES):
            legal = sorted(XB.rules("perft", fen, "1", "--divide").split("\n"))
            legal = [l.split(":")[0].strip() for l in legal if ":" in l]
            self.assertTrue(legal, "no legal move for the opponent in %s" % fen)
            mv = legal[(n * 7) % len(legal)]
            opp.send_line(mv)
            moves.append(mv)
            opp.expect(S12_RE, T)
            mine = style12(opp.match.group(1).decode())
            self.assertEqual(mine["side"], "B", mine)
            before_engine.append(mine)
            opp.expect(S12_RE, T)
            theirs = style12(opp.match.group(1).decode())
            self.assertEqual(theirs["side"], "W", "xboard's engine did not answer: %s" % theirs)
            engine_boards.append(theirs)
            moves.append(XB.uci_of_verbose(theirs["verbose"], white_moved=False))
            fen = XB.rules("status", XB.START_FEN, *moves).split("\n")[0].split(":", 1)[1].strip()
        opp.send_line("resign")
        opp.expect(re.compile(rb"\{Game %d \(%s vs\. xbplayer\) %s resigns\} 0-1" % (
            gameno, opp.name.encode(), opp.name.encode())), T)
        wait_log(r">first : result 0-1", "result sent to the engine")
        log = debug_text()
        keep = os.environ.get("E2E_TRANSCRIPTS")
        if keep:
            os.makedirs(keep, exist_ok=True)
            with open(os.path.join(keep, "xboard-delay-debug.log"), "w", encoding="latin-1") as f:
                f.write(log)

        # The server applied the delay: black's clock lost only what each move
        # took beyond 3 s (and never gained).
        prev = first["bclock"]
        for b in engine_boards:
            used = taken_ms(b["taken"])
            self.assertLessEqual(b["bclock"], prev, b)
            self.assertAlmostEqual(prev - b["bclock"], max(0, used - DELAY_MS), delta=2, msg=b)
            prev = b["bclock"]
        self.assertTrue(any(taken_ms(b["taken"]) > 0 for b in engine_boards))

        # xboard's own clocks before each engine move: the server's, no drift.
        clocks = [(int(t), int(o)) for t, o in
                  re.findall(r">first : time (-?\d+)\n(?:.*\n)*?\d+ >first : otim (-?\d+)\n", log)]
        self.assertGreaterEqual(len(clocks), OPPONENT_MOVES,
                                "xboard sent its engine %d clocks: %r" % (len(clocks), clocks))
        # The first "time" follows the game's first board (white to move), then
        # one per board the engine moved from.
        clocks = clocks[-OPPONENT_MOVES:]
        for (mine, other), board in zip(clocks, before_engine):
            self.assertAlmostEqual(mine, board["bclock"] / 10, delta=CLOCK_SLACK_CS,
                                   msg="xboard's clock %d cs, the server's %d ms" % (mine, board["bclock"]))
            self.assertAlmostEqual(other, board["wclock"] / 10, delta=CLOCK_SLACK_CS,
                                   msg="xboard's opponent clock %d cs, the server's %d ms" % (
                                       other, board["wclock"]))
        for (a, _), (b, _) in zip(clocks, clocks[1:]):
            self.assertLessEqual(b, a + CLOCK_SLACK_CS // 2,
                                 "xboard's clock grew between moves: %r" % clocks)


if __name__ == "__main__":
    H.main()
