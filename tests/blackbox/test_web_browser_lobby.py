"""The lobby and the tournament page in headless chromium: recent results
beside the live games (their boards the server's SVG images), and the
tournament's crosstable.  Screenshots for the README (E2E_SHOTS)."""
import os

from games_harness import main
from test_web_browser import SHOTS, Browser
from web_harness import WebTourneyTestCase


class LobbyPageTest(WebTourneyTestCase):

    def browser(self):
        b = Browser()
        self.addCleanup(b.close)
        return b

    def test_lobby_recent_results_and_tourney_crosstable(self):
        srv, director, clients, tid, boards = self.web_round_robin(
            "Lobby", ["lba", "lbb", "lbc", "lbd"])
        w, b = clients[boards[1]["white"]], clients[boards[1]["black"]]
        self.move(w, b, "e4")
        self.play_board(clients, boards[0], "0-1")

        page = self.browser()
        page.open("http://127.0.0.1:%d/" % srv.http_port)
        recent = "[...document.querySelectorAll('#recent li')].map(e => e.textContent).join('|')"
        line = page.wait_js(recent, lambda t: t and "0-1" in t)
        self.assertIn(boards[0]["white"], line)
        self.assertIn(boards[0]["black"], line)
        self.assertLess(line.index(boards[0]["white"]), line.index("0-1"))
        self.assertLess(line.index("0-1"), line.index(boards[0]["black"]))
        link = page.js("document.querySelector('#recent a').pathname")
        self.assertRegex(link, r"^/game/export/\d+$")
        # the live game's small board: the server's SVG, loaded as an image
        page.wait_js("[...document.querySelectorAll('a.game img')].filter(i => i.complete && "
                     "i.naturalWidth > 0).length", 1)
        src = page.js("document.querySelector('a.game img').getAttribute('src')")
        self.assertTrue(src.startswith("/board.svg?fen="), src)
        self.assertIn("lm=e2e4", src)
        page.screenshot(os.path.join(SHOTS, "web-lobby.png"), height=900)

        page.open("http://127.0.0.1:%d/tourney/%d" % (srv.http_port, tid))
        cells = "[...document.querySelectorAll('#crosstable tr')].map(r => " \
                "[...r.children].map(c => c.textContent).join(',')).join('|')"
        rows = page.wait_js(cells, lambda t: t and "Rd 1" in t and t.count("|") == 4)
        body = rows.split("|")[1:]
        winner_no = next(r for r in body if r.split(",")[1] == boards[0]["black"]).split(",")[0]
        loser = next(r for r in body if r.split(",")[1] == boards[0]["white"])
        self.assertEqual(loser.split(",")[3:], ["0", "%s w 0" % winner_no])
        live = next(r for r in body if r.split(",")[1] == boards[1]["white"])
        self.assertTrue(live.endswith(" w *"), live)
        page.screenshot(os.path.join(SHOTS, "web-tourney.png"), height=900)


if __name__ == "__main__":
    main()
