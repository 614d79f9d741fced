#!/usr/bin/env python3
"""The web shows played games only: an examined board (a lesson, with no
stored id and a line that steps back and forth) stays out of /api/games and
its streams, and stepping it does not disturb the streams of played games."""
import re

from games_harness import parse12, main
from web_harness import WebTestCase, get_json


class WebExamineTest(WebTestCase):

    def test_examined_board_is_not_a_live_game(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv, "5 0")
        viewer = self.stream(srv, "/api/stream/game/%d" % number)
        self.assertEqual(viewer.line()["number"], number)
        coach = self.guest_player(srv)
        board = parse12(re.search(rb"<12> ([^\n\r]*)", self.cmd(coach, "examine")).group(1))
        exam = board["game"]
        self.assertNotEqual(exam, number)
        for move in ("e4", "e5", "Nf3"):
            self.assertIn(b"<12> ", self.cmd(coach, move))
        self.assertIn(b"backs up", self.cmd(coach, "backward 2"))
        self.assertIn(b"<12> ", self.cmd(coach, "d5"))
        status, games = get_json(srv.http_port, "/api/games")
        self.assertEqual(status, 200)
        self.assertEqual([g["number"] for g in games], [number])
        status, body = get_json(srv.http_port, "/api/stream/game/%d" % exam)
        self.assertEqual(status, 404, body)
        # The played game's stream goes on with its own moves only.
        self.play_moves(a, b, ["e4"])
        ev = viewer.line()
        self.assertEqual(ev["lm"], "e2e4")
        self.cmd(coach, "unexamine")
        self.assertIn(b"<12> ", self.cmd(b, "e5"))
        self.assertEqual(viewer.line()["lm"], "e7e5")


if __name__ == "__main__":
    main()
