#!/usr/bin/env python3
"""A tournament player's account is deleted with a game still to finish:
adjourned (by `remplayer`, or by `chessd userdel` with no server running),
or being played (`chessd userdel` beside the running server).  The board
is lost by forfeit (+-/-+ in the pairings, the crosstable and the TRF, with
no game linked to it), the adjourned game ends as any adjourned game of a
deleted account does, the player is not paired again (a round robin's
remaining games against them are forfeits), the standings, tie-breaks and
TRF agree, and a new account under the same name inherits nothing."""
import os
import random
import re
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import chessd_harness as H  # noqa: E402
from games_harness import FAST, GT  # noqa: E402
from test_tourney import PASSWORD, TourneyTestCase, text  # noqa: E402

NEWPW = "newpw123"


def rows(path, sql, *args):
    con = sqlite3.connect(path)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


class DeletedEntrant(TourneyTestCase):

    def server(self, names):
        cfg = dict(FAST, tourney_forfeit_ms=600000)
        srv = self.new_server(config=cfg, tls=False)
        self.addCleanup(self.check_sanitizers, srv)
        srv.useradd("root", PASSWORD, admin=True)
        for n in names:
            srv.useradd(n, PASSWORD)
        return srv

    def entered(self, srv, names, line, before_start=None):
        root = self.login(srv, "root")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(root, line)
        for n in names:
            self.assertIn(b"You join tourney", self.cmd(clients[n], "tourney join %d" % tid))
        if before_start:
            self.cmd(clients[before_start[0]], before_start[1] % tid)
        self.cmd(root, "tourney start %d" % tid)
        return root, clients, tid

    def board_of(self, boards, name):
        return next(b for b in boards if name in (b["white"], b["black"]))

    def adjourn_by_leaving(self, srv, clients, b):
        """Both players of board b make two moves and drop their connections:
        the game is adjourned, and the board waits for them."""
        w, k = clients[b["white"]], clients[b["black"]]
        self.play_moves(w, k, ["e4", "e5"])
        w.close()
        k.close()
        srv.wait_log(re.compile(r"game #?\d+.*adjourned|adjourned when both", re.I))
        self.assertEqual(rows(srv.db_path, "SELECT status FROM games WHERE tourney_id IS NOT NULL "
                                           "AND status != 'finished'"), [("adjourned",)])

    def forfeit_of(self, b, gone):
        return "-+" if b["white"] == gone else "+-"

    def new_account(self, srv, name):
        g = self.guest_player(srv)
        self.assertIn(b"You are now registered as %s." % name.encode(),
                      self.cmd(g, "register %s %s" % (name, NEWPW)))
        g.close()
        c = self.connect(srv)
        c.login(name, NEWPW, timeout=GT)
        c.name = name
        self.cmd(c, "style 12")
        return c

    def check_deleted_game(self, srv, gone):
        """The adjourned game ended as a forfeit rating nobody; no board links to it."""
        self.assertEqual(rows(srv.db_path, "SELECT status, reason, termination FROM games "
                                           "WHERE tourney_id IS NOT NULL AND reason LIKE ?",
                              "%account was deleted"),
                         [("finished", "%s forfeits: the account was deleted" % gone,
                           "abandoned")])
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM games WHERE status = 'adjourned'"),
                         [(0,)])
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM tourney_pairings p JOIN games g "
                                           "ON g.id = p.game_id WHERE g.reason LIKE ?",
                              "%account was deleted"), [(0,)])

    def check_inherits_nothing(self, srv, tid, name, rnd):
        """The new account under the name is not the entrant: it has no game
        to resume, cannot act as the player and is never paired."""
        c = self.new_account(srv, name)
        self.assertIn(b"%s has no adjourned games." % name.encode(), self.cmd(c, "stored"))
        self.assertIn(b"You have no adjourned games.", self.cmd(c, "resume"))
        self.assertIn(b"You are not in tourney %d." % tid, self.cmd(c, "tourney bye %d %d" % (tid, rnd)))
        self.assertIn(b"You are not in tourney %d." % tid, self.cmd(c, "tourney leave %d" % tid))
        self.assertIn(b"Only the director", self.cmd(c, "tourney withdraw %s %d" % (name, tid)))
        self.assertIn(b"has already started", self.cmd(c, "tourney join %d" % tid))
        return c

    def finish(self, root, clients, tid, first, nrounds, gone, rng):
        for rnd in range(first, nrounds + 1):
            boards, _, _ = self.wait_round(root, tid, rnd)
            for b in boards:
                self.assertFalse(b["game"] and gone in (b["white"], b["black"]), b)
            self.play_round(clients, boards, rng)
        self.wait_state(root, tid, "finished")

    def test_swiss_remplayer_with_adjourned_game(self):
        names = ["swa", "swb", "swc", "swd"]
        srv = self.server(names)
        srv.start()
        gone = "swc"
        root, clients, tid = self.entered(srv, names, "Open swiss 3 5 0 unrated",
                                          before_start=(gone, "tourney bye %d 3"))
        boards, _, _ = self.wait_round(root, tid, 1)
        mine = self.board_of(boards, gone)
        other = next(b for b in boards if b is not mine)
        opp = mine["white"] if mine["black"] == gone else mine["black"]
        self.play_board(clients, other, "1-0")
        self.adjourn_by_leaving(srv, clients, mine)
        clients[opp] = self.login(srv, opp)
        self.assertIn(gone.encode(), self.cmd(clients[opp], "stored"))
        del clients[gone]
        line = next(l for l in text(self.cmd(root, "tourney trf %d" % tid)).splitlines()
                    if l.startswith("001") and gone in l)
        self.assertEqual(line[111:119], "0000 - H", line)
        out = self.cmd(root, "remplayer " + gone)
        self.assertIn(b"Account swc deleted.", out)
        # Round 1 is complete: the board is a forfeit, round 2 is paired without swc.
        boards, byes, unpaired = self.wait_round(root, tid, 2)
        self.assertIn(gone, unpaired)
        self.assertEqual([k for k, _, _ in byes], ["U"])
        self.assertEqual(len(boards), 1)
        _, r1, _, _ = self.pairings(root, tid, 1)
        self.assertEqual(self.board_of(r1, gone)["result"], self.forfeit_of(mine, gone))
        self.assertIsNone(self.board_of(r1, gone)["game"])
        self.check_deleted_game(srv, gone)
        self.assertIn(b"%s has no adjourned games." % opp.encode(), self.cmd(clients[opp], "stored"))
        # The report is what the database holds: a restart gives the same, and
        # the bye swc asked for in round 3 went with the account.
        trf = text(self.cmd(root, "tourney trf %d" % tid))
        line = next(l for l in trf.splitlines() if l.startswith("001") and gone in l)
        self.assertEqual(line[111:119].strip(), "", line)
        srv.stop()
        srv.start()
        root = self.login(srv, "root")
        self.assertEqual(text(self.cmd(root, "tourney trf %d" % tid)), trf)
        clients = {n: self.login(srv, n) for n in names if n != gone}
        self.wait_round(root, tid, 2)
        new = self.check_inherits_nothing(srv, tid, gone, 3)
        self.finish(root, clients, tid, 2, 3, gone, random.Random(5))
        self.assertNotIn(b"Creating", new.read_for(0.2))
        rounds = self.all_rounds(root, tid, 3)
        _, st = self.check_standings(root, tid, rounds, names)
        self.assertIn("swc", next(l for l in self.header(root, tid)["out"].splitlines()
                                 if "(withdrawn)" in l))
        players = self.check_trf(root, tid, rounds, st, 3)
        self.assertEqual(players[gone]["rounds"][0][2], "-")
        self.assertEqual(players[opp]["rounds"][0][2], "+")
        self.assertEqual(players[gone]["rounds"][1:], [(0, "-", "-")] * 2)
        cross = text(self.cmd(root, "tourney crosstable %d" % tid))
        self.assertRegex(cross, r"\+")
        # The forfeited game is not one of the tournament's games.
        pgn = text(self.cmd(root, "tourney pgn %d" % tid))
        self.assertNotIn("account was deleted", pgn)
        self.assertEqual(pgn.count('[Event "Open"]'), 3)
        srv.stop()

    def test_round_robin_userdel_offline_with_adjourned_game(self):
        names = ["rra", "rrb", "rrc", "rrd"]
        srv = self.server(names)
        srv.start()
        root, clients, tid = self.entered(srv, names, "Club rr 0 5 0 unrated")
        boards, _, _ = self.wait_round(root, tid, 1)
        gone = "rrb"
        mine = self.board_of(boards, gone)
        other = next(b for b in boards if b is not mine)
        self.play_board(clients, other, "1/2-1/2")
        self.play_moves(clients[mine["white"]], clients[mine["black"]], ["d4", "d5"])
        srv.stop()              # a shutdown adjourns the game being played
        self.assertEqual(rows(srv.db_path, "SELECT status FROM games WHERE status != 'finished'"),
                         [("adjourned",)])
        res = H.run_admin(srv.data_dir, "userdel", gone)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.check_deleted_game(srv, gone)
        self.assertEqual(rows(srv.db_path, "SELECT result, game_id FROM tourney_pairings WHERE "
                                           "round = 1 AND board = ?", mine["board"]),
                         [(self.forfeit_of(mine, gone), None)])
        srv.start()
        root = self.login(srv, "root")
        clients = {n: self.login(srv, n) for n in names if n != gone}
        self.check_inherits_nothing(srv, tid, gone, 2)
        rng = random.Random(9)
        for rnd in (2, 3):
            boards, _, _ = self.wait_round(root, tid, rnd)
            mine = self.board_of(boards, gone)
            self.assertEqual(mine["result"], self.forfeit_of(mine, gone))
            self.assertIsNone(mine["game"])
            self.play_round(clients, boards, rng)
        self.wait_state(root, tid, "finished")
        rounds = self.all_rounds(root, tid, 3)
        _, st = self.check_standings(root, tid, rounds, names, rr=True)
        players = self.check_trf(root, tid, rounds, st, 3)
        self.assertEqual([r[2] for r in players[gone]["rounds"]], ["-"] * 3)
        self.assertEqual(next(r for r in st if r["name"] == gone)["pts"], 0)
        srv.stop()

    def test_round_robin_userdel_beside_the_server_during_a_game(self):
        names = ["lva", "lvb", "lvc", "lvd"]
        srv = self.server(names)
        srv.start()
        root, clients, tid = self.entered(srv, names, "Live rr 0 5 0 unrated")
        boards, _, _ = self.wait_round(root, tid, 1)
        gone = "lvc"
        mine = self.board_of(boards, gone)
        opp = mine["white"] if mine["black"] == gone else mine["black"]
        self.play_moves(clients[mine["white"]], clients[mine["black"]], ["c4", "c5", "Nc3"])
        res = H.run_admin(srv.data_dir, "userdel", gone)
        self.assertEqual(res.returncode, 0, res.stderr)
        clients[opp].expect(b"%s forfeits: the account was deleted" % gone.encode(), GT)
        clients[gone].expect_closed(GT)
        del clients[gone]
        _, r1, _, _ = self.pairings(root, tid, 1)
        self.assertEqual(self.board_of(r1, gone)["result"], self.forfeit_of(mine, gone))
        self.assertEqual(rows(srv.db_path, "SELECT result, game_id FROM tourney_pairings WHERE "
                                           "round = 1 AND board = ?", mine["board"]),
                         [(self.forfeit_of(mine, gone), None)])
        other = next(b for b in r1 if b["board"] != mine["board"])
        self.play_board(clients, other, "0-1")
        self.check_inherits_nothing(srv, tid, gone, 3)
        rng = random.Random(3)
        for rnd in (2, 3):
            boards, _, _ = self.wait_round(root, tid, rnd)
            self.assertEqual(self.board_of(boards, gone)["result"],
                             self.forfeit_of(self.board_of(boards, gone), gone))
            self.play_round(clients, boards, rng)
        self.wait_state(root, tid, "finished")
        rounds = self.all_rounds(root, tid, 3)
        _, st = self.check_standings(root, tid, rounds, names, rr=True)
        players = self.check_trf(root, tid, rounds, st, 3)
        self.assertEqual([r[2] for r in players[gone]["rounds"]], ["-"] * 3)
        srv.stop()

    def test_remplayer_before_move_two(self):
        """A game the deletion aborts (one move made) is no row, and its
        board is a forfeit all the same, not replayed."""
        names = ["mva", "mvb", "mvc", "mvd"]
        srv = self.server(names)
        srv.start()
        root, clients, tid = self.entered(srv, names, "One swiss 1 5 0 unrated")
        boards, _, _ = self.wait_round(root, tid, 1)
        gone = "mvd"
        mine = self.board_of(boards, gone)
        self.move(clients[mine["white"]], clients[mine["black"]], "e4")
        self.assertIn(b"Account mvd deleted.", self.cmd(root, "remplayer " + gone))
        opp = mine["white"] if mine["black"] == gone else mine["black"]
        clients[opp].expect(b"Game aborted: mvd's account was deleted", GT)
        other = next(b for b in boards if b is not mine)
        self.play_board(clients, other, "1-0")
        self.wait_state(root, tid, "finished")
        _, r1, _, _ = self.pairings(root, tid, 1)
        self.assertEqual(self.board_of(r1, gone)["result"], self.forfeit_of(mine, gone))
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM games"), [(1,)])
        rounds = self.all_rounds(root, tid, 1)
        _, st = self.check_standings(root, tid, rounds, names)
        self.check_trf(root, tid, rounds, st, 1)
        srv.stop()


if __name__ == "__main__":
    H.main()
