"""Live games on the web, black box: /api/games, streams (ndjson and SSE)
that follow a game played over telnet, replay after Last-Event-ID, the
heartbeat, the public delay, the TV feed, metrics, persist-then-show and a
clean shutdown with streams open."""
import re
import time

from games_harness import GT, main, fen_after
from web_harness import WebTestCase, get, get_json


class LiveGameTest(WebTestCase):

    def test_api_games_lists_a_live_game(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv, "3 2")
        self.play_moves(a, b, ["e4", "e5"])
        status, games = get_json(srv.http_port, "/api/games")
        self.assertEqual(status, 200)
        self.assertEqual(len(games), 1)
        g = games[0]
        self.assertEqual(g["number"], number)
        self.assertEqual(g["white"]["name"], a.name)
        self.assertEqual(g["black"]["name"], b.name)
        self.assertEqual(g["clock"], {"initial": 180, "increment": 2})
        self.assertEqual(g["fen"], fen_after(["e2e4", "e7e5"]))
        self.assertEqual(g["turns"], 2)
        self.assertEqual(g["lastMove"], "e7e5")
        self.assertGreater(g["wc"], 170)
        self.assertLessEqual(g["wc"], 182)
        self.assertIn("observers", g)
        self.assertTrue(re.fullmatch(r"[0-9]+", g["id"]))

    def test_ndjson_stream_gets_every_move_then_the_end(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        s = self.stream(srv, "/api/stream/game/%d" % number)
        self.assertEqual(s.status, 200)
        self.assertEqual(s.headers["content-type"], "application/x-ndjson")
        first = s.line()
        self.assertEqual(first["number"], number)
        self.assertEqual(first["moves"], "")
        self.assertEqual(first["status"], "started")
        ucis = ["e2e4", "e7e5", "g1f3"]
        for i, (san, uci) in enumerate(zip(["e4", "e5", "Nf3"], ucis)):
            self.move([a, b][i % 2], [b, a][i % 2], san)
            ev = s.line()
            self.assertEqual(ev["lm"], uci)
            self.assertEqual(ev["fen"], fen_after(ucis[:i + 1]))
            self.assertEqual(set(ev), {"fen", "lm", "wc", "bc", "san"})
            self.assertEqual(ev["san"], san)
        b.send_line("resign")
        last = s.line()
        self.assertEqual(last["status"], "resign")
        self.assertEqual(last["winner"], "white")
        self.assertEqual(last["moves"], " ".join(ucis))
        self.assertEqual(last["sanMoves"], "e4 e5 Nf3")
        self.assertIsNone(s.line())     # the stream ends with the game

    def test_a_late_viewer_gets_the_game_so_far(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        self.play_moves(a, b, ["d4", "d5", "c4"])
        s = self.stream(srv, "/api/stream/game/%d" % number)
        first = s.line()
        self.assertEqual(first["moves"], "d2d4 d7d5 c2c4")
        self.assertEqual(first["fen"], fen_after(["d2d4", "d7d5", "c2c4"]))
        self.assertEqual(first["player"], "black")

    def test_sse_ids_are_plies_and_last_event_id_replays(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        s = self.stream(srv, "/api/stream/game/%d" % number, sse=True)
        self.assertEqual(s.headers["content-type"], "text/event-stream")
        self.assertEqual(s.event()[0], 0)
        ucis = ["e2e4", "c7c5", "g1f3", "d7d6"]
        self.play_moves(a, b, ["e4", "c5", "Nf3", "d6"])
        for i, uci in enumerate(ucis):
            ev_id, data = s.event()
            self.assertEqual((ev_id, data["lm"]), (i + 1, uci))
        again = self.stream(srv, "/api/stream/game/%d" % number, sse=True, last_id=2)
        got = [again.event() for _ in range(2)]
        self.assertEqual([(i, d["lm"]) for i, d in got], [(3, "g1f3"), (4, "d7d6")])
        # and nothing else until the next move
        self.move(a, b, "d4")
        self.assertEqual(again.event()[0], 5)

    def test_bad_last_event_id_is_400(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        s = self.stream(srv, "/api/stream/game/%d" % number, sse=True, last_id="x")
        self.assertEqual(s.status, 400)

    def test_heartbeat_comment_on_a_quiet_stream(self):
        srv = self.web_server(config={"web_heartbeat_ms": 200})
        a, b, number = self.two_guests_game(srv)
        s = self.stream(srv, "/api/stream/game/%d" % number, sse=True)
        s.event()
        t0 = time.monotonic()
        got = s.raw_until(b":\n", timeout=GT)
        self.assertIn(b":\n", got)
        self.assertLess(time.monotonic() - t0, GT)

    def test_public_delay_holds_moves_back(self):
        srv = self.web_server(config={"public_delay_s": 2})
        a, b, number = self.two_guests_game(srv)
        s = self.stream(srv, "/api/stream/game/%d" % number)
        s.line()
        t0 = time.monotonic()
        self.move(a, b, "e4")       # the players see it at once
        self.assertLess(time.monotonic() - t0, 2)
        _, games = get_json(srv.http_port, "/api/games")
        self.assertEqual(games[0]["turns"], 0)      # the web does not, yet
        ev = s.line()
        self.assertEqual(ev["lm"], "e2e4")
        self.assertGreaterEqual(time.monotonic() - t0, 1.9)
        _, games = get_json(srv.http_port, "/api/games")
        self.assertEqual(games[0]["turns"], 1)

    def test_tv_feed_features_a_game_and_its_moves(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        s = self.stream(srv, "/api/tv/feed")
        first = s.line()
        self.assertEqual(first["t"], "featured")
        self.assertEqual(first["d"]["number"], number)
        self.assertEqual([p["color"] for p in first["d"]["players"]], ["white", "black"])
        self.move(a, b, "e4")
        ev = s.line()
        self.assertEqual(ev["t"], "fen")
        self.assertEqual(ev["d"]["lm"], "e2e4")

    def test_metrics_count_games_and_streams(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        s = self.stream(srv, "/api/stream/game/%d" % number)
        s.line()
        status, hdrs, body = get(srv.http_port, "/metrics")
        self.assertEqual(status, 200)
        self.assertTrue(hdrs["content-type"].startswith("text/plain"))
        text = body.decode()
        self.assertRegex(text, r"(?m)^chessd_games 1$")
        self.assertRegex(text, r"(?m)^chessd_users 2$")
        self.assertRegex(text, r"(?m)^chessd_web_streams 1$")
        self.assertRegex(text, r'(?m)^chessd_connections\{kind="fics"\} 2$')
        self.play_moves(a, b, ["e4", "e5"])
        s.line(), s.line()
        text = get(srv.http_port, "/metrics")[2].decode()
        self.assertRegex(text, r"(?m)^chessd_moves_total 2$")
        count = int(re.search(r"(?m)^chessd_commit_latency_ms_count (\d+)$", text).group(1))
        inf = int(re.search(r'(?m)^chessd_commit_latency_ms_bucket\{le="\+Inf"\} (\d+)$',
                            text).group(1))
        self.assertGreaterEqual(count, 2)
        self.assertEqual(inf, count)


class ShutdownTest(WebTestCase):

    def test_shutdown_with_streams_open_is_clean(self):
        """SIGTERM with viewers on a game and the TV: exit 0, and (under the
        sanitizers) no report, leaks included."""
        srv = self.web_server(config={"public_delay_s": 30})
        a, b, number = self.two_guests_game(srv)
        streams = [self.stream(srv, "/api/stream/game/%d" % number),
                   self.stream(srv, "/api/stream/game/%d" % number, sse=True),
                   self.stream(srv, "/api/tv/feed")]
        for s in streams[:1]:
            s.line()
        self.move(a, b, "e4")       # held back by the delay when the server stops
        srv.stop()
        for word in ("AddressSanitizer", "runtime error:", "LeakSanitizer"):
            self.assertNotIn(word, srv.all_logs())


class PersistThenShowTest(WebTestCase):

    def test_a_move_on_the_web_survives_a_crash(self):
        """What a web viewer saw was on disk first: kill -9 right after the
        stream shows a move, and the restarted server has that move."""
        srv = self.web_server()
        srv.useradd("Carol", "carolpw1")
        srv.useradd("Derek", "derekpw1")
        a = self.user_player(srv, "Carol", "carolpw1")
        b = self.user_player(srv, "Derek", "derekpw1")
        number, _ = self.start_match(a, b, "5 0")
        s = self.stream(srv, "/api/stream/game/%d" % number)
        game_id = s.line()["id"]
        a.send_line("e4")
        self.assertEqual(s.line()["lm"], "e2e4")
        srv.kill()
        srv.start()
        status, g = get_json(srv.http_port, "/game/export/%s" % game_id,
                             {"Accept": "application/json"})
        self.assertEqual(status, 200)
        self.assertEqual(g["moves"], "e4")
        self.assertEqual(g["status"], "adjourned")


if __name__ == "__main__":
    main()
