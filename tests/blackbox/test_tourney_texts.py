"""Black-box tests of tournament texts and timing: the absent player's
forfeit falls at the deadline set at pairing even across a restart by
SIGKILL; standings say which rounds they are after and show "-" where a
value does not apply; the tournament name has a configurable cap; every
subcommand checks its words and its director-only rule before it runs.

Python standard library only; run with CHESSD pointing at the binary.
"""
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import chessd_harness as H  # noqa: E402
from test_tourney import TourneyTestCase, text  # noqa: E402

FORFEIT_MS = 10000


class TourneyTextsTest(TourneyTestCase):

    def test_forfeit_deadline_survives_restart(self):
        names = ["rsa", "rsb"]
        srv = self.tourney_server(names + ["director"], config={"tourney_forfeit_ms": FORFEIT_MS, "reconnect_grace_ms": 1000})
        director = self.login(srv, "director")
        rsa = self.login(srv, "rsa")
        rsb = self.login(srv, "rsb")
        tid = self.create(director, "Restart swiss 1 5 0 unrated")
        for c in (rsa, rsb):
            self.cmd(c, "tourney join %d" % tid)
        rsb.close()
        self.cmd(director, "tourney start %d" % tid)
        paired = time.monotonic()
        _, boards, _, _ = self.pairings(director, tid, 1)
        self.assertEqual([(b["result"], b["game"]) for b in boards], [("*", None)])
        # Half the period passes, then the server dies without warning.
        time.sleep(FORFEIT_MS / 2000)
        srv.kill()
        rsa.close()
        director.close()
        srv.start()
        rsa = self.login(srv, "rsa")
        self.expect_line(rsa, r"Tourney %d \(Restart\): round 1 board 1: .* \(forfeit: absent\)" % tid,
                         timeout=FORFEIT_MS / 1000 * 3)
        elapsed = time.monotonic() - paired
        # The forfeit falls at the original deadline: not early, and not a
        # whole fresh period after the restart (which would be >= 15 s).
        self.assertGreaterEqual(elapsed, FORFEIT_MS / 1000 - 0.5)
        self.assertLess(elapsed, FORFEIT_MS / 1000 + 3.5)
        director = self.login(srv, "director")
        _, boards, _, _ = self.pairings(director, tid, 1)
        self.assertEqual(boards[0]["result"], "+-" if boards[0]["white"] == "rsa" else "-+")
        srv.stop()

    def test_restart_during_a_game_gives_one_fresh_period(self):
        """A game the shutdown interrupts gets a fresh period after the
        restart (the players did nothing wrong), kept from then on: a
        second restart does not renew it."""
        names = ["rga", "rgb"]
        srv = self.tourney_server(names + ["director"], config={"tourney_forfeit_ms": FORFEIT_MS, "reconnect_grace_ms": 1000})
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "Again swiss 1 5 0 unrated")
        for n in names:
            self.cmd(clients[n], "tourney join %d" % tid)
        self.cmd(director, "tourney start %d" % tid)
        boards, _, _ = self.wait_round(director, tid, 1)
        self.assertTrue(boards[0]["game"], boards)
        w = boards[0]["white"]
        srv.stop()
        for c in list(clients.values()) + [director]:
            c.close()
        srv.start()
        restarted = time.monotonic()
        present = self.login(srv, w)
        time.sleep(FORFEIT_MS / 2000)
        srv.kill()
        present.close()
        srv.start()
        present = self.login(srv, w)
        self.expect_line(present, r"Tourney %d \(Again\): round 1 board 1: .* \(forfeit: absent\)" % tid,
                         timeout=FORFEIT_MS / 1000 * 3)
        elapsed = time.monotonic() - restarted
        self.assertGreaterEqual(elapsed, FORFEIT_MS / 1000 - 0.5)
        self.assertLess(elapsed, FORFEIT_MS / 1000 + 3.5)
        srv.stop()

    def test_deadline_passed_while_down_waits_for_the_players(self):
        """A deadline that fell while the server was down: the players the
        restart dropped get the reconnect grace to log back in, so the one
        who returns wins by forfeit rather than both losing at startup."""
        names = ["dwa", "dwb"]
        srv = self.tourney_server(names + ["director"],
                                  config={"tourney_forfeit_ms": 4000, "reconnect_grace_ms": 3000})
        director = self.login(srv, "director")
        dwa = self.login(srv, "dwa")
        dwb = self.login(srv, "dwb")
        tid = self.create(director, "Down swiss 1 5 0 unrated")
        for c in (dwa, dwb):
            self.cmd(c, "tourney join %d" % tid)
        dwb.close()
        self.cmd(director, "tourney start %d" % tid)
        srv.kill()
        dwa.close()
        director.close()
        time.sleep(5)
        srv.start()
        restarted = time.monotonic()
        dwa = self.login(srv, "dwa")
        self.expect_line(dwa, r"Tourney %d \(Down\): round 1 board 1: .* \(forfeit: absent\)" % tid,
                         timeout=30)
        self.assertGreaterEqual(time.monotonic() - restarted, 3 - 0.5)
        director = self.login(srv, "director")
        _, boards, _, _ = self.pairings(director, tid, 1)
        self.assertEqual(boards[0]["result"], "+-" if boards[0]["white"] == "dwa" else "-+")
        srv.stop()

    def test_standings_name_the_rounds_they_are_after(self):
        names = ["sta", "stb", "stc", "std"]
        srv = self.tourney_server(names + ["director"])
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "Texts swiss 2 5 0 unrated")
        for n in names:
            self.cmd(clients[n], "tourney join %d" % tid)
        self.cmd(director, "tourney start %d" % tid)
        boards, _, _ = self.wait_round(director, tid, 1)
        out = self.header(director, tid)["out"]
        self.assertIn("Standings before round 1 (round 1 in progress):", out)
        self.assertNotIn("after round 1", out)
        rows = [l.split() for l in out.splitlines() if re.match(r"^\s*\d+\s+\d+\s+st\w\s", l)]
        self.assertEqual(len(rows), 4, out)
        for f in rows:
            # Unrated players have no rating; no tie-break means anything yet.
            self.assertEqual(f[3], "-", out)
            self.assertEqual(f[5:], ["-"] * 5, out)

        # One game of round 1 over: the standings are still before it.
        self.play_board(clients, boards[0], "1-0")
        out = self.header(director, tid)["out"]
        self.assertIn("Standings before round 1 (round 1 in progress):", out)
        self.assertRegex(out, r"(?m)^\s+1\s+\d+\s+\w+\s+-\s+0\.0\s")

        # Round 1 over, round 2 paired at once: after round 1, round 2 on.
        self.play_board(clients, boards[1], "0-1")
        self.wait_round(director, tid, 2)
        out = self.header(director, tid)["out"]
        self.assertIn("Standings after round 1 (round 2 in progress):", out)
        _, rows = self.standings(director, tid)
        self.assertEqual(sorted(r["pts"] for r in rows), [0.0, 0.0, 1.0, 1.0])
        srv.stop()

    def test_standings_after_a_finished_round_and_bye_without_opponent(self):
        names = ["bya", "byb", "byc"]
        srv = self.tourney_server(names + ["director"])
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "Bye swiss 1 5 0 unrated")
        for n in names:
            self.cmd(clients[n], "tourney join %d" % tid)
        self.cmd(director, "tourney start %d" % tid)
        boards, byes, _ = self.wait_round(director, tid, 1)
        self.assertEqual([k for k, _, _ in byes], ["U"])
        self.play_board(clients, boards[0], "1/2-1/2")
        self.wait_state(director, tid, "finished")
        out = self.header(director, tid)["out"]
        self.assertIn("Standings after round 1:", out)
        self.assertNotIn("in progress", out)
        cross = text(self.cmd(director, "tourney crosstable %d" % tid))
        bye_no = byes[0][2]
        row = next(l for l in cross.splitlines() if re.match(r"^\s*%d %s\s" % (bye_no, byes[0][1]), l))
        # The bye's round has no opponent: "-", not a start number 0.
        self.assertRegex(row, r"\s1\.0\s+- - U$", cross)
        played = next(l for l in cross.splitlines() if re.match(r"^\s*\d+ %s\s" % boards[0]["white"], l))
        self.assertRegex(played, r"\s+%d w =$" % boards[0]["bno"], cross)
        srv.stop()

    def test_tournament_name_length_is_capped(self):
        srv = self.tourney_server(["director"])
        director = self.login(srv, "director")
        out = text(self.cmd(director, "tourney create %s swiss 1 5 0" % ("n" * 41)))
        self.assertEqual(out.strip(), "The tournament name is too long (at most 40 characters).")
        tid = self.create(director, "%s swiss 1 5 0" % ("n" * 40))
        self.assertIn('"%s"' % ("n" * 40), self.header(director, tid)["out"])
        srv.stop()

        srv = self.tourney_server(["director"], config={"tourney_name_chars": 8})
        director = self.login(srv, "director")
        out = text(self.cmd(director, "tourney create Ninechars swiss 1 5 0"))
        self.assertEqual(out.strip(), "The tournament name is too long (at most 8 characters).")
        self.create(director, "Eightchr swiss 1 5 0")
        srv.stop()

    def test_subcommand_words_and_director_checked_first(self):
        srv = self.tourney_server(["director", "sbp", "sbq"])
        director = self.login(srv, "director")
        p = self.login(srv, "sbp")
        tid = self.create(director, "Subs swiss 1 5 0")
        cases = [
            ("tourney join", "Usage: tourney join ID"),
            ("tourney show %d 2" % tid, "Usage: tourney show ID"),
            ("tourney result %d 1" % tid, "Usage: tourney result ID ROUND BOARD 1-0|0-1|1/2-1/2|+-|-+|--"),
            ("tourney set %d tiebreaks" % tid, "Usage: tourney set ID tiebreaks LIST | byevalue 1|0.5 | delay SECONDS|default"),
            ("tourney withdraw sbp %d extra" % tid, "Usage: tourney withdraw PLAYER ID"),
            ("tourney list now", "Usage: tourney list"),
            ("tourney start 999", "There is no tourney 999."),
            ("tourney start %d" % tid,
             "Only the director (director) or an admin can start tourney %d." % tid),
            ("tourney pause %d" % tid,
             "Only the director (director) or an admin can pause tourney %d." % tid),
            ("tourney result %d 1 1 1-0" % tid,
             "Only the director (director) or an admin can set results in tourney %d." % tid),
            ("tourney set %d byevalue 1" % tid,
             "Only the director (director) or an admin can change settings of tourney %d." % tid),
        ]
        for line, want in cases:
            out = text(self.cmd(p, line)).strip()
            self.assertEqual(out, want, line)
        self.assertTrue(text(self.cmd(p, "tourney frob %d" % tid)).startswith("Usage: tourney create|"))
        # The same words still work for those allowed.
        self.assertIn("You join tourney %d" % tid, text(self.cmd(p, "tourney join %d" % tid)))
        self.assertIn("sbp is paused", text(self.cmd(p, "tourney pause sbp %d" % tid)))
        self.assertIn("byevalue set to 1", text(self.cmd(director, "tourney set %d byevalue 1" % tid)))
        srv.stop()


if __name__ == "__main__":
    H.main()
