#!/usr/bin/env python3
"""verdict_threads: how many 6.9 decisions run at once.  Two flags fall at
about the same moment where each decision takes its whole budget: with one
worker the second verdict comes a whole decision after the first, with two
they come together.  Compared as a ratio of the same run's decision time, so
a loaded machine slows both alike."""
import time

from games_harness import FAST, GT
from test_unwinnable_flag import StoredGames, main, stored_games
from test_unwinnable_verdict import SLOW


class VerdictThreads(StoredGames):

    def two_flags(self, threads):
        """Seconds from the first flag's verdict to the second's, and from
        the flags' fall to the first verdict."""
        srv = self.new_server(config=dict(FAST, unwinnable_nodes=250000, verdict_queue=2,
                                          verdict_threads=threads), tls=False)
        stored_games(srv, [("ann", "ben", SLOW, 60000, 800), ("cat", "dan", SLOW, 60000, 800)])
        srv.start()
        pairs = [(self.login(srv, w), self.login(srv, b))
                 for w, b in (("ann", "ben"), ("cat", "dan"))]
        for w, b in pairs:
            self.resume(w, b)
        t_flag = time.monotonic() + 0.8         # both black clocks run out about now
        ends = {}
        deadline = time.monotonic() + GT
        while len(ends) < 2 and time.monotonic() < deadline:
            for i, (w, _) in enumerate(pairs):
                if i in ends:
                    continue
                try:
                    _, got = self.end(w, 0.02)
                except AssertionError:
                    continue
                self.assertEqual(got[3:], ("%s forfeits on time" % got[2], "1-0"))
                ends[i] = time.monotonic()
        self.assertEqual(len(ends), 2, "no verdict within %d s" % GT)
        first, second = sorted(ends.values())
        return second - first, first - t_flag

    def test_two_workers_decide_two_flags_at_once(self):
        gap_one, decision = self.two_flags(1)
        self.assertGreater(gap_one, 0.2, "one worker: the second verdict should wait a "
                           "whole decision (%.2f s after the first, decision %.2f s); the "
                           "position no longer takes long" % (gap_one, decision))
        gap_two, _ = self.two_flags(2)
        self.assertLess(gap_two, gap_one / 2, (gap_one, gap_two, decision))


if __name__ == "__main__":
    main()
