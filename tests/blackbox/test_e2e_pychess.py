"""End to end with pychess: its own connection code against a real chessd.

The test process runs chessd and the scripted opponents (raw sockets, via
chessd_harness).  pychess runs in a child process under /usr/bin/python3 (the
Debian package's interpreter), driving pychess.ic.FICSConnection.
FICSMainConnection with no window; this file is also that child's script
(--driver).  Parent and child talk in JSON lines: the parent sends commands
on the child's stdin ("seek", "play", "move", "observe", "resign", "quit"),
the child reports what pychess's objects saw on stdout ("connected",
"game", "move", "ended", "observing", "observed_move").  The child also keeps
a transcript of every line pychess sent and every byte it got (after its
timeseal layer), kept on failure for diagnosis.

Guests log in with and without timeseal (pychess's default is on), and an
account plays a rated game to a checkmate that moves both ratings.  The
timeseal cases fail against a server with no timeseal decoder: pychess's
lines are then garbage to it and the login never completes.

A missing pychess or /usr/bin/python3 is a failure, not a skip.
"""
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

SYSTEM_PYTHON = os.environ.get("PYCHESS_PYTHON", "/usr/bin/python3")
PYCHESS_DIR = "/usr/lib/python3/dist-packages/pychess"
E2E_TIMEOUT = max(float(os.environ.get("CHESSD_TEST_TIMEOUT", "0") or 0), 30.0)

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


# --------------------------------------------------------------------------
# The child: pychess's connection, driven from stdin.
# --------------------------------------------------------------------------

def driver(port, timeseal, transcript_path, user="guest", password="", extend=None):
    """extend(conn, emit), if given, connects more of pychess's signals once
    logged in and returns more commands: {op: function(cmd)}."""
    import asyncio
    import builtins

    # pychess installs gettext's _ and ngettext when its GUI starts.
    builtins.__dict__.setdefault("_", lambda s: s)
    builtins.__dict__.setdefault("ngettext", lambda a, b, n: a if n == 1 else b)
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import GLib
    from pychess.ic import TimeSeal
    from pychess.ic.FICSConnection import FICSMainConnection
    from pychess.Utils.const import reprResult

    transcript = open(transcript_path, "w", encoding="latin-1")
    out_lock = threading.Lock()

    def emit(kind, **kw):
        kw["event"] = kind
        with out_lock:
            sys.stdout.write(json.dumps(kw) + "\n")
            sys.stdout.flush()

    # Tee what pychess sends and what it reads (after timeseal decoding).
    orig_write = TimeSeal.ICSTelnet.write

    def write(self, string):
        transcript.write(">>> %r\n" % string)
        transcript.flush()
        return orig_write(self, string)
    TimeSeal.ICSTelnet.write = write
    orig_cook = TimeSeal.ICSStreamReaderProtocol.cook_some

    def cook_some(self, data):
        cooked = orig_cook(self, data)
        transcript.write("<<< %r\n" % bytes(cooked))
        transcript.flush()
        return cooked
    TimeSeal.ICSStreamReaderProtocol.cook_some = cook_some

    conn = FICSMainConnection("127.0.0.1", [port], timeseal, user, password)
    games = {}
    extra_ops = {}

    async def follow_moves(game, kind):
        while True:
            item = await game.move_queue.get()
            gameno, ply, curcol, lastmove, fen, wname, bname, wms, bms = item
            emit(kind, game=gameno, ply=ply, move=lastmove, fen=fen, wms=wms, bms=bms)

    def on_play_created(bm, game):
        games[game.gameno] = game
        emit("game", game=game.gameno, white=game.wplayer.name, black=game.bplayer.name,
             minutes=game.minutes, inc=game.inc, rated=bool(game.rated))
        asyncio.ensure_future(follow_moves(game, "move"))

    def on_obs_created(bm, game):
        emit("observing", game=game.gameno, white=game.wplayer.name, black=game.bplayer.name)
        asyncio.ensure_future(follow_moves(game, "observed_move"))

    def on_ended(bm, game, kind):
        emit(kind, game=game.gameno, result=reprResult[game.result], reason=game.reason)

    async def glib_pump():
        # Signals pychess posts with GLib.idle_add need the default context turned.
        ctx = GLib.MainContext.default()
        while True:
            while ctx.iteration(False):
                pass
            await asyncio.sleep(0.02)

    async def commands():
        loop = asyncio.get_event_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while True:
            line = await reader.readline()
            if not line:
                return
            cmd = json.loads(line)
            op = cmd["op"]
            if op == "quit":
                return
            if op == "seek":
                conn.glm.seek(cmd["minutes"], cmd["inc"], _game_type("blitz"), False)
            elif op == "play":
                conn.bm.play(cmd["seek"])
            elif op == "move":
                conn.bm.sendMove(cmd["move"])
            elif op == "observe":
                conn.client.run_command("observe %d" % cmd["game"])
            elif op == "resign":
                conn.bm.resign()
            elif op == "raw":
                conn.client.run_command(cmd["line"])
            elif op in extra_ops:
                extra_ops[op](cmd)

    def _game_type(name):
        from pychess.ic import GAME_TYPES
        return GAME_TYPES[name]

    async def main():
        asyncio.ensure_future(glib_pump())
        task = asyncio.ensure_future(conn.start())
        deadline = time.monotonic() + 30
        while not conn.isConnected():
            if task.done() or time.monotonic() > deadline:
                emit("login_failed", error=repr(task.exception() if task.done() else "timeout"))
                return
            await asyncio.sleep(0.05)
        conn.bm.connect("playGameCreated", on_play_created)
        conn.bm.connect("obsGameCreated", on_obs_created)
        conn.bm.connect("curGameEnded", on_ended, "ended")
        conn.bm.connect("obsGameEnded", on_ended, "observed_ended")
        extra_ops.update(extend(conn, emit) if extend else {})
        emit("connected", name=conn.getUsername(), timeseal=conn.client.telnet.timeseal)
        await commands()
        transcript.close()
        sys.stdout.flush()
        # pychess's close() and its leftover tasks can hang a shutting loop.
        os._exit(0)

    asyncio.run(main())


# --------------------------------------------------------------------------
# The parent: chessd, scripted opponents, assertions.
# --------------------------------------------------------------------------

import chessd_harness as H  # noqa: E402

S12_RE = re.compile(rb"<12> ([^\n\r]*)\n\r")
LS = rb"(?:\A|\n\r|fics% )"


class Pychess:
    """The pychess child process."""

    def __init__(self, test, port, timeseal, account=("guest", ""), script=__file__):
        self.test = test
        self.transcript = os.path.join(test.workdir, "pychess-%s-%s.log" %
                                       (account[0], "timeseal" if timeseal else "plain"))
        self.proc = subprocess.Popen(
            [SYSTEM_PYTHON, os.path.abspath(script), "--driver", str(port),
             "1" if timeseal else "0", self.transcript, account[0], account[1]],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(os.environ, DISPLAY="", NO_AT_BRIDGE="1"))
        self.events = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._read, args=(self.proc.stdout, True), daemon=True).start()
        threading.Thread(target=self._read, args=(self.proc.stderr, False), daemon=True).start()

    def _read(self, pipe, events):
        for line in pipe:
            if events:
                try:
                    self.events.put(json.loads(line))
                except ValueError:
                    self.stderr.append(line.decode("utf-8", "replace"))
            else:
                self.stderr.append(line.decode("utf-8", "replace"))
        if events:
            self.events.put({"event": "eof"})

    def send(self, **cmd):
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        self.proc.stdin.flush()

    def expect(self, kind, timeout=E2E_TIMEOUT, **want):
        """The next event of this kind (matching want); others are skipped."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.test.fail(self.diagnose("no %r event with %r; saw %r" % (kind, want, seen)))
            try:
                ev = self.events.get(timeout=left)
            except queue.Empty:
                continue
            seen.append(ev)
            if ev["event"] == "eof":
                self.test.fail(self.diagnose("pychess exited waiting for %r; saw %r" % (kind, seen)))
            if ev["event"] == "login_failed" and kind != "login_failed":
                self.test.fail(self.diagnose("pychess could not log in: %r" % ev))
            if ev["event"] == kind and all(ev.get(k) == v for k, v in want.items()):
                return ev

    def diagnose(self, msg):
        tail = ""
        try:
            with open(self.transcript, encoding="latin-1") as f:
                tail = f.read()[-4000:]
        except OSError:
            pass
        return "%s\n--- pychess stderr ---\n%s\n--- pychess transcript (tail) ---\n%s" % (
            msg, "".join(self.stderr)[-3000:], tail)

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send(op="quit")
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


def fen_board(fen):
    return fen.split(" ")[0]


def s12_board(line):
    """The piece placement, as in FEN, of a style 12 line."""
    ranks = line.split(" ")[:8]
    out = []
    for r in ranks:
        s, n = "", 0
        for ch in r:
            if ch == "-":
                n += 1
            else:
                if n:
                    s += str(n)
                    n = 0
                s += ch
        out.append(s + (str(n) if n else ""))
    return "/".join(out)


class PychessTest(H.ChessdTestCase):
    def setUp(self):
        super().setUp()
        if not os.access(SYSTEM_PYTHON, os.X_OK):
            self.fail("%s is missing: install python3 (Debian) for the pychess test" % SYSTEM_PYTHON)
        if not os.path.isdir(PYCHESS_DIR):
            self.fail("pychess is not installed (%s missing): apt-get install pychess" % PYCHESS_DIR)
        self.srv = self.start_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                                     tls=False)
        self.workdir = self.srv.workdir
        self.kids = []
        self.addCleanup(self._stop_kids)

    def _stop_kids(self):
        failed = self._failed()
        keep = os.environ.get("E2E_TRANSCRIPTS")
        for k in self.kids:
            k.close()
            if keep:
                os.makedirs(keep, exist_ok=True)
                shutil.copy(k.transcript, os.path.join(keep, "%s-%s" % (
                    self.id().rsplit(".", 1)[-1], os.path.basename(k.transcript))))
            if failed:
                sys.stderr.write("\n==== pychess transcript %s ====\n" % k.transcript)
                try:
                    with open(k.transcript, encoding="latin-1") as f:
                        sys.stderr.write(f.read()[-8000:])
                except OSError:
                    pass

    def pychess(self, timeseal, account=("guest", "")):
        p = Pychess(self, self.srv.port, timeseal, account)
        self.kids.append(p)
        return p

    def opponent(self):
        c = self.guest(self.srv)
        for line in ("style 12", "iset ms 1"):
            c.send_line(line)
            c.expect_prompt(E2E_TIMEOUT)
        return c

    def expect12(self, c, **want):
        deadline = time.monotonic() + E2E_TIMEOUT
        while True:
            c.expect(S12_RE, max(0.1, deadline - time.monotonic()))
            line = c.match.group(1).decode()
            f = line.split(" ")
            d = {"line": line, "board": s12_board(line), "game": int(f[15]), "san": f[28],
                 "relation": int(f[18]), "verbose": f[26], "taken": f[27],
                 "wclock": int(f[23]), "bclock": int(f[24])}
            if all(d[k] == v for k, v in want.items()):
                return d

    # --- the scenario ---
    def scenario(self, timeseal):
        me = self.pychess(timeseal)
        hello = me.expect("connected")
        self.assertRegex(hello["name"], r"^Guest[A-Z]{4}$")
        self.assertEqual(bool(hello["timeseal"]), timeseal)
        name = hello["name"]

        # A scripted opponent seeks (as black), pychess answers with play.
        opp = self.opponent()
        opp.send_line("seek 5 0 u black")
        opp.expect(re.compile(rb"\(\"play (\d+)\" to respond\)|Your seek has been posted with index (\d+)"),
                   E2E_TIMEOUT)
        seekno = int(opp.match.group(1) or opp.match.group(2))
        me.send(op="play", seek=seekno)
        game = me.expect("game")
        self.assertEqual(game["white"], name)
        self.assertEqual(game["black"], opp.name)
        self.assertEqual((game["minutes"], game["inc"], game["rated"]), (5, 0, False))
        gameno = game["game"]
        self.expect12(opp, game=gameno)

        # Moves both ways; pychess's parsed boards must match the server's.
        moves = [("e2e4", "e4"), ("e7e5", "e5"), ("g1f3", "Nf3"), ("b8c6", "Nc6"),
                 ("f1b5", "Bb5"), ("a7a6", "a6")]
        for i, (uci, san) in enumerate(moves):
            if i % 2 == 0:
                me.send(op="move", move=uci)
            else:
                opp.send_line(uci)
            d = self.expect12(opp, game=gameno, san=san)
            ev = me.expect("move", game=gameno, ply=i + 1)
            self.assertEqual(ev["move"], san)
            self.assertEqual(fen_board(ev["fen"]), d["board"])
            self.assertEqual((ev["wms"], ev["bms"]), (d["wclock"], d["bclock"]))
            self.assertTrue(0 < ev["wms"] <= 300000 and 0 < ev["bms"] <= 300000, ev)

        # pychess observes a game between two other scripted players.
        a, b = self.opponent(), self.opponent()
        a.send_line("match %s 3 0 u white" % b.name)
        b.expect(b'You can "accept" or "decline"', E2E_TIMEOUT)
        b.send_line("accept")
        other = self.expect12(a)["game"]
        self.expect12(b, game=other)
        me.send(op="observe", game=other)
        obs = me.expect("observing", game=other)
        self.assertEqual((obs["white"], obs["black"]), (a.name, b.name))
        a.send_line("d2d4")
        d = self.expect12(b, game=other, san="d4")
        ev = me.expect("observed_move", game=other, ply=1)
        self.assertEqual(ev["move"], "d4")
        self.assertEqual(fen_board(ev["fen"]), d["board"])

        # pychess resigns its own game; the observed one ends by resignation too.
        me.send(op="resign")
        end = me.expect("ended", game=gameno)
        self.assertEqual(end["result"], "0-1")
        opp.expect(re.compile(rb"\{Game %d \(%s vs\. %s\) %s resigns\} 0-1" % (
            gameno, name.encode(), opp.name.encode(), name.encode())), E2E_TIMEOUT)
        b.send_line("resign")
        oend = me.expect("observed_ended", game=other)
        self.assertEqual(oend["result"], "1-0")
        return me, opp

    def test_guest_plain(self):
        """pychess with timeseal off: the plain protocol."""
        self.scenario(timeseal=False)

    def test_guest_timeseal(self):
        """pychess as shipped (timeseal on): needs the server's timeseal decoder."""
        me, opp = self.scenario(timeseal=True)
        # The server pinged and pychess answered: its transcript shows no [G] left
        # over (pychess strips them) and the server took no ping answer for a command.
        with open(me.transcript, encoding="latin-1") as f:
            text = f.read()
        self.assertNotIn("Command not found", text.split(">>> 'iset block 1'")[0])
        self.assertNotRegex(text, r"\\x029: Command not found")

    def test_registered_rated_game(self):
        """pychess logged in with an account plays a rated game: the game is
        announced rated to it, and its loss moves both players' ratings."""
        self.srv.useradd("pyplayer", "pypass1")
        self.srv.useradd("rival", "rpass1")
        me = self.pychess(True, ("pyplayer", "pypass1"))
        self.assertEqual(me.expect("connected")["name"], "pyplayer")
        opp = self.connect(self.srv)
        opp.login("rival", "rpass1", timeout=E2E_TIMEOUT)
        for line in ("style 12", "iset ms 1"):
            opp.send_line(line)
            opp.expect_prompt(E2E_TIMEOUT)
        opp.send_line("seek 5 0 rated black")
        opp.expect(re.compile(rb"Your seek has been posted with index (\d+)"), E2E_TIMEOUT)
        me.send(op="play", seek=int(opp.match.group(1)))
        game = me.expect("game")
        self.assertEqual((game["white"], game["black"], game["rated"]), ("pyplayer", "rival", True))
        opp.expect(re.compile(rb"Creating: pyplayer \(----\) rival \(----\) rated blitz 5 0"),
                   E2E_TIMEOUT)
        for i, (uci, san) in enumerate([("f2f3", "f3"), ("e7e5", "e5"), ("g2g4", "g4")]):
            if i % 2 == 0:
                me.send(op="move", move=uci)
            else:
                opp.send_line(uci)
            self.assertEqual(me.expect("move", game=game["game"], ply=i + 1)["move"], san)
        opp.send_line("d8h4")       # fool's mate
        end = me.expect("ended", game=game["game"])
        self.assertEqual(end["result"], "0-1")
        opp.expect(re.compile(rb"\{Game %d \(pyplayer vs\. rival\) pyplayer checkmated\} 0-1\n\r"
                              rb"Your blitz rating: ---- -> (\d+)P" % game["game"]), E2E_TIMEOUT)
        self.assertGreater(int(opp.match.group(1)), 1500)
        opp.send_line("finger pyplayer")
        opp.expect(re.compile(rb"Blitz +(\d+)P? +[\d.]+ +0 +1 +0 +1\n\r"), E2E_TIMEOUT)
        self.assertLess(int(opp.match.group(1)), 1500)

    def test_timeseal_clock_uses_client_time(self):
        """Timeseal time charging, with pychess's own encoder: honest lag is
        credited, a forged stamp buys no more than the lag quota."""
        sys.path.insert(0, os.path.dirname(PYCHESS_DIR))
        code = (
            "import sys, json, builtins\n"
            "builtins._ = lambda s: s\n"
            "import gi\n"
            "gi.require_version('Gtk', '3.0')\n"
            "from pychess.ic.TimeSeal import ICSStreamReaderProtocol as P\n"
            "enc = P.encode\n"
            "for line in sys.stdin:\n"
            "    text, ts = json.loads(line)\n"
            "    sys.stdout.write(enc(None, bytearray(text, 'utf-8'), ts).hex() + '\\n')\n"
            "    sys.stdout.flush()\n")
        encoder = subprocess.Popen([SYSTEM_PYTHON, "-c", code], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: (encoder.stdin.close(), encoder.wait(), encoder.stdout.close()))

        def encoded(text, stamp):
            encoder.stdin.write(json.dumps([text, stamp]) + "\n")
            encoder.stdin.flush()
            return bytes.fromhex(encoder.stdout.readline().strip()) + b"\n"

        clock = [1000000]   # the fake client's clock, ms

        ts = self.connect(self.srv)
        ts.send_raw(encoded("TIMESTAMP|test|Linux|", clock[0]))
        ts.expect(b"login: ", E2E_TIMEOUT)
        ts.send_raw(encoded("guest", clock[0]))
        ts.expect(H.GUEST_RE, E2E_TIMEOUT)
        ts.name = ts.match.group(1).decode()
        ts.send_raw(encoded("", clock[0]))
        ts.expect(b"**** Starting FICS session as %s(U) ****" % ts.name.encode(), E2E_TIMEOUT)
        pongs = [0]

        def answer_pings(_data=None):
            # Answers every ping received so far, stamped with the fake clock.
            while pongs[0] < ts.seen.count(b"[G]"):
                ts.send_raw(encoded("\x029", clock[0]))
                pongs[0] += 1

        for line in ("style 12", "iset ms 1"):
            ts.send_raw(encoded(line, clock[0]))
            ts.expect_prompt(E2E_TIMEOUT)
            answer_pings()
        opp = self.opponent()
        # 1 0: lag quota gain = min(1000, 60 * 2/5 * 10 + 150) = 390 ms, starting at 3 gains.
        opp.send_line("match %s 1 0 u black" % ts.name)
        ts.expect(b'You can "accept" or "decline"', E2E_TIMEOUT)
        answer_pings()
        ts.send_raw(encoded("accept", clock[0]))
        ts.expect(S12_RE, E2E_TIMEOUT)
        ts.read_for(0.3)
        answer_pings()
        self.assertGreaterEqual(pongs[0], 2, "the server did not ping the timeseal client "
                                "after login and after its board")

        # Honest: 1.5 s pass on the server, the client says it thought 1.0 s
        # (0.5 s of lag); the server charges the client's time.
        time.sleep(1.5)
        clock[0] += 1000
        ts.send_raw(encoded("e2e4", clock[0]))
        d = self.expect12(opp, san="e4")
        self.assertRegex(d["taken"], r"^\(0:01\.0\d\d\)$", d["line"])
        self.assertTrue(58900 <= d["wclock"] <= 59000, d["line"])

        opp.send_line("e7e5")
        ts.expect(re.compile(rb"<12> [^\n]* P/e7-e5 [^\n]*\n\r"), E2E_TIMEOUT)
        ts.read_for(0.3)
        answer_pings()
        # Forged: 3 s pass, the client claims 0.1 s; only the quota (1.17 s
        # at most, less after the honest move used some) may be credited.
        time.sleep(3.0)
        clock[0] += 100
        before = d["wclock"]
        ts.send_raw(encoded("g1f3", clock[0]))
        d = self.expect12(opp, san="Nf3")
        charged = before - d["wclock"]
        self.assertGreaterEqual(charged, 3000 - 1170 - 50, d["line"])
        self.assertLessEqual(charged, 3000 + 500, d["line"])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--driver":
        driver(int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4], sys.argv[5], sys.argv[6])
        return
    H.main()


if __name__ == "__main__":
    main()
