"""Boards drawn by the server as SVG, black box: /board.svg for any FEN (the
last move marked, cacheable, bad input refused with 400) and
/board/N.svg for a live game as the web may show it."""
import xml.etree.ElementTree as ET

from games_harness import main, fen_after
from web_harness import WebTestCase, get, get_json

SVG = "{http://www.w3.org/2000/svg}"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def squares(body):
    """(pieces by square, marked squares, symbols defined) of an SVG board."""
    root = ET.fromstring(body)
    pieces = {u.get("data-square"): u.get("href") for u in root.iter(SVG + "use")}
    marked = sorted(r.get("data-square") for r in root.iter(SVG + "rect")
                    if "chessd-last" in r.get("class", "").split())
    defined = {s.get("id") for s in root.iter(SVG + "symbol")}
    return pieces, marked, defined


class BoardTest(WebTestCase):

    def test_any_position_as_svg(self):
        srv = self.web_server()
        fen = fen_after(["e2e4", "g8f6"])
        status, hdrs, body = get(srv.http_port, "/board.svg?fen=%s&lm=g8f6" % fen.replace(" ", "%20"))
        self.assertEqual(status, 200)
        self.assertEqual(hdrs["content-type"], "image/svg+xml; charset=utf-8")
        self.assertIn("immutable", hdrs["cache-control"])
        pieces, marked, defined = squares(body)
        self.assertEqual(len(pieces), 64)
        self.assertEqual(marked, ["f6", "g8"])
        self.assertEqual((pieces["e4"], pieces["e2"], pieces["f6"], pieces["g8"], pieces["e8"]),
                         ("#chessd-wP", "#chessd-none", "#chessd-bN", "#chessd-none", "#chessd-bK"))
        # every piece named is drawn in the SVG itself, no font needed
        self.assertLessEqual({h[1:] for h in pieces.values()}, defined)
        self.assertEqual(len(defined), 13)
        self.assertEqual(ET.fromstring(body).get("aria-label"), fen)
        # the placement alone draws too, with no move marked
        status, _, body = get(srv.http_port, "/board.svg?fen=8/8/8/4k3/8/8/8/4K2R")
        self.assertEqual(status, 200)
        pieces, marked, _ = squares(body)
        self.assertEqual(marked, [])
        self.assertEqual(sorted(s for s, h in pieces.items() if h != "#chessd-none"),
                         ["e1", "e5", "h1"])

    def test_bad_board_requests_get_400(self):
        srv = self.web_server()
        for path in ("/board.svg", "/board.svg?lm=e2e4", "/board.svg?fen=xx",
                     "/board.svg?fen=%s&lm=e2e9" % START.replace(" ", "%20"),
                     "/board.svg?fen=%s&lm=e2e4k" % START.replace(" ", "%20"),
                     "/board.svg?fen=" + "p" * 200, "/board/x.svg", "/board/0.svg"):
            status, body = get_json(srv.http_port, path)
            self.assertEqual(status, 400, path)
            self.assertIn("error", body)
        self.assertEqual(get(srv.http_port, "/board/5.svg")[0], 404)
        self.assertEqual(get(srv.http_port, "/board/5.png")[0], 404)

    def test_live_game_board(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        self.play_moves(a, b, ["e4", "e5", "Nf3"])
        status, hdrs, body = get(srv.http_port, "/board/%d.svg" % number)
        self.assertEqual(status, 200)
        self.assertEqual(hdrs["cache-control"], "no-cache")
        pieces, marked, _ = squares(body)
        self.assertEqual(marked, ["f3", "g1"])
        self.assertEqual((pieces["f3"], pieces["e5"], pieces["g1"]),
                         ("#chessd-wN", "#chessd-bP", "#chessd-none"))


if __name__ == "__main__":
    main()
