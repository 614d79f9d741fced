"""Black-box tests of club tournaments: a 6-player round robin and
an 8-player 3-round Swiss played to final standings by registered clients
over the FICS protocol, with a requested bye, a withdrawal, a restart by
SIGKILL in the middle of a round, a forfeit for a player absent at the
start of a round, and the TRF report read back column by column.

Python standard library only; run with CHESSD pointing at the binary.
"""
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import chessd_harness as H  # noqa: E402
from games_harness import GamesTestCase, GT, FAST  # noqa: E402

PASSWORD = "secret123"

# FIDE Berger tables for 6 players (TOURNAMENTS.md): white-black by round.
BERGER6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]

BOARD_RE = re.compile(r"^Board +(\d+): (\w+) +\((\d+)\) - (\w+) +\((\d+)\) (\S+)(?: game (\d+))?$")
BYE_RE = re.compile(r"^Bye \((\w)\): (\w+) \((\d+)\)$")
HEADER_RE = re.compile(r"Tourney (\d+) \"([^\"]*)\": (\w+), (\d+) rounds, .*; (\w+), round (\d+) of (\d+)\.")
POINTS = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1), "+-": (2, 0), "-+": (0, 2), "--": (0, 0)}
BYE_POINTS = {"U": 2, "H": 1, "Z": 0, "F": 2}
# The project's own TRF importer as a tool (tests/tools/trf_roundtrip.c),
# built next to chessd.
TRF_ROUNDTRIP = os.path.join(os.path.dirname(os.path.abspath(H.CHESSD)), "trf-roundtrip")


def text(b):
    return b.decode("utf-8", "replace").replace("\r", "")


class TourneyTestCase(GamesTestCase):

    def tourney_server(self, names, config=None):
        cfg = dict(FAST)
        cfg.update(config or {})
        srv = self.new_server(config=cfg, tls=False)
        self.addCleanup(self.check_sanitizers, srv)
        for n in names:
            srv.useradd(n, PASSWORD)
        srv.start()
        return srv

    def check_sanitizers(self, srv):
        """Under ASan/UBSan, a report in any run's stderr fails the test."""
        logs = srv.all_logs()
        for word in ("AddressSanitizer", "runtime error:", "LeakSanitizer"):
            self.assertNotIn(word, logs, logs[-6000:])

    def login(self, srv, name):
        c = self.connect(srv)
        c.login(name, PASSWORD, timeout=GT)
        c.name = name
        self.cmd(c, "style 12")
        return c

    # --- reading the server's listings ---
    def pairings(self, c, tid, rnd=None):
        out = text(self.cmd(c, "tourney pairings %d%s" % (tid, "" if rnd is None else " %d" % rnd)))
        boards, byes, unpaired = [], [], []
        m = re.search(r"Tourney \d+ round (\d+):", out)
        for line in out.splitlines():
            line = line.strip()
            b = BOARD_RE.match(line)
            if b:
                boards.append({"board": int(b.group(1)), "white": b.group(2), "wno": int(b.group(3)),
                               "black": b.group(4), "bno": int(b.group(5)), "result": b.group(6),
                               "game": int(b.group(7)) if b.group(7) else None})
            y = BYE_RE.match(line)
            if y:
                byes.append((y.group(1), y.group(2), int(y.group(3))))
            if line.startswith("Not paired: "):
                unpaired.append(line.split()[2])
        return (int(m.group(1)) if m else 0), boards, byes, unpaired

    def header(self, c, tid):
        out = text(self.cmd(c, "tourney show %d" % tid))
        m = HEADER_RE.search(out)
        self.assertTrue(m, out)
        return {"state": m.group(5), "round": int(m.group(6)), "rounds": int(m.group(7)), "out": out}

    def standings(self, c, tid):
        out = self.header(c, tid)["out"]
        lines = out.splitlines()
        i = next(k for k, l in enumerate(lines) if l.startswith("Rank"))
        cols = lines[i].split()[5:]
        rows = []
        for l in lines[i + 1:]:
            f = l.split()
            if len(f) < 5 + len(cols) or not f[0].isdigit():
                continue
            rows.append({"rank": int(f[0]), "no": int(f[1]), "name": f[2], "pts": float(f[4]),
                         "tb": dict(zip(cols, (float(x) for x in f[5:5 + len(cols)])))})
        return cols, rows

    def wait_round(self, c, tid, rnd, timeout=GT):
        """Waits until round rnd is paired and every board is started or settled."""
        deadline = time.monotonic() + timeout
        while True:
            r, boards, byes, unpaired = self.pairings(c, tid)
            if r == rnd and all(b["game"] or b["result"] != "*" for b in boards):
                return boards, byes, unpaired
            if time.monotonic() > deadline:
                raise AssertionError("round %d never started: round %d %r" % (rnd, r, boards))
            time.sleep(0.1)

    def wait_state(self, c, tid, state, timeout=GT):
        deadline = time.monotonic() + timeout
        while True:
            h = self.header(c, tid)
            if h["state"] == state:
                return h
            if time.monotonic() > deadline:
                raise AssertionError("tourney %d not %s: %r" % (tid, state, h))
            time.sleep(0.1)

    # --- playing ---
    def play_board(self, clients, b, result):
        """Ends the game on board b with result (1-0, 0-1, 1/2-1/2)."""
        w, k = clients[b["white"]], clients[b["black"]]
        if result == "1-0":
            out = self.cmd(k, "resign")
        elif result == "0-1":
            out = self.cmd(w, "resign")
        else:
            self.cmd(w, "draw")
            out = self.cmd(k, "draw")
        self.assertIn(b"} " + result.encode(), out)

    def play_round(self, clients, boards, rng, results=None):
        played = {}
        for b in boards:
            if b["result"] != "*":
                continue
            res = (results or {}).get(b["board"]) or rng.choice(["1-0", "0-1", "1/2-1/2"])
            self.play_board(clients, b, res)
            played[b["board"]] = res
        return played

    def create(self, director, line):
        out = text(self.cmd(director, "tourney create " + line))
        m = re.search(r"Created tourney (\d+)", out)
        self.assertTrue(m, out)
        return int(m.group(1))

    # --- checking the results ---
    def all_rounds(self, c, tid, nrounds):
        return [self.pairings(c, tid, r) for r in range(1, nrounds + 1)]

    def check_standings(self, c, tid, rounds, names, rr=False):
        """Points recomputed from the pairings match; rows are in order; in
        a round robin BH and SB are recomputed exactly."""
        pts = {n: 0 for n in names}
        games = []
        for _, boards, byes, _ in rounds:
            for b in boards:
                self.assertIn(b["result"], POINTS, b)
                pw, pb = POINTS[b["result"]]
                pts[b["white"]] += pw
                pts[b["black"]] += pb
                games.append((b["white"], b["black"], pw, pb))
            for kind, name, _ in byes:
                pts[name] += BYE_POINTS[kind]
        cols, rows = self.standings(c, tid)
        self.assertEqual(sorted(r["name"] for r in rows), sorted(names))
        for r in rows:
            self.assertEqual(r["pts"] * 2, pts[r["name"]], r)
        keys = [(r["pts"],) + tuple(r["tb"][k] for k in cols) for r in rows]
        for i in range(1, len(rows)):
            self.assertGreaterEqual(keys[i - 1], keys[i], rows)
            if keys[i - 1] == keys[i]:
                self.assertEqual(rows[i - 1]["rank"], rows[i]["rank"])
            else:
                self.assertEqual(rows[i]["rank"], i + 1)
        if rr:
            bh = {n: 0 for n in names}
            sb = {n: 0 for n in names}
            for w, k, pw, pb in games:
                bh[w] += pts[k]
                bh[k] += pts[w]
                sb[w] += pts[k] * pw / 2
                sb[k] += pts[w] * pb / 2
            for r in rows:
                self.assertEqual(r["tb"]["BH"], bh[r["name"]] / 2, r)
                self.assertEqual(r["tb"]["SB"], sb[r["name"]] / 2, r)
        return pts, rows

    def check_trf(self, c, tid, rounds, rows, nrounds):
        """Reads the TRF report by its columns (an import) and checks it
        against the pairings and standings shown by the server."""
        out = text(self.cmd(c, "tourney trf %d" % tid))
        lines = [l for l in out.splitlines() if l[:3] in ("001", "012", "XXR", "XXC", "BBU")]
        self.assertTrue(any(l.startswith("012 ") for l in lines), out)
        xxr = [l for l in lines if l.startswith("XXR")]
        self.assertEqual(int(xxr[0].split()[1]), nrounds)
        players = {}
        for l in (l for l in lines if l.startswith("001")):
            no = int(l[4:8])
            name = l[14:47].strip()
            p = {"no": no, "name": name, "points": float(l[80:84]), "rounds": []}
            for r in range(nrounds):
                cell = l[91 + 10 * r: 91 + 10 * r + 8].ljust(8)
                if not cell.strip():
                    continue
                p["rounds"].append((int(cell[0:4]), cell[5], cell[7]))
            players[name] = p
        by_no = {p["no"]: p for p in players.values()}
        # trf_import() takes it back and trf_export() writes the same text.
        if os.access(TRF_ROUNDTRIP, os.X_OK):
            trf = "".join(l + "\n" for l in lines)
            cols, _ = self.standings(c, tid)     # the ranks use the same tie-breaks
            r = subprocess.run([TRF_ROUNDTRIP] + cols, input=trf, capture_output=True, text=True,
                               timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout, trf)
        else:
            sys.stderr.write("note: %s not built; TRF re-import not checked\n" % TRF_ROUNDTRIP)
        # The re-imported rounds give the same games and byes as the pairings.
        for r, (_, boards, byes, _) in enumerate(rounds):
            for b in boards:
                wr = players[b["white"]]["rounds"][r]
                br = players[b["black"]]["rounds"][r]
                self.assertEqual((wr[0], wr[1]), (b["bno"], "w"), (r + 1, b, wr))
                self.assertEqual((br[0], br[1]), (b["wno"], "b"), (r + 1, b, br))
                want = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="),
                        "+-": ("+", "-"), "-+": ("-", "+"), "--": ("-", "-")}[b["result"]]
                self.assertEqual((wr[2], br[2]), want, (r + 1, b))
            for kind, name, no in byes:
                self.assertEqual(players[name]["rounds"][r], (0, "-", kind))
                self.assertEqual(by_no[no]["name"], name)
        # The ranks are the standings' (columns 86-89).
        ranks = {int(l[4:8]): int(l[85:89]) for l in lines if l.startswith("001")}
        for row in rows:
            self.assertEqual(ranks[row["no"]], row["rank"], row)
            self.assertEqual(players[row["name"]]["points"], row["pts"], row)
            self.assertEqual(players[row["name"]]["no"], row["no"], row)
        return players


class RoundRobinTest(TourneyTestCase):

    def test_round_robin_six(self):
        names = ["rra", "rrb", "rrc", "rrd", "rre", "rrf"]
        srv = self.tourney_server(names + ["director"])
        director = self.login(srv, "director")
        watcher = self.guest_player(srv)
        self.cmd(watcher, "+channel 49")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "Club rr 0 5 0 unrated")
        for n in names:
            self.assertIn(b"You join tourney", self.cmd(clients[n], "tourney join %d" % tid))
        self.assertIn(b"tourney pairings ID [ROUND]", self.cmd(director, "help tourney"))
        out = self.cmd(director, "tourney set %d tiebreaks SB,BH,BH-C1,DE,WIN" % tid)
        self.assertIn(b"tiebreaks set", out)
        self.assertIn(b"You follow tourney", self.cmd(watcher, "tourney observe %d" % tid))
        out = self.cmd(director, "tourney start %d" % tid)
        self.assertIn(b"starts: 6 players, 5 rounds", out)
        watcher.expect(b"round 1 of 5 paired", GT)
        rng = random.Random(7)
        for rnd in range(1, 6):
            boards, byes, _ = self.wait_round(director, tid, rnd)
            self.assertEqual([(b["wno"], b["bno"]) for b in boards], BERGER6[rnd - 1],
                             "round %d is not the Berger table's" % rnd)
            self.assertEqual(byes, [])
            if rnd == 1:
                # the same header as "observe": no tourney text, no prompt inside it
                watcher.expect(re.compile(rb"You are now observing game (\d+)\.\n\r"
                                          rb"Game \1: \w+ \(\S+\) \w+ \(\S+\) unrated blitz 5 0"
                                          rb"\n\r\n\r<12> "), GT)
            self.play_round(clients, boards, rng)
        self.wait_state(director, tid, "finished")
        rounds = self.all_rounds(director, tid, 5)
        _, rows = self.check_standings(director, tid, rounds, names, rr=True)
        cols, _ = self.standings(director, tid)
        self.assertEqual(cols, ["SB", "BH", "BH-C1", "DE", "WIN"])
        self.check_trf(director, tid, rounds, rows, 5)
        pgn = text(self.cmd(director, "tourney pgn %d" % tid))
        self.assertEqual(pgn.count("[Event \"Club\"]"), 15, pgn[:2000])
        cross = text(self.cmd(director, "tourney crosstable %d" % tid))
        self.assertIn("Rd5", cross)
        srv.stop()

    def test_double_round_robin_four(self):
        names = ["dra", "drb", "drc", "drd"]
        srv = self.tourney_server(names + ["director"])
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "Double drr 0 5 0 unrated")
        for n in names:
            self.cmd(clients[n], "tourney join %d" % tid)
        self.assertIn(b"starts: 4 players, 6 rounds", self.cmd(director, "tourney start %d" % tid))
        rng = random.Random(11)
        colours = {no: [] for no in range(1, 5)}
        met = {}
        for rnd in range(1, 7):
            boards, byes, _ = self.wait_round(director, tid, rnd)
            self.assertEqual(byes, [])
            self.assertEqual(len(boards), 2)
            for b in boards:
                colours[b["wno"]].append("w")
                colours[b["bno"]].append("b")
                met.setdefault(frozenset((b["wno"], b["bno"])), []).append(b["wno"])
            self.play_round(clients, boards, rng)
        self.wait_state(director, tid, "finished")
        # Everyone meets everyone twice, once with each colour.
        self.assertEqual(len(met), 6)
        for pair, whites in met.items():
            self.assertEqual(sorted(whites), sorted(pair), "colours of %s: %s" % (sorted(pair), whites))
        # Nobody has the same colour three times running (the swapped rounds).
        for no, seq in colours.items():
            self.assertNotIn("www", "".join(seq), "player %d: %s" % (no, seq))
            self.assertNotIn("bbb", "".join(seq), "player %d: %s" % (no, seq))
        rounds = self.all_rounds(director, tid, 6)
        self.check_standings(director, tid, rounds, names, rr=True)
        srv.stop()


class SwissTest(TourneyTestCase):

    def test_swiss_eight_with_bye_withdrawal_and_restart(self):
        names = ["swa", "swb", "swc", "swd", "swe", "swf", "swg", "swh"]
        srv = self.tourney_server(names + ["director"])
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "Open swiss 3 5 0 rated")
        for n in names:
            self.cmd(clients[n], "tourney join %d" % tid)
        out = self.cmd(clients["swh"], "tourney bye %d 2" % tid)
        self.assertIn(b"half-point bye in round 2", out)
        self.cmd(director, "tourney start %d" % tid)
        rng = random.Random(11)

        # Round 1: swg withdraws while its game is on; it is not paired again.
        boards, byes, _ = self.wait_round(director, tid, 1)
        self.assertEqual(len(boards), 4)
        self.assertEqual([(b["wno"], b["bno"]) for b in boards], [(1, 5), (6, 2), (3, 7), (8, 4)])
        out = self.cmd(clients["swg"], "tourney leave %d" % tid)
        self.assertIn(b"withdrawn", out)
        self.play_round(clients, boards, rng)

        # Round 2: swh has its half-point bye, swg is gone; a game gets
        # moves, then the server is killed in the middle of the round.
        boards, byes, unpaired = self.wait_round(director, tid, 2)
        self.assertIn(("H", "swh", 8), byes)
        self.assertIn("swg", unpaired)
        self.assertEqual(len(boards), 3)
        first = boards[0]
        self.cmd(clients[first["white"]], "e4")
        self.cmd(clients[first["black"]], "e5")
        time.sleep(0.2)
        srv.kill()
        for c in clients.values():
            c.close()
        director.close()
        srv.start()
        director = self.login(srv, "director")
        h = self.header(director, tid)
        self.assertEqual((h["state"], h["round"]), ("running", 2))
        clients = {n: self.login(srv, n) for n in names}
        boards, byes, _ = self.wait_round(director, tid, 2)
        self.assertTrue(all(b["game"] for b in boards), boards)
        # The game with moves continues from its stored moves.
        moves = text(self.cmd(clients[first["white"]], "moves"))
        self.assertRegex(moves, r"1\.\s+e4\s.*e5", moves)
        self.play_round(clients, boards, rng)

        # Round 3: seven players, so a pairing-allocated bye.
        boards, byes, unpaired = self.wait_round(director, tid, 3)
        self.assertEqual(len(boards), 3)
        self.assertEqual([k for k, _, _ in byes], ["U"])
        self.assertIn("swg", unpaired)
        met = set()
        for _, bs, _, _ in self.all_rounds(director, tid, 2):
            met |= {frozenset((b["white"], b["black"])) for b in bs}
        for b in boards:
            self.assertNotIn(frozenset((b["white"], b["black"])), met, "rematch")
        self.play_round(clients, boards, rng)
        self.wait_state(director, tid, "finished")
        rounds = self.all_rounds(director, tid, 3)
        _, rows = self.check_standings(director, tid, rounds, names)
        self.assertIn("(withdrawn)", self.header(director, tid)["out"])
        self.check_trf(director, tid, rounds, rows, 3)
        pgn = text(self.cmd(director, "tourney pgn %d" % tid))
        self.assertEqual(pgn.count("[Event \"Open\"]"), 10)
        self.assertRegex(pgn, r"1\. e4 (\{[^}]*\} )?1\.\.\. e5")
        srv.stop()

    def test_forfeit_when_absent(self):
        names = ["ffa", "ffb", "ffc", "ffd"]
        srv = self.tourney_server(names + ["director"], config={"tourney_forfeit_ms": 1500})
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "Quick swiss 1 5 0 unrated")
        for n in names:
            self.cmd(clients[n], "tourney join %d" % tid)
        clients["ffd"].close()
        self.cmd(director, "tourney start %d" % tid)
        boards, _, _ = self.wait_round(director, tid, 1)
        played = [b for b in boards if b["game"]]
        self.assertEqual(len(played), 1)
        self.play_round(clients, played, random.Random(3), {played[0]["board"]: "1/2-1/2"})
        self.wait_state(director, tid, "finished")
        _, boards, _, _ = self.pairings(director, tid, 1)
        absent = next(b for b in boards if "ffd" in (b["white"], b["black"]))
        self.assertEqual(absent["result"], "-+" if absent["white"] == "ffd" else "+-")
        rounds = self.all_rounds(director, tid, 1)
        _, rows = self.check_standings(director, tid, rounds, names)
        players = self.check_trf(director, tid, rounds, rows, 1)
        self.assertEqual(players["ffd"]["rounds"][0][2], "-")
        srv.stop()


if __name__ == "__main__":
    H.main()
