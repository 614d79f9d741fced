#!/usr/bin/env python3
"""A tournament board whose game is adjourned (stored) is settled without
the game being played on: its player withdraws, its absent player forfeits,
or the director sets the result.  The stored game belongs to the board: it
ends in the same change with the board's result (as an adjudication, rating
nobody), so neither player can resume it, `stored` no longer lists it, and
`history`, the pairings, the TRF and the crosstable agree, also after a
restart.  A result with no game result (a double forfeit) drops the game,
as an adjourned game that cannot be played is dropped elsewhere."""
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import chessd_harness as H  # noqa: E402
from games_harness import FAST, GT  # noqa: E402
from test_tourney import PASSWORD, TourneyTestCase, text  # noqa: E402


class StoredBoardSettled(TourneyTestCase):

    def server(self, names, forfeit_ms=600000):
        srv = self.new_server(config=dict(FAST, tourney_forfeit_ms=forfeit_ms), tls=False)
        self.addCleanup(self.check_sanitizers, srv)
        srv.useradd("root", PASSWORD, admin=True)
        for n in names:
            srv.useradd(n, PASSWORD)
        srv.start()
        return srv

    def adjourned_board(self, srv, names, both=False):
        """A rated swiss of one round and four players: board 1's game is
        adjourned by both players leaving after two moves; board 2's too
        (both), else it is played.  Returns (root, tid, board 1, board 2)."""
        root = self.login(srv, "root")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(root, "Stored swiss 1 5 0 rated")
        for n in names:
            self.assertIn(b"You join tourney", self.cmd(clients[n], "tourney join %d" % tid))
        self.cmd(root, "tourney start %d" % tid)
        boards, _, _ = self.wait_round(root, tid, 1)
        if not both:
            self.play_board(clients, boards[1], "1-0")
        for b in boards[:2 if both else 1]:
            # The games row (its id) played on the board, not the live game number.
            b["id"] = H.db_rows(srv.db_path, "SELECT game_id FROM tourney_pairings WHERE "
                                "tourney_id = ? AND board = ?", tid, b["board"])[0][0]
            self.play_moves(clients[b["white"]], clients[b["black"]], ["e4", "e5"])
            clients[b["white"]].close()
            clients[b["black"]].close()
            srv.wait_log(re.compile(r"game %d \(#\d+\) adjourned" % b["game"]))
        self.assertEqual(H.db_rows(srv.db_path, "SELECT id FROM games WHERE status = "
                                                "'adjourned' ORDER BY id"),
                         sorted((b["id"],) for b in boards[:2 if both else 1]))
        return root, tid, boards[0], boards[1]

    def check_ended(self, srv, root, tid, b, board_result, game_result, reason, linked):
        """Board and game agree: the game is over with the board's result."""
        _, r1, _, _ = self.pairings(root, tid, 1)
        self.assertEqual(r1[0]["board"], 1)
        self.assertEqual(r1[0]["result"], board_result)
        self.assertIsNone(r1[0]["game"])     # no game is being played on it
        self.assertEqual(H.db_rows(srv.db_path, "SELECT status, result, reason, termination "
                                                "FROM games WHERE id = ?", b["id"]),
                         [("finished", game_result, reason, "adjudication")])
        self.assertEqual(H.db_rows(srv.db_path, "SELECT game_id FROM tourney_pairings "
                                                "WHERE tourney_id = ? AND board = 1", tid),
                         [(b["id"] if linked else None,)])
        # Nobody can resume it: stored lists nothing, resume and match find nothing.
        w, k = self.login(srv, b["white"]), self.login(srv, b["black"])
        for c, other in ((w, b["black"]), (k, b["white"])):
            self.assertIn(b"%s has no adjourned games." % c.name.encode(),
                          self.cmd(c, "stored"))
            self.assertIn(b"You have no adjourned games.", self.cmd(c, "resume"))
        self.cmd(w, "match %s" % b["black"])
        self.assertNotIn(b"Creating", k.read_for(0.3))
        self.assertEqual(H.db_rows(srv.db_path, "SELECT count(*) FROM games WHERE status != "
                                                "'finished'"), [(0,)])
        # history shows the ended game as an adjudication.
        hist = text(self.cmd(w, "history"))
        self.assertRegex(hist, r"Adj")
        # Ratings: nobody's moved (an adjudication by the tournament rates nobody).
        self.assertEqual(H.db_rows(srv.db_path, "SELECT count(*) FROM ratings r JOIN users u "
                                                "ON u.id = r.user_id WHERE u.name IN (?, ?) "
                                                "AND wins + losses + draws > 0",
                                   b["white"], b["black"]), [(0,)])
        w.close()
        k.close()
        return text(self.cmd(root, "tourney trf %d" % tid)), \
            text(self.cmd(root, "tourney crosstable %d" % tid))

    def check_trf_cross(self, trf, cross, b, white_letter, black_letter):
        for name, letter in ((b["white"], white_letter), (b["black"], black_letter)):
            line = next(l for l in trf.splitlines() if l.startswith("001") and name in l)
            self.assertEqual(line[91:100].split()[-1], letter, line)
            self.assertIn(name, cross)

    def test_withdrawal_ends_the_stored_game_and_survives_a_restart(self):
        names = ["wda", "wdb", "wdc", "wdd"]
        srv = self.server(names)
        root, tid, b, _ = self.adjourned_board(srv, names)
        gone, stays = b["white"], b["black"]
        out = self.cmd(root, "tourney withdraw %s %d" % (gone, tid))
        self.assertIn(b"is withdrawn from tourney", out)
        self.wait_state(root, tid, "finished")
        trf, cross = self.check_ended(srv, root, tid, b, "-+", "0-1",
                                      "%s wins by adjudication" % stays, linked=False)
        self.check_trf_cross(trf, cross, b, "-", "+")
        srv.stop()
        srv.start()
        root = self.login(srv, "root")
        self.assertEqual(text(self.cmd(root, "tourney trf %d" % tid)), trf)
        self.assertEqual(text(self.cmd(root, "tourney crosstable %d" % tid)), cross)
        self.check_ended(srv, root, tid, b, "-+", "0-1",
                         "%s wins by adjudication" % stays, linked=False)
        srv.stop()

    def test_absence_forfeits_end_the_stored_games(self):
        """Board 1: one player comes back, the absent one forfeits and the
        game is won by adjudication.  Board 2: neither comes back; with no
        game result the game is dropped, as an adjourned game nobody can play."""
        names = ["aba", "abb", "abc", "abd"]
        srv = self.server(names, forfeit_ms=2500)
        root, tid, b, b2 = self.adjourned_board(srv, names, both=True)
        here = self.login(srv, b["black"])
        here.expect(b"forfeit: absent", GT)
        here.close()
        self.wait_state(root, tid, "finished")
        _, r1, _, _ = self.pairings(root, tid, 1)
        self.assertEqual((r1[1]["result"], r1[1]["game"]), ("--", None))
        self.assertEqual(H.db_rows(srv.db_path, "SELECT count(*) FROM games WHERE id = ?",
                                   b2["id"]), [(0,)])
        self.assertEqual(H.db_rows(srv.db_path, "SELECT game_id FROM tourney_pairings "
                                                "WHERE tourney_id = ? AND board = 2", tid),
                         [(None,)])
        trf, cross = self.check_ended(srv, root, tid, b, "-+", "0-1",
                                      "%s wins by adjudication" % b["black"], linked=False)
        self.check_trf_cross(trf, cross, b, "-", "+")
        self.check_trf_cross(trf, cross, b2, "-", "-")
        c = self.login(srv, b2["white"])
        self.assertIn(b"You have no adjourned games.", self.cmd(c, "resume"))
        srv.stop()

    def test_director_result_ends_the_stored_game(self):
        names = ["dra", "drb", "drc", "drd"]
        srv = self.server(names)
        root, tid, b, _ = self.adjourned_board(srv, names)
        out = self.cmd(root, "tourney result %d 1 1 1/2-1/2" % tid)
        self.assertIn(b"Round 1 board 1: 1/2-1/2.", out)
        self.wait_state(root, tid, "finished")
        trf, cross = self.check_ended(srv, root, tid, b, "1/2-1/2", "1/2-1/2",
                                      "Game drawn by adjudication", linked=True)
        self.check_trf_cross(trf, cross, b, "=", "=")
        srv.stop()

    def test_resumed_by_match_is_the_boards_game(self):
        """Resumed with match while the board waits, the game is the board's:
        its absence deadline passing during the game settles nothing, and
        the game's result is the board's."""
        names = ["rsa", "rsb", "rsc", "rsd"]
        srv = self.server(names, forfeit_ms=4000)
        root, tid, b, _ = self.adjourned_board(srv, names)
        adjourned_at = time.monotonic()
        # Examining, the white player is not free: the tournament cannot start
        # the board; one write leaves the board and asks to resume.
        w = self.login(srv, b["white"])
        self.cmd(w, "examine")
        k = self.login(srv, b["black"])
        w.send_raw(b"unexamine\nmatch %s\n" % b["black"].encode())
        k.expect(b"would like to resume your adjourned game", GT)
        k.send_line("accept")
        k.expect(b"Creating", GT)
        self.assertEqual(H.db_rows(srv.db_path, "SELECT status FROM games WHERE id = ?",
                                   b["id"]), [("active",)])
        time.sleep(max(0.0, adjourned_at + 4.5 - time.monotonic()))   # the deadline passes
        self.assertIn(b"} 1-0", self.cmd(k, "resign"))
        self.wait_state(root, tid, "finished")
        _, r1, _, _ = self.pairings(root, tid, 1)
        self.assertEqual(r1[0]["result"], "1-0")
        self.assertEqual(H.db_rows(srv.db_path, "SELECT p.result, g.status, g.result FROM "
                                                "tourney_pairings p JOIN games g ON g.id = "
                                                "p.game_id WHERE p.tourney_id = ? AND p.board = 1",
                                   tid), [("1-0", "finished", "1-0")])
        srv.stop()


if __name__ == "__main__":
    H.main()
