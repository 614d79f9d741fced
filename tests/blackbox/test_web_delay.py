"""A tournament's own web delay (`tourney set ID delay S`), black box: its
games' moves reach the web S seconds late while other games keep
public_delay_s and the players see every move at once; a delayed live game
is served (export, round PGN, board) as it stood S seconds ago, its end
included, never as 404."""
import re
import time

from games_harness import FAST, GT, main
from test_tourney import PASSWORD, TourneyTestCase
from web_harness import Stream, get, get_json


class TourneyDelayBase(TourneyTestCase):

    def delay_server(self, names, config=None):
        srv = self.new_server(config=dict(FAST, **(config or {})), tls=False, http=True)
        self.addCleanup(self.check_sanitizers, srv)
        for n in names:
            srv.useradd(n, PASSWORD)
        srv.start()
        return srv

    def two_player_tourney(self, srv, director, clients, name, delay):
        tid = self.create(director, "%s swiss 1 5 0 unrated" % name)
        for c in clients:
            self.cmd(c, "tourney join %d" % tid)
        if delay is not None:
            self.assertIn(("Tourney %d: delay set to %s." % (tid, delay)).encode(),
                          self.cmd(director, "tourney set %d delay %s" % (tid, delay)))
        self.cmd(director, "tourney start %d" % tid)
        boards, _, _ = self.wait_round(director, tid, 1)
        self.assertEqual(len(boards), 1)
        return tid, boards[0]

    def live(self, srv, number):
        _, games = get_json(srv.http_port, "/api/games")
        return next(g for g in games if g["number"] == number)


class TourneyDelayTest(TourneyDelayBase):

    def test_tourney_delay_overrides_public_delay_for_its_games_only(self):
        names = ["dpa", "dpb", "dpc", "dpd"]
        srv = self.delay_server(names + ["director"], config={"public_delay_s": 60})
        director = self.login(srv, "director")
        c = {n: self.login(srv, n) for n in names}
        slow_tid, slow = self.two_player_tourney(srv, director, [c["dpa"], c["dpb"]], "Slow", 3)
        fast_tid, fast = self.two_player_tourney(srv, director, [c["dpc"], c["dpd"]], "Fast", 0)
        # a game outside any tournament keeps public_delay_s
        g1, g2 = self.guest_player(srv), self.guest_player(srv)
        other, _ = self.start_match(g1, g2, "5 0")

        slow_stream = Stream(srv.http_port, "/api/stream/game/%d" % slow["game"])
        self.addCleanup(slow_stream.close)
        self.assertEqual(slow_stream.line()["turns"], 0)
        t0 = time.monotonic()
        self.move(c[slow["white"]], c[slow["black"]], "e4")     # the players see it at once
        self.move(c[fast["white"]], c[fast["black"]], "d4")
        self.move(g1, g2, "c4")
        # the tournament with delay 0: on the web at once, though public_delay_s is 60
        deadline = time.monotonic() + GT
        while self.live(srv, fast["game"])["turns"] != 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual(self.live(srv, fast["game"])["lastMove"], "d2d4")
        if time.monotonic() - t0 < 2.5:
            self.assertEqual(self.live(srv, slow["game"])["turns"], 0)
        ev = slow_stream.line()
        self.assertEqual(ev["lm"], "e2e4")
        self.assertGreaterEqual(time.monotonic() - t0, 2.9)
        self.assertEqual(self.live(srv, slow["game"])["turns"], 1)
        # and the other game is still held by public_delay_s
        self.assertEqual(self.live(srv, other)["turns"], 0)
        _, t = get_json(srv.http_port, "/api/tourney/%d" % slow_tid)
        self.assertEqual(t["delay"], 3)
        _, t = get_json(srv.http_port, "/api/tourney/%d" % fast_tid)
        self.assertEqual(t["delay"], 0)

    def test_a_delayed_live_game_is_served_as_it_stood(self):
        srv = self.delay_server(["director", "dsa", "dsb"])
        director = self.login(srv, "director")
        c = {n: self.login(srv, n) for n in ("dsa", "dsb")}
        tid, board = self.two_player_tourney(srv, director, list(c.values()), "Held", 3)
        w, b = c[board["white"]], c[board["black"]]
        gid = self.live(srv, board["game"])["id"]
        self.move(w, b, "e4")
        t0 = time.monotonic()
        export = "/game/export/%s" % gid
        status, hdrs, body = get(srv.http_port, export)
        self.assertEqual(status, 200)           # not 404: the game as the web may show it
        self.assertEqual(hdrs["content-type"], "application/x-chess-pgn")
        pgn = body.decode()
        self.assertIn('[Result "*"]', pgn)
        self.assertNotIn("e4", pgn)
        status, js = get_json(srv.http_port, export, {"Accept": "application/json"})
        self.assertEqual((status, js["status"], js["moves"]), (200, "started", ""))
        status, hdrs, body = get(srv.http_port, "/tourney/%d/round/1.pgn" % tid)
        self.assertEqual(status, 200)
        self.assertIn('[Round "1.1"]', body.decode())
        self.assertNotIn("e4", body.decode())
        status, hdrs, body = get(srv.http_port, "/board/%d.svg" % board["game"])
        self.assertEqual(status, 200)
        self.assertIn(b'<use data-square="e2" href="#chessd-wP"', body)
        self.assertLess(time.monotonic() - t0, 2.5, "the machine is too slow for this check")

        # the end is held back as the moves are
        self.move(b, w, "e5")
        out = self.cmd(b, "resign")
        self.assertIn(b"} 1-0", out)
        t1 = time.monotonic()
        pgn = get(srv.http_port, export)[2].decode()
        self.assertIn('[Result "*"]', pgn)
        self.assertNotIn("e5", pgn)
        _, recent = get_json(srv.http_port, "/api/games/recent")
        self.assertEqual(recent, [])
        # the game left the server's list; its board on the web is still the delayed one
        status, _, body = get(srv.http_port, "/board/%d.svg" % board["game"])
        self.assertEqual(status, 200)
        self.assertIn(b'<use data-square="e7" href="#chessd-bP"', body)
        _, games = get_json(srv.http_port, "/api/games/user/%s" % board["white"],
                            {"Accept": "application/x-ndjson"})
        self.assertIsNone(games)
        self.assertLess(time.monotonic() - t1, 2.5, "the machine is too slow for this check")

        # e4 is past the delay first, then the rest and the result
        deadline = t0 + GT
        while "1. e4" not in get(srv.http_port, export)[2].decode():
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.1)
        self.assertGreaterEqual(time.monotonic() - t0, 2.9)
        while '[Result "1-0"]' not in get(srv.http_port, export)[2].decode():
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.1)
        self.assertGreaterEqual(time.monotonic() - t1, 2.9)
        pgn = get(srv.http_port, export)[2].decode()
        self.assertTrue(re.search(r"1\. e4 .*e5", pgn, re.S), pgn)
        self.assertIn("1. e4", get(srv.http_port, "/tourney/%d/round/1.pgn" % tid)[2].decode())
        _, recent = get_json(srv.http_port, "/api/games/recent")
        self.assertEqual([g["id"] for g in recent], [gid])

    def test_public_delay_serves_a_live_game_as_it_stood(self):
        srv = self.delay_server([], config={"public_delay_s": 2})
        a, b = self.guest_player(srv), self.guest_player(srv)
        number, _ = self.start_match(a, b, "5 0")
        gid = self.live(srv, number)["id"]
        t0 = time.monotonic()
        self.move(a, b, "f4")
        status, _, body = get(srv.http_port, "/game/export/%s" % gid)
        self.assertEqual(status, 200)
        self.assertIn('[Result "*"]', body.decode())
        self.assertNotIn("f4", body.decode())
        deadline = t0 + GT
        while "1. f4" not in get(srv.http_port, "/game/export/%s" % gid)[2].decode():
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.1)
        self.assertGreaterEqual(time.monotonic() - t0, 1.9)


if __name__ == "__main__":
    main()
