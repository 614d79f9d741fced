#!/usr/bin/env python3
"""A paused game in headless chromium: the game page's clocks stand still
and say "paused" while the players have the clocks stopped, and tick again
after the unpause; the lobby's caption of the game says "(paused)"."""
import time

from games_harness import main
from test_web_browser import Browser
from web_harness import WebTestCase

STILL_S = 1.6
WCLOCK = "document.getElementById('wclock').textContent"
MARKS = "[...document.querySelectorAll('.paused')].filter(e => !e.hidden).length"


class PausedPageTest(WebTestCase):

    def test_the_clocks_stand_while_paused_and_tick_after(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv, "5 0")
        self.play_moves(a, b, ["e4", "e5"])
        page = Browser()
        self.addCleanup(page.close)
        page.open("http://127.0.0.1:%d/game/%d" % (srv.http_port, number))
        page.wait_js("document.getElementById('moves').textContent", "1. e4 e5")
        self.assertEqual(page.js(MARKS), 0)
        self.assertIn(b"Pause request sent.", self.cmd(a, "pause"))
        self.assertIn(b"Game clock paused.", self.cmd(b, "pause"))
        page.wait_js(MARKS, 2)
        still = page.js(WCLOCK)
        self.assertNotIn("running", page.js("document.getElementById('wclock').className"))
        end = time.monotonic() + STILL_S
        while time.monotonic() < end:
            self.assertEqual(page.js(WCLOCK), still)
            time.sleep(0.1)
        self.assertIn(b"Unpause request sent.", self.cmd(a, "unpause"))
        self.assertIn(b"Game clock resumed.", self.cmd(b, "unpause"))
        page.wait_js(MARKS, 0)
        page.wait_js(WCLOCK, lambda t: t != still, timeout=5)
        self.assertIn("running", page.js("document.getElementById('wclock').className"))
        # the lobby: its caption of the paused game
        self.assertIn(b"Pause request sent.", self.cmd(a, "pause"))
        self.assertIn(b"Game clock paused.", self.cmd(b, "pause"))
        page.open("http://127.0.0.1:%d/" % srv.http_port)
        caption = page.wait_js("[...document.querySelectorAll('a.game')].map(e => e.textContent)"
                               ".join('|')", lambda t: t and a.name in t)
        self.assertIn("(paused)", caption)


if __name__ == "__main__":
    main()
