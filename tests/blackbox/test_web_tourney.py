"""The web face of a tournament, black box: its JSON (standings with every
tie-break, pairings and results), its TRF report, and a round's games as
PGN (live ones included), as a lichess broadcast would read them."""
import re

from games_harness import main
from test_tourney import PASSWORD, TourneyTestCase, text
from web_harness import Stream, get, get_json


class WebTourneyTest(TourneyTestCase):

    def tourney_server(self, names, config=None):
        srv = self.new_server(config=dict(config or {}, commands_per_sec=1000,
                                          command_burst=1000), tls=False, http=True)
        for n in names:
            srv.useradd(n, PASSWORD)
        srv.start()
        return srv

    def test_tourney_json_trf_and_round_pgn(self):
        names = ["wta", "wtb", "wtc", "wtd"]
        srv = self.tourney_server(names + ["director"])
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "Club rr 0 5 0 unrated")
        for n in names:
            self.cmd(clients[n], "tourney join %d" % tid)
        live = Stream(srv.http_port, "/api/stream/tourney/%d" % tid)
        self.addCleanup(live.close)
        first = live.line()
        self.assertEqual((first["t"], first["d"]["state"], first["d"]["currentRound"]),
                         ("tourney", "created", 0))
        self.cmd(director, "tourney start %d" % tid)
        ev = live.line()
        self.assertEqual((ev["t"], ev["d"]["state"], ev["d"]["currentRound"]),
                         ("update", "running", 1))
        boards, _, _ = self.wait_round(director, tid, 1)
        self.assertEqual(len(boards), 2)

        status, listed = get_json(srv.http_port, "/api/tourney")
        self.assertEqual(status, 200)
        self.assertEqual([(x["id"], x["name"], x["state"], x["currentRound"]) for x in listed],
                         [(tid, "Club", "running", 1)])
        status, t = get_json(srv.http_port, "/api/tourney/%d" % tid)
        self.assertEqual(status, 200)
        self.assertEqual((t["id"], t["name"], t["rounds"], t["currentRound"]), (tid, "Club", 3, 1))
        self.assertEqual(len(t["standings"]), 4)
        self.assertEqual(set(t["standings"][0]["tiebreaks"]), set(t["tiebreaks"]))
        r1 = t["pairings"][0]
        self.assertEqual(r1["round"], 1)
        self.assertEqual([(p["board"], p["white"], p["black"], p["result"], p["game"])
                          for p in r1["pairings"]],
                         [(b["board"], b["white"], b["black"], "*", b["game"]) for b in boards])

        # the live games of round 1, tagged board by board
        status, hdrs, body = get(srv.http_port, "/tourney/%d/round/1.pgn" % tid)
        self.assertEqual(status, 200)
        self.assertEqual(hdrs["content-type"], "application/x-chess-pgn")
        pgn = body.decode()
        self.assertEqual(re.findall(r'\[Round "([^"]*)"\]', pgn), ["1.1", "1.2"])
        self.assertEqual(pgn.count('[Result "*"]'), 2)

        self.play_board(clients, boards[0], "1-0")
        # the stream says so: the board's result (updates may come for each game started)
        while True:
            ev = live.line()
            if ev["d"]["pairings"][0]["pairings"][0]["result"] != "*":
                break
        self.assertEqual(ev["d"]["pairings"][0]["pairings"][0]["result"], "1-0")
        self.assertIsNone(ev["d"]["pairings"][0]["pairings"][0]["game"])
        self.play_board(clients, boards[1], "1/2-1/2")
        self.wait_round(director, tid, 2)
        status, t = get_json(srv.http_port, "/api/tourney/%d" % tid)
        self.assertEqual(t["currentRound"], 2)
        results = [p["result"] for p in t["pairings"][0]["pairings"]]
        self.assertEqual(results[0], "1-0")
        self.assertNotIn(results[1], ("*", "1-0", "0-1"))
        top = t["standings"][0]
        self.assertEqual((top["rank"], top["name"], top["score"]), (1, boards[0]["white"], 1.0))
        self.assertEqual(sorted(s["score"] for s in t["standings"]), [0.0, 0.5, 0.5, 1.0])
        status, hdrs, body = get(srv.http_port, "/tourney/%d/round/1.pgn" % tid)
        pgn = body.decode()
        self.assertIn('[Result "1-0"]', pgn)
        self.assertIn('[Result "1/2-1/2"]', pgn)

        # the TRF is the one "tourney trf" prints
        status, hdrs, body = get(srv.http_port, "/tourney/%d.trf" % tid)
        self.assertEqual(status, 200)
        web_lines = [l for l in body.decode().splitlines() if l.strip()]
        fics = text(self.cmd(director, "tourney trf %d" % tid))
        fics_lines = [l for l in fics.splitlines() if l[:3] in ("001", "012", "XXR", "XXC", "BBU")]
        self.assertEqual([l for l in web_lines if l[:3] in ("001", "012", "XXR", "XXC", "BBU")],
                         fics_lines)
        self.assertEqual(len([l for l in web_lines if l.startswith("001")]), 4)

        for path, code in (("/tourney/%d/round/x.pgn" % tid, 400), ("/tourney/%d.txt" % tid, 404),
                           ("/tourney/999.trf", 404), ("/api/tourney/999", 404),
                           ("/api/stream/tourney/999", 404), ("/api/stream/tourney/x", 400)):
            self.assertEqual(get(srv.http_port, path)[0], code, path)


if __name__ == "__main__":
    main()
