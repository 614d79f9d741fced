#!/usr/bin/env python3
"""allobservers N read by pychess's ChatManager: a game nobody watches is
"No one is observing game N." (its on_allob_no; lasker says nothing, and
the old "Observing N [...]: (0 users)" matched none of pychess's lines), a
watched one "Observing N [w vs. b]: names (1 user)" (its get_allob_list).
The replies are fed to the installed pychess (test_conformance_pychess's
oracle) in block mode, as pychess runs."""
import re

import test_conformance_pychess as pychess_oracle
from games_harness import GamesTestCase, main


class AllobserversPychess(GamesTestCase):

    def bcmd(self, c, ident, line):
        c.send_line("%d %s" % (ident, line))
        c.expect(re.compile(rb"\x15%d\x16(\d+)\x16(.*?)\x17" % ident, re.S))
        return c.match.group(2)

    def test_nobody_and_somebody(self):
        srv = self.game_server()
        w, b, o, asker = (self.guest_player(srv) for _ in range(4))
        n, _ = self.start_match(w, b, "5 0")
        self.assertEqual(self.cmd(asker, "allobservers %d" % n), b"No one is observing game %d.\n\r" % n)
        self.assertEqual(self.cmd(asker, "allobservers %s" % w.name),
                         b"No one is observing game %d.\n\r" % n)
        asker.send_line("iset block 1")
        asker.expect(b"block set.\n\rfics% ")
        start = len(asker.seen)
        self.bcmd(asker, 1, "allobservers %d" % n)
        self.assertIn(b"You are now observing game %d." % n, self.cmd(o, "observe %d" % n))
        self.assertEqual(self.bcmd(asker, 2, "allobservers %d" % n),
                         b"Observing %2d [%s vs. %s]: %s(U) (1 user)\n\r" % (
                             n, w.name.encode(), b.name.encode(), o.name.encode()))
        got = pychess_oracle.ask_pychess({"asker": asker.seen[start:]})["transcripts"]["asker"]
        self.assertEqual([e["groups"][0] for e in pychess_oracle.handlers(got, "on_allob_no")],
                         [[str(n)]], got)
        self.assertEqual([e["groups"][0] for e in pychess_oracle.handlers(got, "get_allob_list")],
                         [[str(n), "%s(U)" % o.name]], got)


if __name__ == "__main__":
    main()
