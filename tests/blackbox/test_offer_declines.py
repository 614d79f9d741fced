"""A declined draw, abort, adjourn or takeback is told to the offerer in the
line pychess reads (OfferManager's onOfferDeclined: "NAME declines the KIND
request."), fed here to the installed pychess, and to the decliner as
lasker's pending.c has it ("You decline the KIND request from NAME.")."""
import re

import test_conformance_pychess as pychess_oracle
from games_harness import GamesTestCase, main

OFFERS = [("draw", "draw"), ("abort", "abort"), ("adjourn", "adjourn"),
          ("takeback", "takeback 1")]


class OfferDeclines(GamesTestCase):

    def test_each_decline_is_read_by_pychess(self):
        srv = self.game_server()
        w, b = self.guest_player(srv), self.guest_player(srv)
        self.start_match(w, b, "5 0")
        self.play_moves(w, b, ["e2e4", "e7e5"])
        start = len(w.seen)
        for kind, command in OFFERS:
            self.assertIn(b"request sent.", self.cmd(w, command))
            self.assertIn(b"You decline the %s request from %s." % (kind.encode(),
                                                                   w.name.encode()),
                          self.cmd(b, "decline"))
            self.expect_line(w, re.escape("%s declines the %s request." % (b.name, kind)))
        got = pychess_oracle.ask_pychess({"w": w.seen[start:]})["transcripts"]
        self.assertEqual([e["groups"][0] for e in
                          pychess_oracle.handlers(got["w"], "onOfferDeclined")],
                         [[kind] for kind, _ in OFFERS], got["w"])
        # The game goes on after every refusal.
        self.play_moves(w, b, ["g1f3", "b8c6"])


if __name__ == "__main__":
    main()
