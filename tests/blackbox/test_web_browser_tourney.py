"""The tournament page in headless chromium: pairings with links to the live
boards, a finished board's result, and the standings once the round is done,
all without a reload."""
import unittest

from games_harness import main
from test_web_browser import CHROMIUM, Browser
from web_harness import WebTourneyTestCase


class TourneyPageTest(WebTourneyTestCase):

    def test_tourney_page_updates_when_a_game_ends(self):
        srv, director, clients, tid, boards = self.web_round_robin(
            "Web", ["wpa", "wpb", "wpc", "wpd"])
        page = Browser()
        self.addCleanup(page.close)
        page.open("http://127.0.0.1:%d/" % srv.http_port)     # the lobby links to it
        page.wait_js("[...document.querySelectorAll('#tourneys a')].map(e => e.pathname)"
                     ".join(' ')", "/tourney/%d" % tid)
        page.open("http://127.0.0.1:%d/tourney/%d" % (srv.http_port, tid))
        page.wait_js("document.getElementById('name').textContent", "Web")
        results = "[...document.querySelectorAll('#pairings td:nth-child(4)')]" \
                  ".map(e => e.textContent).join(' ')"
        page.wait_js(results, "live live")
        links = page.js("[...document.querySelectorAll('#pairings a')].map(e => e.pathname)"
                        ".join(' ')")
        self.assertEqual(links, " ".join("/game/%d" % b["game"] for b in boards))
        self.play_board(clients, boards[0], "1-0")
        # the page redraws itself: the finished board's result, and the leader
        page.wait_js(results, "1-0 live")
        # standings are after the rounds done: the round's last game moves them
        self.play_board(clients, boards[1], "0-1")
        page.wait_js("document.getElementById('roundname').textContent", "Round 2")
        page.wait_js("document.querySelector('#standings tr:nth-child(2) td:nth-child(2)')"
                     ".textContent", boards[0]["white"])
        self.assertEqual(page.js("document.querySelector('#standings tr:nth-child(2) "
                                 "td:nth-child(4)').textContent"), "1")
        self.assertEqual(page.js("[...document.querySelectorAll('#standings td:nth-child(4)')]"
                                 ".map(e => e.textContent).sort().join(' ')"), "0 0 1 1")


if __name__ == "__main__":
    main()
