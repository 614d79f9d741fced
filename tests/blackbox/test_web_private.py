#!/usr/bin/env python3
"""A private game ("set private 1") is for its players and admins: the web
lists it nowhere live, streams none of it and exports none of its moves
while it goes on, as it refuses telnet observers.  An open game beside it is
shown as usual."""
import json

from games_harness import main
from web_harness import WebTestCase, get, get_json


class WebPrivateTest(WebTestCase):

    def test_a_private_game_stays_off_the_web(self):
        srv = self.web_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        self.assertIn(b"Your games will be private.", self.cmd(a, "set private 1"))
        hidden, _ = self.start_match(a, b)
        self.play_moves(a, b, ["e4", "e5", "Nf3"])
        c, d, shown = self.two_guests_game(srv)
        self.play_moves(c, d, ["d4"])

        status, games = get_json(srv.http_port, "/api/games")
        self.assertEqual(status, 200)
        self.assertEqual([g["number"] for g in games], [shown], games)
        self.assertEqual(get(srv.http_port, "/api/stream/game/%d" % hidden)[0], 404)
        self.assertEqual(get(srv.http_port, "/board/%d.svg" % hidden)[0], 404)
        status, user = get_json(srv.http_port, "/api/user/%s" % a.name)
        self.assertEqual(status, 200)
        # Its stored row exists (it is a played game); none of its moves are shown.
        status, hdrs, body = get(srv.http_port, "/game/export/%s" % user["playing"]["id"],
                                 headers={"Accept": "application/json"})
        self.assertEqual(status, 200, body)
        self.assertEqual(json.loads(body).get("moves", ""), "", body)
        status, hdrs, pgn = get(srv.http_port, "/game/export/%s" % user["playing"]["id"])
        self.assertNotIn(b"e4", pgn)
        self.assertNotIn(b"Nf3", pgn)
        # The open game's export has its move.
        status, user = get_json(srv.http_port, "/api/user/%s" % c.name)
        self.assertIn(b"d4", get(srv.http_port, "/game/export/%s" % user["playing"]["id"])[2])
        # The featured game is the open one, whatever the ratings.
        feed = self.stream(srv, "/api/tv/feed")
        first = feed.line()
        self.assertEqual(first["t"], "featured", first)
        self.assertEqual(first["d"]["id"], games[0]["id"], first)

if __name__ == "__main__":
    main()
