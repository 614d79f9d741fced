"""A stream reopened with Last-Event-ID ends in the game as it stands, black
box: an id past what was shown (another game's under the same number, or
garbage) gets the description at once, not silence; a reader who may have
stood before a takeback is sent from the takeback, not the moves after it
on top of the ones it replaced.  The server serves a game afterwards."""
from games_harness import main, fen_after
from web_harness import WebTestCase, get_json


def replay(sans, events):
    """The moves a page that showed sans shows after these SSE events, as
    game.html keeps them: a description (it has "id") resets them, a move
    event adds one."""
    sans = list(sans)
    for _, d in events:
        if "id" in d:
            sans = d["sanMoves"].split()
        else:
            sans.append(d["san"])
    return sans


class StreamResumeTest(WebTestCase):

    def test_an_id_past_the_game_gets_the_description(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        self.play_moves(a, b, ["e4", "e5"])
        for last in (3, 40, 2147483647):
            s = self.stream(srv, "/api/stream/game/%d" % number, sse=True, last_id=last)
            self.assertEqual(s.status, 200)
            ev_id, d = s.event()
            self.assertEqual(ev_id, 2, last)
            self.assertEqual((d["number"], d["moves"], d["fen"]),
                             (number, "e2e4 e7e5", fen_after(["e2e4", "e7e5"])), last)
            s.close()
        # an id within the game still replays only what came after it
        s = self.stream(srv, "/api/stream/game/%d" % number, sse=True, last_id=1)
        ev_id, d = s.event()
        self.assertEqual((ev_id, d["lm"]), (2, "e7e5"))
        self.assertEqual(get_json(srv.http_port, "/api/games")[1][0]["turns"], 2)

    def test_a_reader_from_before_a_takeback_ends_in_the_position(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        self.play_moves(a, b, ["e4", "e5", "Nf3", "Nc6"])
        # a reader that saw three plies, then lost its connection
        self.take_back(a, b, 2)
        self.play_moves(a, b, ["d4", "d5"])
        want = fen_after(["e2e4", "e7e5", "d2d4", "d7d5"])
        self.assertEqual(get_json(srv.http_port, "/api/games")[1][0]["fen"], want)
        seen = ["e4", "e5", "Nf3", "Nc6"]
        for last, (san, uci) in zip((2, 3, 4), (("exd5", "e4d5"), ("a3", "a2a3"),
                                                 ("h3", "h2h3"))):
            s = self.stream(srv, "/api/stream/game/%d" % number, sse=True, last_id=last)
            events = []
            # everything owed comes at once; a move never played before marks its end
            self.move(a, b, san)
            while True:
                ev = s.event()
                events.append(ev)
                if ev[1].get("lm") == uci:
                    break
            self.assertEqual(replay(seen[:last], events[:-1]), ["e4", "e5", "d4", "d5"],
                             (last, events))
            s.close()
            a.send_line("takeback 1")
            b.expect(b"would like to take back")
            b.send_line("accept")
            self.expect12(a)
            self.expect12(b)
        # and the server serves on
        s = self.stream(srv, "/api/stream/game/%d" % number)
        self.assertEqual(s.line()["fen"], want)


if __name__ == "__main__":
    main()
