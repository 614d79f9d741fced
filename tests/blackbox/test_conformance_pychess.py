"""Conformance with pychess's own parser: chessd's real replies, captured
from a live server, are fed to the regular expressions and block-code
routing of the installed pychess (the Debian package under
/usr/lib/python3/dist-packages/pychess), and the test checks which of
pychess's handlers fire and with what.

pychess needs the system interpreter (/usr/bin/python3, with gi), so the
oracle runs as a child: this file run with --oracle reads transcripts as
JSON on stdin, builds pychess's managers (BoardManager, SeekManager,
OfferManager, AdjournManager, ...) on a recording connection so that every
expect_line/expect_n_lines/expect_fromto/... they register becomes one of
pychess's own Prediction objects, then replays each transcript through
pychess's TelnetLines/PredictionsTelnet (block mode on, as pychess runs)
and reports the handlers that matched.  A pychess that cannot be imported
is a failure, never a skip.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEM_PYTHON = os.environ.get("PYCHESS_PYTHON", "/usr/bin/python3")
MANAGERS = ["BoardManager", "SeekManager", "OfferManager", "AdjournManager",
            "ListAndVarManager", "ErrorManager", "ChatManager", "FingerManager"]


# --------------------------------------------------------------------------
# The oracle (child, under the system python with pychess).
# --------------------------------------------------------------------------

def oracle():
    import asyncio
    import builtins
    import importlib
    from collections import defaultdict

    builtins.__dict__.setdefault("_", lambda s: s)
    builtins.__dict__.setdefault("ngettext", lambda a, b, n: a if n == 1 else b)
    import gi
    gi.require_version("Gtk", "3.0")
    import pychess.ic as ic
    from pychess.ic import VerboseTelnet as VT
    from pychess.ic.FICSConnection import FICSConnection

    class Dummy:
        def __init__(self, *a, **k):
            pass

        def __getattr__(self, name):
            return Dummy()

        def __call__(self, *a, **k):
            return Dummy()

        def __iter__(self):
            return iter(())

        def __bool__(self):
            return False

    fired = []

    class Recorder(Dummy):
        """What a manager sees as its connection: pychess's own expect_*
        methods (FICSConnection's), with each callback replaced by one that
        records the match."""
        USCN = ICC = FatICS = False

        def __init__(self):
            self.predictions = set()
            self.predictionsDict = {}
            self.reply_cmd_dict = defaultdict(list)
            self.routes = {}

        def _wrap(self, cb):
            name = getattr(cb, "__name__", "?").lstrip("_")

            def rec(m):
                ms = m if isinstance(m, list) else [m]
                fired.append({"handler": name, "lines": [x if isinstance(x, str) else x.string
                                                          for x in ms],
                              "groups": [list(x.groups()) if not isinstance(x, str) else None
                                         for x in ms]})
            rec.__name__ = name
            if hasattr(cb, "BLKCMD"):
                rec.BLKCMD = cb.BLKCMD
                self.routes[name] = cb.BLKCMD
            return rec

        def expect_line(self, cb, rx):
            FICSConnection.expect_line(self, self._wrap(cb), rx)

        def expect_n_lines(self, cb, *rx):
            FICSConnection.expect_n_lines(self, self._wrap(cb), *rx)

        def expect_fromplus(self, cb, a, b):
            FICSConnection.expect_fromplus(self, self._wrap(cb), a, b)

        def expect_fromABplus(self, cb, a, b, c):
            FICSConnection.expect_fromABplus(self, self._wrap(cb), a, b, c)

        def expect_fromto(self, cb, a, b):
            FICSConnection.expect_fromto(self, self._wrap(cb), a, b)

        def expect(self, prediction):
            FICSConnection.expect(self, prediction)

        def expect_dg_line(self, *a):
            pass

        def expect_cn_line(self, *a):
            pass

    def fresh_connection():
        """Managers built anew, so no half-matched prediction carries over."""
        conn = Recorder()
        for m in MANAGERS:
            cls = getattr(importlib.import_module("pychess.ic.managers." + m), m)
            cls(conn)
        return conn
    conn = fresh_connection()

    class Telnet:
        """Lines as pychess's ICSTelnet.readline gives them."""
        name = "chessd"
        sensitive = False

        def __init__(self, data):
            self.lines = data.split("\n")

        async def readline(self):
            if not self.lines:
                raise EOFError
            return self.lines.pop(0).strip()

        def write(self, text):
            pass

    async def replay(text):
        conn = fresh_connection()
        pt = VT.PredictionsTelnet(Telnet(text), conn.predictions, conn.reply_cmd_dict, {}, {})
        pt.lines.line_prefix = "fics%"
        pt.lines.block_mode = True
        try:
            while True:
                await pt.parse()
        except EOFError:
            pass

    job = json.load(sys.stdin)
    out = {"blkcmd": {k: v for k, v in vars(ic).items()
                      if k.startswith("BLKCMD_") and isinstance(v, int)},
           "routes": conn.routes, "transcripts": {}, "login": {}}
    for name, text in job.get("transcripts", {}).items():
        del fired[:]
        asyncio.run(replay(text))
        # A movelist's inside, read with BoardManager's own module patterns.
        bm = importlib.import_module("pychess.ic.managers.BoardManager")
        for e in fired:
            if e["handler"] in ("onArchiveGameSMovesReceived", "onObserveGameMovesReceived"):
                h2 = [bm.moveListHeader2.match(x) for x in e["lines"]]
                e["header2"] = [list(m.groups()) for m in h2 if m]
                mv = [bm.moveListMoves.match(x) for x in e["lines"]]
                e["moves"] = [list(m.groups()) for m in mv if m]
        out["transcripts"][name] = list(fired)
    # Login is read by FICSConnection._connect itself, with these searches.
    start_rx = r"\*\*\*\* Starting FICS session as (%s)%s \*\*\*\*" % (ic.NAMES_RE, ic.TITLES_RE)
    for name, text in job.get("logins", {}).items():
        m = re.search(start_rx, text)
        out["login"][name] = {"press_return": "Press return" in text,
                              "user": m.group(1) if m else None,
                              "prompt": "ics%" in text[m.end():] if m else False}
    # Titles in <s> lines, decoded as pychess's SeekManager does.
    out["titles"] = {t: sorted(str(x) for x in ic.parse_title_hex(t))
                     for t in job.get("titles", [])}
    json.dump(out, sys.stdout)


if __name__ == "__main__" and "--oracle" in sys.argv:
    oracle()
    sys.exit(0)


# --------------------------------------------------------------------------
# The tests (under the harness's python).
# --------------------------------------------------------------------------

if HERE not in sys.path:
    sys.path.insert(0, HERE)

from chessd_harness import ROOT  # noqa: E402
from games_harness import GT, LS, GamesTestCase, main  # noqa: E402


def ask_pychess(transcripts=None, logins=None, titles=()):
    """Runs the oracle child on captured bytes; fails loudly without pychess."""
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        raise AssertionError("no %s: pychess's interpreter is needed" % SYSTEM_PYTHON)
    job = {"transcripts": {k: v.decode("latin-1") for k, v in (transcripts or {}).items()},
           "logins": {k: v.decode("latin-1") for k, v in (logins or {}).items()},
           "titles": list(titles)}
    r = subprocess.run([SYSTEM_PYTHON, os.path.abspath(__file__), "--oracle"],
                       input=json.dumps(job), capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, GDK_BACKEND="x11", DISPLAY=""))
    if r.returncode != 0:
        raise AssertionError("pychess oracle failed (%d):\n%s" % (r.returncode, r.stderr[-4000:]))
    return json.loads(r.stdout)


def handlers(events, name):
    return [e for e in events if e["handler"] == name]


# Every command chessd has that FICS has, with pychess's name for its code.
LIVE_CODES = [
    ("abort", "ABORT"), ("accept", "ACCEPT"), ("adjourn", "ADJOURN"),
    ("allobservers", "ALLOBSERVERS"), ("alias", "ALIAS"), ("date", "DATE"),
    ("decline", "DECLINE"), ("draw", "DRAW"), ("finger", "FINGER"), ("flag", "FLAG"),
    ("follow", "FOLLOW"), ("games", "GAMES"), ("help", "HELP"), ("history", "HISTORY"),
    ("inchannel", "INCHANNEL"), ("iset ms 0", "ISET"), ("ivariables", "IVARIABLES"),
    ("journal", "JOURNAL"), ("kibitz hi", "KIBITZ"), ("match nobody", "MATCH"),
    ("moves", "MOVES"), ("news", "NEWS"), ("observe 99", "OBSERVE"),
    ("oldmoves nobody", "OLDMOVES"), ("pending", "PENDING"), ("play 99", "PLAY"),
    ("refresh", "REFRESH"), ("rematch", "REMATCH"), ("resign", "RESIGN"),
    ("resume", "RESUME"), ("say hi", "SAY"), ("seek 5 0", "SEEK"), ("set bell 0", "SET"),
    ("shout hi", "SHOUT"), ("showlist", "SHOWLIST"), ("smoves nobody", "SMOVES"),
    ("sought", "SOUGHT"), ("stored", "STORED"), ("style 12", "STYLE"),
    ("takeback", "TAKEBACK"), ("tell nobody hi", "TELL"), ("unalias zz", "UNALIAS"),
    ("unobserve", "UNOBSERVE"), ("unseek", "UNSEEK"), ("uptime", "UPTIME"),
    ("variables", "VARIABLES"), ("whisper hi", "WHISPER"), ("who", "WHO"),
    ("withdraw", "WITHDRAW"), ("xtell nobody hi", "XTELL"), ("+channel 1", "ADDLIST"),
    ("=channel", "SHOWLIST"), ("passwd a b", "PASSWORD"), ("quit", "QUIT"),
]

BLOCK_RE = re.compile(rb"\x15(\d+)\x16(\d+)\x16(.*?)\x17", re.S)


class ConformanceTest(GamesTestCase):

    def setUp(self):
        super().setUp()
        self.block_id = 0

    # --- block mode, as pychess runs ---
    def block_client(self, c):
        c.send_line("iset block 1")
        c.expect(b"block set.\n\rfics% ", GT)
        return c

    def bmove(self, mover, others, mv):
        """A move in block mode; waits for everyone's board."""
        code, reply = self.bcmd(mover, mv)
        self.assertEqual(code, 1, reply)
        self.assertIn(b"<12> ", reply)
        for c in others:
            self.expect12(c, san=mv)

    def bcmd(self, c, line, timeout=GT):
        """A numbered command; returns (code, reply text)."""
        self.block_id += 1
        c.send_line("%d %s" % (self.block_id, line))
        c.expect(re.compile(rb"\x15%d\x16(\d+)\x16(.*?)\x17\n\r" % self.block_id, re.S), timeout)
        return int(c.match.group(1)), c.match.group(2)

    def players(self, srv, *names):
        out = []
        for n in names:
            srv.useradd(n, n + "pw1")
            c = self.user_player(srv, n, n + "pw1")
            out.append(self.block_client(c))
        return out

    # --- 1. block codes ---
    def test_block_code_header_matches_pychess(self):
        got = ask_pychess()
        theirs = got["blkcmd"]
        self.assertGreater(len(theirs), 150, "pychess's BLKCMD_* table not found")
        with open(os.path.join(ROOT, "server", "blkcmd.h")) as f:
            ours = dict((k, int(v)) for k, v in re.findall(r"\b(BLKCMD_\w+) = (\d+),", f.read()))
        for name, value in theirs.items():
            self.assertEqual(ours.get(name), value, name)
        # and what pychess routes by (its handlers' BLKCMD attributes) is in the table
        for handler, code in got["routes"].items():
            self.assertIn(code, ours.values(), handler)

    def test_block_codes_on_the_wire(self):
        theirs = ask_pychess()["blkcmd"]
        srv = self.game_server()
        srv.useradd("alice", "alicepw1")
        c = self.block_client(self.user_player(srv, "alice", "alicepw1"))
        wrong = []
        for line, name in LIVE_CODES:
            code, _ = self.bcmd(c, line)
            if code != theirs["BLKCMD_" + name]:
                wrong.append("%s: %d, pychess BLKCMD_%s = %d" % (line, code, name,
                                                                theirs["BLKCMD_" + name]))
        self.assertEqual(wrong, [])

    # --- 12. the replies pychess parses ---
    def test_login_as_pychess_reads_it(self):
        srv = self.game_server()
        g = self.connect(srv)
        g.login_guest(GT)
        srv.useradd("alice", "alicepw1")
        a = self.connect(srv)
        a.login("alice", "alicepw1", timeout=GT)
        got = ask_pychess(logins={"guest": g.seen, "alice": a.seen})["login"]
        self.assertEqual(got["guest"], {"press_return": True, "user": g.name, "prompt": True})
        self.assertEqual(got["alice"]["user"], "alice")
        self.assertTrue(got["alice"]["prompt"])

    def test_play_resume_observe_follow_archive(self):
        srv = self.game_server()
        a, b = self.players(srv, "alice", "bob")
        o = self.block_client(self.guest_player(srv))
        f = self.block_client(self.guest_player(srv))
        self.bcmd(f, "follow alice")
        self.bcmd(a, "match bob 5 0 unrated white")
        b.expect(b'You can "accept" or "decline", or propose different parameters.', GT)
        code, reply = self.bcmd(b, "accept")
        self.assertIn(b"<12> ", reply)      # the accepter's board is in the reply
        for c in (a, f):
            self.expect12(c)
        code, reply = self.bcmd(o, "observe alice")
        self.assertEqual(code, 80)
        self.bmove(a, [b, o, f], "e4")
        self.bmove(b, [a, o, f], "e5")
        code, _ = self.bcmd(o, "moves alice")
        self.bcmd(a, "adjourn")
        b.expect(b"would like to adjourn", GT)
        self.bcmd(b, "adjourn")
        self.end_line(a)
        self.end_line(o)
        self.bcmd(a, "stored")
        self.bcmd(a, "resume bob")
        b.expect(b"would like to resume", GT)
        code, reply = self.bcmd(b, "resume alice")
        self.assertIn(b"<12> ", reply)
        for c in (a, f):
            self.expect12(c)
        code, reply = self.bcmd(a, "resign")
        self.assertIn(b"alice resigns} 0-1", reply)
        for c in (b, f):
            self.end_line(c)
        code, hist = self.bcmd(a, "history")
        number = re.search(rb"\n\r *(\d+): - ", hist).group(1).decode()
        self.bcmd(a, "journal")
        self.bcmd(a, "smoves alice %s" % number)
        self.bcmd(a, "quit")
        a.expect_closed(GT)
        f.read_for(0.3)
        got = ask_pychess({"alice": a.seen, "bob": b.seen, "observer": o.seen,
                           "follower": f.seen})["transcripts"]
        # creation, and again on resume (pychess opens a board only on Creating:)
        for who in ("alice", "bob"):
            made = handlers(got[who], "onPlayGameCreated")
            self.assertEqual(len(made), 2, (who, got[who]))
            for ev in made:
                self.assertEqual(ev["groups"][0][0], "alice")
                self.assertEqual(ev["groups"][0][2], "bob")
                self.assertEqual(ev["groups"][0][4], "unrated")
                self.assertEqual(ev["groups"][0][5:], ["blitz", "5", "0"])
            self.assertRegex(made[1]["lines"][1], r"Continuing unrated blitz match")
            ends = handlers(got[who], "on_game_remove")
            self.assertEqual([e["groups"][0][4] for e in ends], ["*", "0-1"], got[who])
        # style 12 boards reach pychess's onStyle12 (not swallowed by other handlers)
        self.assertGreaterEqual(len(handlers(got["alice"], "onStyle12")), 2)
        # observe: the four-line header
        obs = handlers(got["observer"], "onObserveGameCreated")
        self.assertEqual(len(obs), 1, got["observer"])
        self.assertEqual(obs[0]["groups"][1][1], "alice")
        self.assertEqual(obs[0]["groups"][1][3], "bob")
        # follow: the same header, for the game and for the resumed game
        fol = handlers(got["follower"], "onObserveGameCreated")
        self.assertEqual(len(fol), 2, got["follower"])
        # moves of an observed game
        self.assertEqual(len(handlers(got["observer"], "onObserveGameMovesReceived")), 1,
                         got["observer"])
        # archive: stored, smoves, history, journal are routed and parsed
        self.assertEqual(len(handlers(got["alice"], "onStoredResponseYES")), 1, got["alice"])
        self.assertEqual(len(handlers(got["alice"], "onHistoryResponseYES")), 1, got["alice"])
        self.assertEqual(len(handlers(got["alice"], "onJournalResponseNO")), 1, got["alice"])
        sm = handlers(got["alice"], "onArchiveGameSMovesReceived")
        self.assertEqual(len(sm), 1, got["alice"])
        for ev in sm + handlers(got["observer"], "onObserveGameMovesReceived"):
            self.assertEqual([[x.lower() for x in h] for h in ev["header2"]],
                             [["unrated", "blitz", "5", "0"]], ev)
            self.assertEqual(len(ev["moves"]), 1, ev)
            self.assertEqual([ev["moves"][0][i] for i in (0, 1, 6)], ["1", "e4", "e5"], ev)
            self.assertIsNotNone(ev["moves"][0][4], ev)      # the thinking time, read
        hist = handlers(got["alice"], "onHistoryResponseYES")[0]
        self.assertEqual(len(hist["groups"]), 3, hist)         # header, columns, the game

    def test_seeks_and_offers(self):
        srv = self.game_server()
        a, b = self.players(srv, "alice", "bob")
        srv.useradd("Fish", "fishpw1")
        self.assertEqual(srv.admin_cmd("computer", "Fish", "on").returncode, 0)
        fish = self.connect(srv)
        fish.expect(b"login: ", GT)
        fish.send_raw(b"Fish\nfishpw1\n")
        fish.expect(b"**** Starting FICS session as Fish(C) ****", GT)
        fish.expect_prompt(GT)
        self.block_client(fish)
        for c in (a, b):
            for v in ("seekinfo", "seekremove", "pendinfo"):
                self.bcmd(c, "iset %s 1" % v)
        self.bcmd(fish, "seek 3 0 unrated")
        b.expect(b"<s> ", GT)
        code, sought = self.bcmd(b, "sought")
        self.assertRegex(sought, rb"Fish\(C\) ")
        self.bcmd(fish, "unseek")
        b.expect(b"<sr> ", GT)
        self.bcmd(a, "seek 5 0 unrated")
        b.expect(b"<s> ", GT)
        b.read_for(0.3)
        self.bcmd(a, "unseek")
        b.expect(b"<sr> ", GT)
        self.bcmd(a, "match bob 3 2 unrated")
        b.expect(b"<pf> ", GT)
        b.read_for(0.3)
        self.bcmd(a, "withdraw")
        b.expect(b"<pr> ", GT)
        b.read_for(0.3)
        res = ask_pychess({"bob": b.seen}, titles=["00", "01", "02"])
        got = res["transcripts"]["bob"]
        seeks = handlers(got, "on_seek_add")
        self.assertEqual(len(seeks), 2, got)
        fields = [dict(p.split("=") for p in s["groups"][0][0].split()[1:]) for s in seeks]
        self.assertEqual([(f["w"], f["t"], f["i"], f["r"]) for f in fields],
                         [("Fish", "3", "0", "u"), ("alice", "5", "0", "u")])
        # pychess decodes the titles: a computer, then a plain registered player
        self.assertEqual(res["titles"][fields[0]["ti"]], res["titles"]["02"])
        self.assertNotEqual(res["titles"]["02"], [])
        self.assertEqual(res["titles"][fields[1]["ti"]], [])
        # Fish's unseek, and alice's seek withdrawn when she offers a match
        self.assertEqual([e["groups"][0][0] for e in handlers(got, "on_seek_remove")],
                         ["1", "2"], got)
        offers = handlers(got, "onOfferAdd")
        self.assertEqual(len(offers), 1, got)
        self.assertEqual([offers[0]["groups"][0][i] for i in (0, 2, 3)],
                         ["f", "match", "alice (----) bob (----) unrated blitz 3 2"])
        self.assertEqual(len(handlers(got, "onOfferRemove")), 1, got)


if __name__ == "__main__":
    main()
