"""The clocks the web gives of a game the public delay holds back are those
of the ply it shows, never the clocks as they run now, black box: those
would tell a watcher that no move was made within the delay.  A game not
held back gives the clocks left now (test_web_browser_visitor)."""
import time

from games_harness import main
from web_harness import WebTestCase, get_json

DELAY_S = 1
THINK_S = 3.0


class DelayedClockTest(WebTestCase):

    def test_a_delayed_game_shows_its_shown_plys_clocks(self):
        srv = self.web_server(config={"public_delay_s": DELAY_S})
        a, b, number = self.two_guests_game(srv, "2 0")
        self.play_moves(a, b, ["e4", "e5"])
        # past the delay the web shows both moves, and white thinks on
        time.sleep(THINK_S)
        status, games = get_json(srv.http_port, "/api/games")
        self.assertEqual((status, games[0]["turns"]), (200, 2))
        self.assertGreaterEqual(games[0]["wc"], 119)
        s = self.stream(srv, "/api/stream/game/%d" % number)
        first = s.line()
        self.assertEqual((first["turns"], first["lastMove"]), (2, "e7e5"))
        self.assertGreaterEqual(first["wc"], 119)
        # and the server serves the game on: the next move comes after the delay
        self.move(a, b, "Nf3")
        self.assertEqual(s.line()["lm"], "g1f3")


if __name__ == "__main__":
    main()
