"""A move's stream event is encoded only when someone is sent it: moves of
games nobody watches on the web cost no JSON, and a reader who comes later
with Last-Event-ID still gets every move as it was played, a takeback's
replaced moves included."""
import re

from games_harness import main, fen_after
from web_harness import WebTestCase, get


def events_encoded(srv):
    text = get(srv.http_port, "/metrics")[2].decode()
    return int(re.search(r"(?m)^chessd_web_events_total (\d+)$", text).group(1))


def moves_total(srv):
    text = get(srv.http_port, "/metrics")[2].decode()
    return int(re.search(r"(?m)^chessd_moves_total (\d+)$", text).group(1))


class LazyEventTest(WebTestCase):

    def test_moves_nobody_watches_are_not_encoded_until_asked_for(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        ucis = ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"]
        self.play_moves(a, b, ["e4", "c5", "Nf3", "d6", "d4", "cxd4"])
        self.assertEqual(moves_total(srv), 6)
        self.assertEqual(events_encoded(srv), 0)
        # a reader reconnecting from the start gets each move as it was played
        s = self.stream(srv, "/api/stream/game/%d" % number, sse=True, last_id=0)
        for i, uci in enumerate(ucis):
            ev_id, data = s.event()
            self.assertEqual((ev_id, data["lm"]), (i + 1, uci))
            self.assertEqual(data["fen"], fen_after(ucis[:i + 1]))
        self.assertEqual(events_encoded(srv), 6)
        # a move while someone watches is encoded once, at once
        self.move(a, b, "Nxd4")
        ev_id, data = s.event()
        self.assertEqual((ev_id, data["lm"]), (7, "f3d4"))
        self.assertEqual(events_encoded(srv), 7)

    def test_moves_taken_back_before_anyone_watched_replay_as_played(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        self.play_moves(a, b, ["e4", "e5", "Nf3", "Nc6"])
        self.take_back(a, b, 2)
        self.play_moves(a, b, ["d4", "d5"])
        s = self.stream(srv, "/api/stream/game/%d" % number, sse=True, last_id=0)
        seen = []
        while len(seen) < 7:
            ev_id, data = s.event()
            seen.append((ev_id, data.get("lm")))
        self.assertEqual(seen[:4], [(1, "e2e4"), (2, "e7e5"), (3, "g1f3"), (4, "b8c6")])
        self.assertEqual(seen[4][0], 2)      # the takeback: the position it left
        self.assertEqual(seen[5:], [(3, "d2d4"), (4, "d7d5")])


if __name__ == "__main__":
    main()
