#!/usr/bin/env python3
"""A game paused by its players ("pause", "unpause") on the web, black box:
its JSON says "paused": true only while the clocks stand (/api/games, the
stream's descriptions, /api/tv/feed's featured game, /game/export as JSON),
its clocks there stand still, and its stream tells every viewer of the
pause and of the unpause (ndjson and SSE, with the clocks then), behind
the moves before it and as late as they are under public_delay_s."""
import time

from games_harness import main
from web_harness import WebTestCase, get_json

STOPPED_S = 2.2
DELAY_S = 3


class WebPauseTest(WebTestCase):

    def pause(self, a, b):
        self.assertIn(b"Pause request sent.", self.cmd(a, "pause"))
        self.assertIn(b"Game clock paused.", self.cmd(b, "pause"))
        # past the asker's board of it, which comes first
        self.expect_line(a, r"Game \d+: Game clock paused\.")

    def unpause(self, a, b):
        self.assertIn(b"Unpause request sent.", self.cmd(a, "unpause"))
        self.assertIn(b"Game clock resumed.", self.cmd(b, "unpause"))
        self.expect_line(a, r"Game \d+: Game clock resumed\.")

    def live(self, srv, number):
        status, games = get_json(srv.http_port, "/api/games")
        self.assertEqual(status, 200)
        return next(g for g in games if g["number"] == number)

    def test_pause_and_unpause_in_the_json_and_on_the_stream(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv, "5 0")
        self.play_moves(a, b, ["e4", "e5"])
        nd = self.stream(srv, "/api/stream/game/%d" % number)
        sse = self.stream(srv, "/api/stream/game/%d" % number, sse=True)
        first = nd.line()
        self.assertEqual(first["turns"], 2)
        self.assertNotIn("paused", first)
        self.assertEqual(sse.event()[0], 2)
        self.assertNotIn("paused", self.live(srv, number))

        self.pause(a, b)
        stopped = nd.line()
        self.assertEqual(set(stopped), {"paused", "wc", "bc"})
        self.assertIs(stopped["paused"], True)
        self.assertEqual(sse.event(), (2, stopped))
        # every description says so, and the clocks stand
        g = self.live(srv, number)
        self.assertIs(g["paused"], True)
        self.assertEqual((g["wc"], g["bc"]), (stopped["wc"], stopped["bc"]))
        self.assertIs(self.stream(srv, "/api/stream/game/%d" % number).line()["paused"], True)
        status, export = get_json(srv.http_port, "/game/export/%s" % g["id"],
                                  {"Accept": "application/json"})
        self.assertEqual((status, export["status"], export["paused"]), (200, "started", True))
        tv = self.stream(srv, "/api/tv/feed").line()
        self.assertEqual((tv["t"], tv["d"]["number"], tv["d"]["paused"]), ("featured", number, True))
        time.sleep(STOPPED_S)
        g = self.live(srv, number)
        self.assertEqual((g["wc"], g["bc"], g["paused"]), (stopped["wc"], stopped["bc"], True))

        self.unpause(b, a)
        going = nd.line()
        self.assertEqual(going, {"paused": False, "wc": stopped["wc"], "bc": stopped["bc"]})
        self.assertEqual(sse.event(), (2, going))
        self.assertNotIn("paused", self.live(srv, number))
        status, export = get_json(srv.http_port, "/game/export/%s" % g["id"],
                                  {"Accept": "application/json"})
        self.assertNotIn("paused", export)
        time.sleep(STOPPED_S)
        self.assertLess(self.live(srv, number)["wc"], stopped["wc"])
        # moves go on after it, and a game that ends is not "paused"
        self.move(a, b, "Nf3")
        self.assertEqual(nd.line()["lm"], "g1f3")
        self.pause(a, b)
        self.assertIs(nd.line()["paused"], True)
        b.send_line("resign")
        end = nd.line()
        self.assertEqual(end["status"], "resign")
        self.assertNotIn("paused", end)

    def test_a_reader_back_at_the_pauses_ply_is_told_how_the_clocks_stand(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv, "5 0")
        self.play_moves(a, b, ["d4", "d5"])
        self.pause(a, b)
        back = self.stream(srv, "/api/stream/game/%d" % number, sse=True, last_id=2, timeout=10)
        ev_id, data = back.event()
        self.assertEqual((ev_id, data["paused"]), (2, True))
        self.unpause(a, b)
        self.assertIs(back.event()[1]["paused"], False)
        # one who saw the unpause too is sent the last word only: the clocks go
        again = self.stream(srv, "/api/stream/game/%d" % number, sse=True, last_id=2, timeout=10)
        self.assertEqual(again.event()[1]["paused"], False)
        self.move(a, b, "c4")
        self.assertEqual(again.event()[1]["lm"], "c2c4")

    def test_a_pause_waits_behind_the_moves_the_delay_holds_back(self):
        srv = self.web_server(config={"public_delay_s": DELAY_S})
        a, b, number = self.two_guests_game(srv, "5 0")
        nd = self.stream(srv, "/api/stream/game/%d" % number)
        self.assertEqual(nd.line()["turns"], 0)
        self.play_moves(a, b, ["e4", "e5"])
        self.pause(a, b)
        paused_at = time.monotonic()
        # not yet: the web shows neither the moves nor the pause
        g = self.live(srv, number)
        self.assertLess(g["turns"], 2)
        self.assertNotIn("paused", g)
        first, second, stopped = nd.line(), nd.line(), nd.line()
        self.assertEqual((first["lm"], second["lm"]), ("e2e4", "e7e5"))
        self.assertGreaterEqual(time.monotonic() - paused_at, DELAY_S - 0.3)
        # the clocks of the position it is shown in
        self.assertEqual(stopped, {"paused": True, "wc": second["wc"], "bc": second["bc"]})
        g = self.live(srv, number)
        self.assertEqual((g["turns"], g["paused"], g["wc"]), (2, True, second["wc"]))
        self.unpause(a, b)
        resumed_at = time.monotonic()
        self.assertIs(self.live(srv, number)["paused"], True)
        self.assertIs(nd.line()["paused"], False)
        self.assertGreaterEqual(time.monotonic() - resumed_at, DELAY_S - 0.3)
        self.assertNotIn("paused", self.live(srv, number))


if __name__ == "__main__":
    main()
