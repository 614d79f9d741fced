"""The lobby's sources, black box: /api/games/recent (the last games to
finish, newest first, lichess's game JSON; max checked against
web_games_per_request) and a tournament's crosstable in /api/tourney/ID,
cell for cell the one `tourney crosstable` prints."""
import re

from games_harness import main
from test_tourney import text
from web_harness import WebTestCase, WebTourneyTestCase, get, get_json


class RecentTest(WebTestCase):

    def test_recent_results_newest_first(self):
        srv = self.web_server(config={"web_games_per_request": 5})
        srv.useradd("Recenta", "recentpw1")
        srv.useradd("Recentb", "recentpw2")
        a = self.user_player(srv, "Recenta", "recentpw1")
        b = self.user_player(srv, "Recentb", "recentpw2")
        status, recent = get_json(srv.http_port, "/api/games/recent")
        self.assertEqual((status, recent), (200, []))
        self.start_match(a, b, "5 0 r")
        self.play_moves(a, b, ["f3", "e5", "g4", "Qh4#"])
        self.end_line(a)
        number, _ = self.start_match(b, a, "5 0 u")
        # a live game is not a result
        _, recent = get_json(srv.http_port, "/api/games/recent")
        self.assertEqual(len(recent), 1)
        self.play_moves(b, a, ["e4", "e5"])
        self.cmd(b, "draw")
        self.assertIn(b"} 1/2-1/2", self.cmd(a, "draw"))
        status, recent = get_json(srv.http_port, "/api/games/recent")
        self.assertEqual(status, 200)
        self.assertEqual([(g["players"]["white"]["user"]["name"], g["players"]["black"]["user"]["name"],
                           g["status"], g.get("winner"), g["rated"]) for g in recent],
                         [("Recentb", "Recenta", "draw", None, False),
                          ("Recenta", "Recentb", "mate", "black", True)])
        # ratings as they stood when each game began: none yet, then the first game's
        self.assertIsNone(recent[1]["players"]["white"]["rating"])
        self.assertIsInstance(recent[0]["players"]["white"]["rating"], int)
        self.assertGreaterEqual(recent[0]["lastMoveAt"], recent[1]["lastMoveAt"])
        # each links to its export
        status, hdrs, body = get(srv.http_port, "/game/export/%s" % recent[1]["id"])
        self.assertEqual(status, 200)
        self.assertIn('[Result "0-1"]', body.decode())
        _, one = get_json(srv.http_port, "/api/games/recent?max=1")
        self.assertEqual([g["id"] for g in one], [recent[0]["id"]])
        _, five = get_json(srv.http_port, "/api/games/recent?max=5")
        self.assertEqual(len(five), 2)
        for bad in ("0", "6", "x", "-1", "99999999999999999999"):
            status, body = get_json(srv.http_port, "/api/games/recent?max=" + bad)
            self.assertEqual(status, 400, bad)
            self.assertIn("web_games_per_request", body["error"])


class CrosstableTest(WebTourneyTestCase):

    def test_crosstable_as_tourney_crosstable_prints_it(self):
        srv, director, clients, tid, boards = self.web_round_robin(
            "Cross", ["xca", "xcb", "xcc", "xcd"])
        self.play_board(clients, boards[0], "1-0")
        self.play_board(clients, boards[1], "0-1")
        boards, _, _ = self.wait_round(director, tid, 2)
        self.play_board(clients, boards[0], "1/2-1/2")
        _, t = get_json(srv.http_port, "/api/tourney/%d" % tid)
        self.assertEqual([p["no"] for p in t["crosstable"]], [1, 2, 3, 4])
        # the FICS listing: " No Name  Pts  Rd1 cell  Rd2 cell", cells "OPP c r"
        fics = text(self.cmd(director, "tourney crosstable %d" % tid))
        rows = {}
        for line in fics.splitlines():
            m = re.match(r"^ *(\d+) (\w+) +(\d+\.\d)((?:  +(?:\d+|-) [wb-] \S)+)", line)
            if m:
                rows[int(m.group(1))] = (m.group(2), float(m.group(3)),
                                         re.findall(r"(\d+|-) ([wb-]) (\S)", m.group(4)))
        self.assertEqual(len(rows), 4, fics)
        for p in t["crosstable"]:
            name, score, cells = rows[p["no"]]
            self.assertEqual((p["name"], p["score"]), (name, score))
            self.assertEqual(len(p["rounds"]), 2)
            self.assertEqual([("-" if c["opponent"] is None else str(c["opponent"]),
                               "-" if c["color"] is None else c["color"][0], c["result"])
                              for c in p["rounds"]], [tuple(c) for c in cells])
        results = sorted(c["result"] for p in t["crosstable"] for c in p["rounds"][:1])
        self.assertEqual(results, ["0", "0", "1", "1"])
        self.assertIn("=", [c["result"] for p in t["crosstable"] for c in p["rounds"][1:]])
        self.assertIn("*", [c["result"] for p in t["crosstable"] for c in p["rounds"][1:]])


if __name__ == "__main__":
    main()
