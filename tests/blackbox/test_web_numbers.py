"""Numbers in the web's URLs, queries and headers are decimal digits alone,
black box: a sign, blanks (percent-encoded in a query) or anything else
get a 400 with one JSON error, where `+1` used to name game 1 and
tournament 1 under a second URL; the digits alone are served, and the
server serves the game afterwards."""
from games_harness import main
from web_harness import WebTestCase, Stream, get, get_json


class WebNumberTest(WebTestCase):

    def test_only_digits_are_numbers(self):
        srv = self.web_server()
        port = srv.http_port
        a, b, number = self.two_guests_game(srv)
        self.play_moves(a, b, ["e4", "e5"])
        gid = get_json(port, "/api/games")[1][0]["id"]
        good = ["/game/export/%s" % gid, "/board/%d.svg" % number,
                "/api/games/recent?max=5", "/api/games/user/%s?max=5" % "nobody"]
        self.assertEqual(get(port, good[0])[0], 200)
        self.assertEqual(get(port, good[1])[0], 200)
        self.assertEqual(get(port, good[2])[0], 200)
        for bad in ("+%s" % gid, "%%20%s" % gid, "%s%%20" % gid, "-0", "0x1", "1e3", ""):
            status, body = get_json(port, "/game/export/" + bad)
            self.assertEqual((status, body), (400, {"error": "a game id is a whole number from 1"}),
                             bad)
        for bad in ("+%d" % number, "%%2B%d" % number):
            status, body = get_json(port, "/board/%s.svg" % bad)
            self.assertEqual((status, body),
                             (400, {"error": "a game number is a whole number from 1"}), bad)
            status, body = get_json(port, "/api/stream/game/" + bad)
            self.assertEqual((status, body),
                             (400, {"error": "a game number is a whole number from 1"}), bad)
        for q in ("%2B5", "%205", "5%20", "+5"):
            status, body = get_json(port, "/api/games/recent?max=" + q)
            self.assertEqual(status, 400, q)
            self.assertIn("max", body["error"], q)
        for last in ("+1", "1.0"):
            status, body = get_json(port, "/api/stream/game/%d" % number, {"Last-Event-ID": last})
            self.assertEqual((status, body), (400, {"error": "Last-Event-ID must be a ply number"}),
                             last)
        # the digits alone: the stream replays after ply 1
        s = Stream(port, "/api/stream/game/%d" % number, sse=True, last_id=1)
        self.addCleanup(s.close)
        self.assertEqual(s.event()[1]["lm"], "e7e5")
        self.move(a, b, "Nf3")
        self.assertEqual(s.event()[1]["lm"], "g1f3")
        self.assertEqual(get_json(port, "/api/games")[1][0]["turns"], 3)


if __name__ == "__main__":
    main()
