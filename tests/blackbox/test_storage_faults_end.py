"""Storage failures at a game's end and for settings: persist, then reply.

The fault library of fault_shim fails SQLite's writes while its flag file
exists; "EIO 7" lets exactly the first seven writes through.

  - resigning, accepting a draw, a fallen flag and a mating move whose
    ending the database refuses are not announced: the players read one
    line, the game goes on, its row stays active and the ratings stay;
  - a mating move and the end it makes are stored together: there is no
    number of writes that lets the move through while the end is lost;
  - resuming an adjourned game, an administrator's ruling on it and a news
    item are refused, not announced, when they cannot be stored;
  - set, +channel and alias are refused when they cannot be stored, keep
    the old value, and the old value is what a restart brings back.
"""
import re
import time

from fault_shim import ShimMixin
from games_harness import FAST, GT, GamesTestCase, main
from test_tourney import PASSWORD, TourneyTestCase

NOT_SAVED_END = re.compile(rb"The server could not save the end of game (\d+) \(([^)]*)\); "
                           rb"the game goes on\.\n\r")
NOT_SAVED_MOVE = re.compile(rb"The server could not save your move \(([^)]*)\); it was not "
                            rb"played\.  Please try again\.\n\r")
END_LINE = re.compile(rb"\{Game \d+ \(\w+ vs\. \w+\) [^}\n]*\} (1-0|0-1|1/2-1/2|\*)")


class EndFaultTest(ShimMixin, GamesTestCase):

    def server(self):
        cfg = dict(FAST)
        # No checkpoints: every write goes to the log, none to the database file.
        cfg["wal_checkpoint_pages"] = 1000000
        srv = self.new_server(config=cfg, tls=False)
        srv.useradd("alice", "apass1")
        srv.useradd("bob", "bpass1")
        self.start_faulty(srv)
        return srv

    def players(self, srv):
        a = self.user_player(srv, "alice", "apass1")
        b = self.user_player(srv, "bob", "bpass1")
        a.name, b.name = "alice", "bob"
        return a, b

    def game_row(self, srv):
        return self.query(srv, "SELECT id, status, result FROM games ORDER BY id DESC LIMIT 1")[0]

    def ratings(self, srv):
        return self.query(srv, "SELECT user_id, category, rating, rd, wins, losses, draws "
                               "FROM ratings ORDER BY user_id, category")

    def refused_end(self, a, b, number, reason):
        """Both players read that the end was not stored; nobody saw an end line."""
        for c in (a, b):
            c.expect(NOT_SAVED_END, GT)
            self.assertEqual(int(c.match.group(1)), number)
            self.assertEqual(c.match.group(2).decode(), reason)
        for c in (a, b):
            out = self.cmd(c, "date")
            self.assertIsNone(END_LINE.search(out), out)

    def test_refused_endings_leave_the_game_going(self):
        srv = self.server()
        a, b = self.players(srv)
        number, _ = self.start_match(a, b, "5 0 rated")
        self.play_moves(a, b, ["f2f3", "e7e5", "g2g4"])
        game_id, status, _ = self.game_row(srv)
        self.assertEqual(status, "active")
        before = self.ratings(srv)

        self.fail_writes("EIO")
        a.send_line("resign")
        self.refused_end(a, b, number, "alice resigns")
        self.assertIn(b"draw", self.cmd(b, "draw").lower())
        a.expect(b"bob offers you a draw.", GT)
        a.send_line("draw")
        self.refused_end(a, b, number, "Game drawn by mutual agreement")
        # The mate itself is refused with the move: board and end together or neither.
        b.send_line("d8h4")
        b.expect(NOT_SAVED_MOVE, GT)
        for c in (a, b):
            out = self.cmd(c, "date")
            self.assertNotIn(b"<12>", out)
            self.assertIsNone(END_LINE.search(out), out)
        self.assertTrue(srv.running())
        self.assertEqual(self.game_row(srv), (game_id, "active", "*"))
        self.assertEqual(self.ratings(srv), before)
        # The game goes on: black still has the move, the clocks still run
        # from what was left (ms clocks, 5 minutes each, nothing reset to 0).
        a.send_line("refresh")
        d = self.expect12(a)
        self.assertEqual((d["side"], d["game"], d["ticking"]), ("B", number, 1), d["raw"])
        self.assertTrue(0 < d["wclock"] <= 300000 and 0 < d["bclock"] <= 300000, d["raw"])

        # However many writes go through, the mating move is never shown
        # without its end being stored, nor the end without the move.
        for allowed in range(0, 200):
            self.fail_writes("EIO %d" % allowed)
            b.send_line("d8h4")
            b.expect(re.compile(rb"<12> [^\n]*\n\r|" + NOT_SAVED_MOVE.pattern), GT)
            if not b.match.group(0).startswith(b"<12>"):
                self.assertEqual(self.game_row(srv), (game_id, "active", "*"))
                continue
            for c in (a, b):
                c.expect(END_LINE, GT)
                self.assertEqual(c.match.group(1), b"0-1")
            # Announced, so stored: as read from the disk by another process.
            self.assertEqual(self.game_row(srv), (game_id, "finished", "0-1"), allowed)
            self.assertEqual(self.query(srv, "SELECT count(*) FROM moves WHERE game_id = ?",
                                        game_id)[0][0], 4)
            break
        else:
            self.fail("the mating move was never played")
        self.allow_writes()
        after = self.ratings(srv)
        self.assertNotEqual(after, before, "the stored mate changed no rating")

    def test_fallen_flag_waits_for_the_disk(self):
        srv = self.server()
        a, b = self.players(srv)
        # Three seconds each: white's flag falls while the disk refuses.
        number, _ = self.start_match(a, b, "0.05 0 rated")
        self.play_moves(a, b, ["e2e4", "e7e5"])
        before = self.ratings(srv)
        game_id, _, _ = self.game_row(srv)
        self.fail_writes("EIO")
        self.refused_end(a, b, number, "alice forfeits on time")
        # The flag is tried again each second, without telling the players again.
        waited = a.read_for(2.5)
        self.assertNotIn(b"could not save", waited)
        self.assertIsNone(END_LINE.search(waited), waited)
        self.assertEqual(self.game_row(srv), (game_id, "active", "*"))
        self.assertEqual(self.ratings(srv), before)
        self.assertTrue(srv.running())
        # Once the disk takes writes again, the flag falls for real.
        self.allow_writes()
        for c in (a, b):
            c.expect(END_LINE, GT)
            self.assertEqual(c.match.group(1), b"0-1")
        self.assertEqual(self.game_row(srv), (game_id, "finished", "0-1"))
        self.assertNotEqual(self.ratings(srv), before)

    def test_refused_settings_keep_their_old_values(self):
        srv = self.server()
        a = self.connect(srv)
        a.login("alice", "apass1", timeout=GT)
        self.assertIn(b"Width set to 100.", self.cmd(a, "set width 100"))
        self.assertIn(b"added", self.cmd(a, "+channel 5"))
        self.assertIn(b"set", self.cmd(a, "alias hi tell 5 hello"))

        self.fail_writes("EIO")
        out = self.cmd(a, "set width 120")
        self.assertIn(b"The server could not save width; it keeps its old value.", out)
        self.assertNotIn(b"Width set", out)
        self.assertIn(b"width=100", self.cmd(a, "variables"))
        out = self.cmd(a, "+channel 6")
        self.assertIn(b"The server could not save your channel list; [6] was not added.", out)
        out = self.cmd(a, "-channel 5")
        self.assertIn(b"[5] was not removed.", out)
        out = self.cmd(a, "alias hi tell 5 bye")
        self.assertIn(b'The server could not save the alias "hi"; it was not changed.', out)
        self.assertIn(b"hi -> tell 5 hello", self.cmd(a, "alias hi"))
        self.assertTrue(srv.running())

        self.allow_writes()
        srv.kill()
        srv.start()
        a = self.connect(srv)
        a.login("alice", "apass1", timeout=GT)
        self.assertIn(b"width=100", self.cmd(a, "variables"))
        out = self.cmd(a, "=channel")
        self.assertIn(b"5", out)
        self.assertNotIn(b"6", out.split(b"channels:")[-1])
        self.assertIn(b"hi -> tell 5 hello", self.cmd(a, "alias hi"))

    def test_refused_ruling_and_news(self):
        srv = self.server()
        srv.useradd("judge", "jpass1", admin=True)
        a, b = self.players(srv)
        judge = self.connect(srv)
        judge.login("judge", "jpass1", timeout=GT)
        self.start_match(a, b, "5 0 rated")
        self.play_moves(a, b, ["e2e4", "e7e5"])
        a.send_line("adjourn")
        b.expect(b"would like to adjourn", GT)
        b.send_line("adjourn")
        for c in (a, b):
            c.expect(END_LINE, GT)
        game_id, status, _ = self.game_row(srv)
        self.assertEqual(status, "adjourned")
        before = self.ratings(srv)

        self.fail_writes("EIO")
        # A resumption that cannot be stored does not start.
        a.send_line("resume bob")
        b.expect(b"would like to resume", GT)
        out = self.cmd(b, "resume alice")
        self.assertIn(b"The server could not save the game; it was not resumed.", out)
        self.assertNotIn(b"Creating:", out)
        self.assertNotIn(b"Creating:", self.cmd(a, "date"))
        self.assertEqual(self.game_row(srv), (game_id, "adjourned", "*"))
        out = self.cmd(judge, "adjudicate %d 1-0" % game_id)
        self.assertIn(b"The ruling could not be saved.", out)
        for c in (a, b):
            self.assertNotIn(b"adjudicated", self.cmd(c, "date"))
        out = self.cmd(judge, "addnews Club night on Friday")
        self.assertIn(b"Could not save the news item.", out)
        self.assertTrue(srv.running())
        self.assertEqual(self.game_row(srv), (game_id, "adjourned", "*"))
        self.assertEqual(self.ratings(srv), before)

        self.allow_writes()
        self.assertNotIn(b"Club night", self.cmd(judge, "news"))
        self.assertIn(b"1-0", self.cmd(judge, "adjudicate %d 1-0" % game_id))
        self.assertEqual(self.game_row(srv), (game_id, "finished", "1-0"))
        self.assertNotEqual(self.ratings(srv), before)


class TourneyEndFaultTest(ShimMixin, TourneyTestCase):

    def test_board_result_follows_the_stored_game(self):
        cfg = dict(FAST)
        cfg["wal_checkpoint_pages"] = 1000000
        srv = self.new_server(config=cfg, tls=False)
        for n in ("ann", "ben", "cyd", "director"):
            srv.useradd(n, PASSWORD)
        self.start_faulty(srv)
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in ("ann", "ben", "cyd")}
        tid = self.create(director, "Club rr 0 5 0 unrated")
        for c in clients.values():
            self.assertIn(b"You join tourney", self.cmd(c, "tourney join %d" % tid))
        self.assertIn(b"starts:", self.cmd(director, "tourney start %d" % tid))
        boards, _, _ = self.wait_round(director, tid, 1)
        board = boards[0]
        # The fewest writes that store black's resignation: the end commits,
        # and the tournament's row, in the pass's commit after it, fails.
        for allowed in range(0, 200):
            self.fail_writes("EIO %d" % allowed)
            out = self.cmd(clients[board["black"]], "resign")
            if NOT_SAVED_END.search(out):
                continue
            self.assertIn(b"} 1-0", out)
            break
        else:
            self.fail("the resignation was never stored")
        rows = self.query(srv, "SELECT g.status, g.result, p.result FROM games g, tourney_pairings p "
                               "WHERE p.tourney_id = ? AND p.round = 1 AND g.id = p.game_id", tid)
        self.assertEqual(rows, [("finished", "1-0", "*")],
                         "announced, the game's end must be stored (and, for this test, the "
                         "board's row not yet)")
        srv.kill()
        self.allow_writes()
        srv.start()
        director = self.login(srv, "director")
        # Round 1 is over: round 2 is paired (its players are away, so no game starts).
        deadline = time.monotonic() + GT
        while self.pairings(director, tid)[0] != 2:
            self.assertLess(time.monotonic(), deadline, "round 2 was never paired")
            time.sleep(0.1)
        _, boards, _, _ = self.pairings(director, tid, 1)
        self.assertEqual([b["result"] for b in boards], ["1-0"], boards)
        self.assertEqual(self.query(srv, "SELECT count(*) FROM games")[0][0], 1,
                         "the settled board's game was played again")


if __name__ == "__main__":
    main()
