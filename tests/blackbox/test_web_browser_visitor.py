"""A new visitor's walk in headless chromium, black box: the lobby lists a
live game with its clocks as they stand (not as they stood at the last
move), a click opens its page, whose running clock starts from the time
really left; the moves follow, the result shows, and back in the lobby the
game is among the recent results and no longer live.  The API's clocks are
checked as well: /api/games and a stream's first line."""
import time

from games_harness import GT, main
from test_web_browser import Browser
from web_harness import WebTestCase, get_json

THINK_S = 3.0


def navigated(page, path, timeout=GT):
    """Waits until the page is at path; an evaluation caught mid-navigation is retried."""
    deadline = time.monotonic() + timeout
    got = None
    while time.monotonic() < deadline:
        try:
            got = page.js("document.readyState === 'complete' && location.pathname")
        except AssertionError as e:
            if "Runtime.evaluate" not in str(e):
                raise
            got = None
        if got == path:
            return
        time.sleep(0.1)
    raise AssertionError("at %r, not %r" % (got, path))


def seconds(text):
    """'1:57' -> 117."""
    m, s = text.split(":")
    return int(m) * 60 + int(s)


class VisitorTest(WebTestCase):

    def browser(self):
        b = Browser()
        self.addCleanup(b.close)
        return b

    def test_lobby_to_game_to_result(self):
        srv = self.web_server()
        port = srv.http_port
        a, b, number = self.two_guests_game(srv, "2 0")
        self.play_moves(a, b, ["e4", "e5"])
        moved = time.monotonic()
        # white thinks; the clock it has left runs down
        time.sleep(THINK_S)
        status, games = get_json(port, "/api/games")
        self.assertEqual(status, 200)
        self.assertLessEqual(games[0]["wc"], 120 - THINK_S + 0.5)
        self.assertGreaterEqual(games[0]["bc"], 118)
        s = self.stream(srv, "/api/stream/game/%d" % number)
        self.assertLessEqual(s.line()["wc"], 120 - THINK_S + 0.5)
        s.close()

        page = self.browser()
        page.open("http://127.0.0.1:%d/" % port)
        caption = page.wait_js("(document.querySelector('a.game') || {}).textContent",
                               lambda t: bool(t))
        self.assertIn(a.name, caption)
        white_left = seconds(caption.split(")")[1].split()[0])
        self.assertLessEqual(white_left, 120 - THINK_S + 0.5, caption)
        page.js("document.querySelector('a.game').click()")
        navigated(page, "/game/%d" % number)
        page.wait_js("document.getElementById('moves').textContent", "1. e4 e5")
        shown = seconds(page.wait_js("document.getElementById('wclock').textContent",
                                     lambda t: bool(t)))
        # what the page shows is what is left now, within the whole seconds
        # the API gives and the page shows (the old page showed 2:00 here)
        left = 120 - (time.monotonic() - moved)
        self.assertLessEqual(shown, left + 1, (shown, left))
        self.assertGreaterEqual(shown, left - 3, (shown, left))
        self.assertIn("running", page.js("document.getElementById('wclock').className"))

        self.move(a, b, "Nf3")
        page.wait_js("document.getElementById('moves').textContent", "1. e4 e5 2. Nf3")
        self.assertIn("running", page.js("document.getElementById('bclock').className"))
        b.send_line("resign")
        page.wait_js("document.getElementById('result').textContent", "resign, white wins")
        self.assertNotIn("running", page.js("document.getElementById('bclock').className"))

        page.js("document.querySelector('a[href=\"/\"]').click()")
        navigated(page, "/")
        page.wait_js("document.getElementById('none').hidden", False)
        line = page.wait_js("(document.querySelector('#recent li') || {}).textContent",
                            lambda t: bool(t))
        self.assertIn("1-0", line)
        self.assertIn(b.name, line)
        self.assertIn("resign", line)
        self.assertEqual(page.js("document.querySelectorAll('a.game').length"), 0)


if __name__ == "__main__":
    main()
