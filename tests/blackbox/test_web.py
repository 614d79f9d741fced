"""The web face, black box: the listeners, bad requests, the JSON API over
stored games and players, and the HTTP and stream limits (live games and
their streams: test_web_stream.py)."""
import json
import re
import time

from games_harness import GT, main
from web_harness import WebTestCase, get, get_json


class ListenerTest(WebTestCase):

    def test_http_and_https_serve_the_api(self):
        srv = self.start_server(http=True)
        status, games = get_json(srv.http_port, "/api/games")
        self.assertEqual((status, games), (200, []))
        status, games = get_json(srv.https_port, "/api/games", tls=True)
        self.assertEqual((status, games), (200, []))

    def test_port_zero_turns_a_listener_off(self):
        srv = self.start_server()    # the harness gives --http-port 0 --https-port 0
        self.assertNotIn("(HTTP)", srv.log())
        self.assertNotIn("(HTTPS)", srv.log())

    def test_unknown_paths_and_ids_get_404_json(self):
        srv = self.web_server()
        for path in ("/nothing", "/api/stream/game/7", "/game/export/99", "/api/user/Nobody",
                     "/api/tourney/5", "/tourney/5.trf"):
            status, body = get_json(srv.http_port, path)
            self.assertEqual(status, 404, path)
            self.assertIn("error", body, path)

    def test_bad_numbers_get_400(self):
        srv = self.web_server()
        for path in ("/api/stream/game/abc", "/api/stream/game/0", "/game/export/1x",
                     "/game/export/-3", "/api/tourney/x", "/api/games/user/a?max=zero",
                     "/api/games/user/someone?since=-1", "/api/games/user/someone?rated=maybe",
                     "/api/games/user/someone?perfType=bullet", "/api/user/no!name",
                     "/api/stream/game/99999999999999999999"):
            status, body = get_json(srv.http_port, path)
            self.assertEqual(status, 400, path)
            self.assertIn("error", body, path)


class StoredGameTest(WebTestCase):

    def finished_game(self, srv):
        srv.useradd("Alice", "alicepw1")
        srv.useradd("Bobby", "bobbypw1")
        a = self.user_player(srv, "Alice", "alicepw1")
        b = self.user_player(srv, "Bobby", "bobbypw1")
        number, _ = self.start_match(a, b, "5 0 r")
        self.play_moves(a, b, ["f3", "e5", "g4", "Qh4#"])
        self.end_line(a)
        return a, b

    def test_export_user_and_user_games(self):
        srv = self.web_server()
        a, b = self.finished_game(srv)
        status, games = get_json(srv.http_port, "/api/games")
        self.assertEqual(games, [])
        status, hdrs, body = get(srv.http_port, "/api/games/user/alice")
        self.assertEqual(status, 200)
        self.assertEqual(hdrs["content-type"], "application/x-chess-pgn")
        text = body.decode()
        self.assertIn('[White "Alice"]', text)
        # the clock after f3: 4:59, or 5:00 when the lag allowance gave its time back
        self.assertRegex(text, r"1\. f3 \{\[%clk 0:0(4:59|5:00)\]\} 1\.\.\. e5")
        self.assertIn("Qh4#", text)
        status, hdrs, body = get(srv.http_port, "/api/games/user/Alice",
                                 {"Accept": "application/x-ndjson"})
        rows = [json.loads(l) for l in body.decode().splitlines() if l]
        self.assertEqual(len(rows), 1)
        g = rows[0]
        self.assertEqual(g["status"], "mate")
        self.assertEqual(g["winner"], "black")
        self.assertEqual(g["moves"], "f3 e5 g4 Qh4#")
        self.assertEqual(g["players"]["white"]["user"]["name"], "Alice")
        # filters
        for query, n in (("?rated=false", 0), ("?rated=true", 1), ("?perfType=standard", 0),
                         ("?perfType=blitz", 1), ("?until=1000", 0), ("?since=1000", 1),
                         ("?max=1", 1)):
            _, _, body = get(srv.http_port, "/api/games/user/Alice" + query,
                             {"Accept": "application/x-ndjson"})
            self.assertEqual(len([l for l in body.decode().splitlines() if l]), n, query)
        # one game by id, PGN and JSON
        status, hdrs, body = get(srv.http_port, "/game/export/%s" % g["id"])
        self.assertEqual(status, 200)
        self.assertEqual(hdrs["content-type"], "application/x-chess-pgn")
        self.assertIn('[Result "0-1"]', body.decode())
        status, one = get_json(srv.http_port, "/game/export/%s" % g["id"],
                               {"Accept": "application/json"})
        self.assertEqual(one["id"], g["id"])
        self.assertEqual(one["status"], "mate")
        # the player
        status, user = get_json(srv.http_port, "/api/user/alice")
        self.assertEqual(status, 200)
        self.assertEqual(user["username"], "Alice")
        self.assertTrue(user["online"])
        self.assertEqual(user["perfs"]["blitz"]["games"], 1)
        self.assertNotIn("playing", user)
        for text in (json.dumps(user), json.dumps(one)):
            self.assertNotIn("alicepw1", text)
            self.assertNotIn("scrypt", text)
            self.assertNotIn("127.0.0.1", text)

    def test_user_playing_names_the_game(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        status, user = get_json(srv.http_port, "/api/user/%s" % a.name)
        self.assertEqual(status, 200)
        self.assertEqual(user["playing"]["number"], number)
        self.assertFalse(user["registered"])


class LimitsTest(WebTestCase):

    def test_long_request_line_414_long_headers_431(self):
        srv = self.web_server(config={"http_request_line_bytes": 200, "http_header_bytes": 400})
        status, body = get_json(srv.http_port, "/api/games?" + "a" * 300)
        self.assertEqual(status, 414)
        self.assertIn("error", body)
        status, body = get_json(srv.http_port, "/api/games", {"X-Big": "b" * 450})
        self.assertEqual(status, 431)
        self.assertEqual(get_json(srv.http_port, "/api/games?" + "a" * 150)[0], 200)
        # far past both: cut off before the head is read to the end, JSON as
        # every web error (test_http_head_size.py)
        status, hdrs, body = get(srv.http_port, "/api/games", {"X-Huge": "c" * 5000})
        self.assertEqual((status, hdrs["content-type"]), (431, "application/json"))
        self.assertIn("error", json.loads(body))
        self.assertEqual(get_json(srv.http_port, "/api/games")[0], 200)

    def test_a_body_is_413(self):
        srv = self.web_server()
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", srv.http_port, timeout=GT)
        conn.request("POST", "/api/games", body=b"x" * 100)
        self.assertEqual(conn.getresponse().status, 413)
        conn.close()

    def test_streams_per_address(self):
        srv = self.web_server(config={"web_streams_per_address": 2, "web_heartbeat_ms": 100})
        a, b, number = self.two_guests_game(srv)
        path = "/api/stream/game/%d" % number
        s1 = self.stream(srv, path)
        s2 = self.stream(srv, path)
        s1.line(), s2.line()
        s3 = self.stream(srv, path)
        self.assertEqual(s3.status, 429)
        s1.close()
        # the closed one is noticed (at the latest by a heartbeat), then there is room
        deadline = time.monotonic() + GT
        while True:
            s4 = self.stream(srv, path)
            if s4.status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        self.assertEqual(s4.status, 200)
        self.assertEqual(s4.line()["number"], number)

    def test_streams_in_all(self):
        srv = self.web_server(config={"web_streams": 1})
        a, b, number = self.two_guests_game(srv)
        s1 = self.stream(srv, "/api/tv/feed")
        s1.line()
        s2 = self.stream(srv, "/api/stream/game/%d" % number)
        self.assertEqual(s2.status, 429)

    def test_a_slow_reader_is_dropped_others_go_on(self):
        srv = self.web_server(config={"output_hard_bytes": 1024, "output_soft_bytes": 1024})
        a, b, number = self.two_guests_game(srv)
        path = "/api/stream/game/%d" % number
        slow = self.stream(srv, path, rcvbuf=1024)
        good = self.stream(srv, path)
        good.line()
        self.play_moves(a, b, ["e4", "e5"])
        good.line(), good.line()
        dropped = False
        for i in range(200):
            self.move(a, b, "Nf3")
            self.take_back(a, b)
            good.line(), good.line()
            _, _, body = get(srv.http_port, "/metrics")
            if re.search(rb"(?m)^chessd_web_dropped_slow_total 1$", body):
                dropped = True
                break
        self.assertTrue(dropped, "the slow reader was never dropped")
        self.assertRegex(body.decode(), r"(?m)^chessd_web_streams 1$")
        self.move(a, b, "Nf3")
        self.assertEqual(good.line()["lm"], "g1f3")


if __name__ == "__main__":
    main()
