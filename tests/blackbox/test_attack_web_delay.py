"""The web's delay from an attacker's side, black box: a live game under
public_delay_s is played over telnet while every web endpoint is scraped
for its newest move (SAN, UCI, the position's FEN); none may show it before
the delay, and they show it after.  A takeback is the hard case: the moves
played after it reuse the ply numbers of moves already public.  And no
endpoint ever serves what is private: password hashes, addresses."""
import re
import sqlite3
import time

from games_harness import FAST, GT, GamesTestCase, fen_after, main
from web_harness import Stream, get, get_json

PASSWORD = "leak-pass-77"
DELAY = 4


class WebDelayAttackTest(GamesTestCase):

    def delayed_game(self, names):
        """A server under public_delay_s where the accounts names (white,
        black) have begun a 5 0 game: (server, white, black, game number,
        the game's web id)."""
        srv = self.new_server(config=dict(FAST, public_delay_s=DELAY), tls=False, http=True)
        for n in names:
            srv.useradd(n, PASSWORD)
        srv.start()
        w, b = (self.user_player(srv, n, PASSWORD) for n in names)
        w.name, b.name = names
        number, _ = self.start_match(w, b, "5 0")
        return srv, w, b, number, self.live(srv, number)["id"]

    def live(self, srv, number):
        _, games = get_json(srv.http_port, "/api/games")
        return next(g for g in games if g["number"] == number)

    def wait_turns(self, srv, number, turns):
        deadline = time.monotonic() + GT
        while self.live(srv, number)["turns"] != turns:
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.05)

    def scrape(self, srv, number, gid, names):
        """Every endpoint's body, by a name for the failure message."""
        port = srv.http_port
        out = {}
        for path, hdrs in [
                ("/", None), ("/game/%d" % number, None), ("/api/games", None),
                ("/api/games/recent", None), ("/game/export/%s" % gid, None),
                ("/game/export/%s" % gid, {"Accept": "application/json"}),
                ("/board/%d.svg" % number, None), ("/metrics", None), ("/api/tourney", None)] + \
                [("/api/user/%s" % n, None) for n in names] + \
                [("/api/games/user/%s" % n, h) for n in names
                 for h in (None, {"Accept": "application/x-ndjson"})]:
            status, _, body = get(port, path, hdrs)
            self.assertLess(status, 500, path)
            out["%s %s" % (path, hdrs or "")] = body.decode("utf-8", "replace")
        path = "/api/stream/game/%d" % number
        for last in (None, 99):
            for sse in (False, True):
                # a fresh reader gets the game so far at once; one that says it
                # has seen beyond it gets nothing: a short wait shows that
                s = Stream(port, path, sse=sse, last_id=last, timeout=GT if last is None else 0.3)
                self.addCleanup(s.conn.close)
                text = []
                try:
                    while not text or (sse and text[-1].strip()):
                        raw = s.resp.readline()
                        if not raw:
                            break
                        text.append(raw.decode())
                except OSError:
                    self.assertIsNotNone(last, path)
                out["%s sse=%s last=%s" % (path, sse, last)] = "".join(text)
        tv = Stream(port, "/api/tv/feed", timeout=GT)
        self.addCleanup(tv.conn.close)
        out["/api/tv/feed"] = str(tv.line())
        return out

    def assert_not_shown(self, bodies, san, uci, fen_board, square_piece):
        for where, body in bodies.items():
            self.assertNotIn(uci, body, where)
            self.assertNotIn(fen_board, body, where)
            self.assertNotIn(square_piece, body, where)
            if ".svg" not in where:     # a board names its squares
                self.assertIsNone(re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(san), body),
                                  where + ": " + body[:2000])

    def test_moves_after_a_takeback_wait_for_the_delay_everywhere(self):
        names = ["leakw", "leakb"]
        srv, w, b, number, gid = self.delayed_game(names)
        self.play_moves(w, b, ["e4", "e5", "Nf3"])
        self.wait_turns(srv, number, 3)         # all three are public now
        self.take_back(w, b)
        self.move(w, b, "d4")
        t0 = time.monotonic()
        fen = fen_after(["e2e4", "e7e5", "d2d4"]).split()[0]
        bodies = self.scrape(srv, number, gid, names)
        self.assertLess(time.monotonic() - t0, DELAY - 0.5, "the machine is too slow for this check")
        self.assert_not_shown(bodies, "d4", "d2d4", fen, '<use data-square="d4" href="#chessd-wP"')

        # and once the delay is over, the move is on the web
        self.wait_turns(srv, number, 3)
        deadline = time.monotonic() + GT
        while self.live(srv, number).get("lastMove") != "d2d4":
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.05)
        self.assertGreaterEqual(time.monotonic() - t0, DELAY - 0.2)
        d = self.live(srv, number)
        self.assertEqual(d["fen"].split()[0], fen)
        pgn = get(srv.http_port, "/game/export/%s" % gid)[2].decode()
        self.assertEqual(re.findall(r"\d+\.+ (\S+)", pgn), ["e4", "e5", "d4"])
        self.assertNotIn("Nf3", pgn)
        _, _, svg = get(srv.http_port, "/board/%d.svg" % number)
        self.assertIn(b'<use data-square="d4" href="#chessd-wP"', svg)

        # nothing private on any endpoint, now or before
        db = sqlite3.connect("file:%s?mode=ro" % srv.db_path, uri=True)
        self.addCleanup(db.close)
        hashes = [h for (h,) in db.execute("SELECT password FROM users")]
        self.assertEqual(len(hashes), 2)
        bodies.update(self.scrape(srv, number, gid, names))
        for where, body in bodies.items():
            for secret in hashes + [PASSWORD, "127.0.0.1"]:
                self.assertNotIn(secret, body, where)
            for h in hashes:        # nor the hash's salt or digest alone
                for part in (p for p in re.split(r"[$:]", h) if len(p) >= 16):
                    self.assertNotIn(part, body, where)

    def test_a_game_resumed_within_the_delay_keeps_it(self):
        """Adjourned and resumed at once: the moves after the resumption wait
        for the delay, also once the adjourned game's end is out."""
        names = ["resw", "resb"]
        srv, w, b, number, gid = self.delayed_game(names)
        self.play_moves(w, b, ["e4", "e5"])
        self.assertIn(b"Adjourn request sent.", self.cmd(b, "adjourn"))
        w.expect(b'type "adjourn" to accept.', GT)
        w.send_line("adjourn")
        for c in (w, b):
            c.expect(b"Game adjourned by mutual agreement", GT)
        t_adj = time.monotonic()
        self.cmd(w, "resume")
        b.expect(b"would like to resume your adjourned game.", GT)
        b.send_line("resume")
        for c in (w, b):
            self.expect12(c)
        # once the adjournment is out (its delay over), a new move is held still
        while time.monotonic() < t_adj + DELAY + 0.5:
            time.sleep(0.1)
        self.move(w, b, "Nf3")
        t0 = time.monotonic()
        _, games = get_json(srv.http_port, "/api/games")
        pgn = get(srv.http_port, "/game/export/%s" % gid)[2].decode()
        self.assertLess(time.monotonic() - t0, DELAY - 0.5, "the machine is too slow for this check")
        self.assertNotIn("g1f3", str(games))
        self.assertNotIn("Nf3", pgn)
        deadline = t0 + GT
        while "Nf3" not in get(srv.http_port, "/game/export/%s" % gid)[2].decode():
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.1)
        self.assertGreaterEqual(time.monotonic() - t0, DELAY - 0.2)


if __name__ == "__main__":
    main()
