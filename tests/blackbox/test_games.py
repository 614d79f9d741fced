"""Live games, black box: creation lines, style 12, every ending, offers,
observers, the game record (moves, pgn), and adjourn/resume.

Each test starts its own chessd on a fresh data directory (killed at
teardown).  Clocks are short where a test waits for them; everything else
uses generous timeouts so that it passes under ASan on a loaded machine.
"""
import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest

from games_harness import GT, LS, GamesTestCase, main, parse12, rules

START_RANKS = ["rnbqkbnr", "pppppppp", "--------", "--------", "--------", "--------",
               "PPPPPPPP", "RNBQKBNR"]

SEEK_CREATE_RE = re.compile(
    LS + rb"(Creating: (\w+) \(\+\+\+\+\) (\w+) \(\+\+\+\+\) unrated blitz 5 0)\n\r"
    rb"(\{Game (\d+) \((\w+) vs\. (\w+)\) Creating unrated blitz match\.\})\n\r"
    rb"\n\r"
    rb"<12> ([^\n\r]*)\n\r")


def pgn_extract_path():
    for p in (shutil.which("pgn-extract"), "/usr/bin/pgn-extract", "/usr/games/pgn-extract"):
        if p and os.access(p, os.X_OK):
            return p
    return None


class CreationTest(GamesTestCase):

    def test_seek_play_creation_lines(self):
        srv = self.game_server()
        a = self.guest_player(srv)
        b = self.guest_player(srv, ms=False)
        out = self.cmd(a, "seek 5 0")
        m = re.search(rb"Your seek has been posted with index (\d+)\.", out)
        self.assertTrue(m, out)
        idx = int(m.group(1))
        out = self.cmd(b, "sought")
        self.assertRegex(out, rb"\s*%d \+\+\+\+ %s\s+5   0 unrated blitz +0-9999" % (
            idx, a.name.encode()))
        self.assertIn(b"1 ad displayed.", out)
        b.send_line("play %d" % idx)
        boards = {}
        for c in (a, b):
            c.expect(SEEK_CREATE_RE, GT)
            m = c.match
            w, bl = m.group(2).decode(), m.group(3).decode()
            self.assertEqual({w, bl}, {a.name, b.name})
            self.assertEqual(m.group(1).decode(),
                             "Creating: %s (++++) %s (++++) unrated blitz 5 0" % (w, bl))
            self.assertEqual((m.group(6).decode(), m.group(7).decode()), (w, bl))
            boards[c.name] = (parse12(m.group(8)), w, bl, int(m.group(5)))
        da, w, bl, n = boards[a.name]
        db, _, _, n2 = boards[b.name]
        self.assertEqual(n, n2)
        # The first board, exactly; clocks in ms for a (iset ms 1), seconds for b.
        for d, c, ms in ((da, a, True), (db, b, False)):
            rel = 1 if c.name == w else -1
            clk = "300000" if ms else "300"
            taken = "(0:00.000)" if ms else "(0:00)"
            self.assertEqual(
                d["raw"],
                "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR "
                "W -1 1 1 1 1 0 %d %s %s %d 5 0 39 39 %s %s 1 none %s none 0 1 0"
                % (n, w, bl, rel, clk, clk, taken))
        # The seek is gone once the game started.
        self.assertIn(b"0 ads displayed.", self.cmd(b, "sought"))

    def test_match_accept_issuing_challenge_pending(self):
        srv = self.game_server()
        a = self.guest_player(srv)
        b = self.guest_player(srv)
        out = self.cmd(a, "match %s 5 0 white" % b.name)
        issuing = "Issuing: %s (++++) [white] %s (++++) unrated blitz 5 0." % (a.name, b.name)
        self.assertIn(issuing.encode() + b"\n\r", out)
        self.expect_line(b, re.escape("Challenge: %s (++++) [white] %s (++++) unrated blitz 5 0."
                                      % (a.name, b.name)))
        self.expect_line(b, re.escape('You can "accept" or "decline", or propose different parameters.'))
        out = self.cmd(a, "pending")
        self.assertIn((" 1: You are offering %s a challenge: %s (++++) [white] %s (++++) unrated "
                       "blitz 5 0." % (b.name, a.name, b.name)).encode(), out)
        self.assertIn(b"There are no offers pending FROM other players.", out)
        out = self.cmd(b, "pending")
        self.assertIn(b"There are no offers pending TO other players.", out)
        self.assertIn((" 1: %s is offering a challenge: %s (++++) [white] %s (++++) unrated "
                       "blitz 5 0." % (a.name, a.name, b.name)).encode(), out)
        b.send_line("accept")
        self.expect_line(a, re.escape("%s accepts your challenge." % b.name))
        for c in (a, b):
            rel = 1 if c is a else -1
            self.expect_line(c, re.escape("Creating: %s (++++) %s (++++) unrated blitz 5 0"
                                          % (a.name, b.name)))
            m = self.expect_line(c, r"\{Game (\d+) \(%s vs\. %s\) Creating unrated blitz match\.\}"
                                 % (a.name, b.name))
            c.expect(b"\n\r<12> ", GT)       # a blank line, then the board
            c.expect(re.compile(rb"([^\n\r]*)\n\r"), GT)
            d = parse12(c.match.group(1))
            self.assertEqual(d["ranks"], START_RANKS)
            self.assertEqual((d["white"], d["black"], d["relation"]), (a.name, b.name, rel))
        self.assertIn(b"There are no offers pending", self.cmd(a, "pending"))

    def test_decline_withdraw(self):
        srv = self.game_server()
        a = self.guest_player(srv)
        b = self.guest_player(srv)
        self.cmd(a, "match %s 2 12" % b.name)
        b.expect(b"Challenge: %s (++++) %s (++++) unrated blitz 2 12." % (
            a.name.encode(), b.name.encode()), GT)
        out = self.cmd(b, "decline")
        self.assertIn(("You decline the match offer from %s." % a.name).encode(), out)
        self.expect_line(a, re.escape("%s declines the match offer." % b.name))
        out = self.cmd(b, "pending")
        self.assertIn(b"There are no offers pending FROM other players.", out)
        # withdraw
        self.cmd(a, "match %s 2 12" % b.name)
        b.expect(b"Challenge: ", GT)
        out = self.cmd(a, "withdraw")
        self.assertIn(("You withdraw the match offer to %s." % b.name).encode(), out)
        self.expect_line(b, re.escape("%s withdraws the match offer." % a.name))
        self.assertIn(b"You have no offers to accept.", self.cmd(b, "accept"))
        self.assertIn(b"There are no offers pending TO other players.", self.cmd(a, "pending"))


class Style12Test(GamesTestCase):

    def test_fields_after_moves(self):
        srv = self.game_server()
        w = self.guest_player(srv)            # ms clocks
        b = self.guest_player(srv, ms=False)  # seconds
        o = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.assertIn(b"You are now observing game %d." % n, self.cmd(o, "observe %d" % n))
        time.sleep(0.25)      # so that the time taken is visibly above zero
        w.send_line("e4")
        dw = self.expect12(w)
        db = self.expect12(b)
        do = self.expect12(o)
        after_e4 = ["rnbqkbnr", "pppppppp", "--------", "--------", "----P---", "--------",
                    "PPPP-PPP", "RNBQKBNR"]
        for d in (dw, db, do):
            self.assertEqual(d["ranks"], after_e4)
            self.assertEqual((d["side"], d["dpp"], d["wk"], d["wq"], d["bk"], d["bq"]),
                             ("B", 4, 1, 1, 1, 1))
            self.assertEqual((d["halfmoves"], d["game"], d["white"], d["black"]),
                             (0, n, w.name, b.name))
            self.assertEqual((d["initial"], d["increment"], d["wmat"], d["bmat"]), (5, 0, 39, 39))
            self.assertEqual((d["moveno"], d["verbose"], d["san"], d["flip"], d["ticking"]),
                             (1, "P/e2-e4", "e4", 0, 1))
        self.assertEqual((dw["relation"], db["relation"], do["relation"]), (-1, 1, 0))
        # ms viewers: clocks in ms and the time taken with a dot; b: seconds.
        m = re.fullmatch(r"\(0:00\.(\d{3})\)", dw["taken"])
        self.assertTrue(m, dw["taken"])
        used = int(m.group(1))
        self.assertGreaterEqual(used, 200)
        self.assertEqual(dw["wclock"], 300000 - used)
        self.assertEqual(do["wclock"], 300000 - used)
        # Black's clock runs from the moment the board was sent.
        self.assertLessEqual(300000 - dw["bclock"], 2000)
        self.assertEqual(db["taken"], "(0:00)")
        self.assertEqual(db["wclock"], (300000 - used) // 1000)
        self.assertIn(db["bclock"], (299, 300))
        # Black's reply: a knight move (no double push), the move number goes up.
        d = self.move(b, w, "Nc6", [o], san="Nc6")
        self.assertEqual((d["side"], d["dpp"], d["verbose"], d["moveno"], d["halfmoves"]),
                         ("W", -1, "N/b8-c6", 2, 1))
        self.assertEqual(d["taken"], "(0:00)")      # b has no ms
        d = self.move(w, b, "Nf3", [o], san="Nf3")
        self.assertEqual((d["verbose"], d["halfmoves"]), ("N/g1-f3", 2))
        d = self.move(b, w, "e5", [o])
        self.assertEqual((d["dpp"], d["halfmoves"], d["verbose"]), (4, 0, "P/e7-e5"))
        self.play_moves(w, b, ["Bc4", "Bc5"], [o])
        d = self.move(w, b, "O-O", [o], san="O-O")
        self.assertEqual((d["verbose"], d["wk"], d["wq"], d["bk"], d["bq"]), ("o-o", 0, 0, 1, 1))
        self.assertEqual(d["ranks"][7], "RNBQ-RK-")
        d = self.move(b, w, "Rb8", [o])
        self.assertEqual((d["wk"], d["wq"], d["bk"], d["bq"]), (0, 0, 1, 0))
        d = self.move(w, b, "Bxf7+", [o], san="Bxf7+")
        self.assertEqual((d["verbose"], d["bmat"], d["halfmoves"]), ("B/c4-f7", 38, 0))
        d = self.move(b, w, "Kxf7", [o], san="Kxf7")
        self.assertEqual((d["verbose"], d["wmat"], d["bk"], d["bq"]), ("K/e8-f7", 36, 0, 0))
        # refresh shows the same board again with the viewer's relation.
        w.send_line("refresh")
        d = self.expect12(w)
        self.assertEqual((d["relation"], d["san"]), (1, "Kxf7"))

    def test_promotion_and_check(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        self.start_match(w, b, "5 0")
        self.play_moves(w, b, ["h4", "g5", "hxg5", "h6", "gxh6", "Bg7", "hxg7", "Nf6"])
        d = self.move(w, b, "g7h8=Q", san="gxh8=Q+")
        self.assertEqual(d["verbose"], "P/g7-h8=Q")
        self.assertEqual(d["ranks"][0], "rnbqk--Q")
        self.assertEqual((d["wmat"], d["bmat"]), (39 - 1 + 9, 39 - 1 - 3 - 5 - 1))
        d = self.move(b, w, "Ng8", san="Ng8")
        d = self.move(w, b, "Qxg8", san="Qxg8#")
        self.assertEqual(d["verbose"], "Q/h8-g8")
        self.assertEqual(self.end_line(b)[3:], ("%s checkmated" % b.name, "1-0"))

    def test_checkmate_san_and_end(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        o = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.cmd(o, "observe %d" % n)
        self.play_moves(w, b, ["f3", "e5", "g4"], [o])
        d = self.move(b, w, "Qh4", [o], san="Qh4#")
        self.assertEqual(d["verbose"], "Q/d8-h4")
        for c in (w, b, o):
            self.assertEqual(self.end_line(c), (n, w.name, b.name, "%s checkmated" % w.name, "0-1"))
        for c in (w, b):
            self.expect_line(c, re.escape("No ratings adjustment done."))
        self.assertIn(b"You are not playing a game.", self.cmd(w, "e4"))
        self.assertIn(b"You are not playing a game.", self.cmd(b, "resign"))


class EndingsTest(GamesTestCase):

    def test_resign_each_side(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, ["e4", "e5"])
        b.send_line("resign")
        for c in (w, b):
            self.assertEqual(self.end_line(c), (n, w.name, b.name, "%s resigns" % b.name, "1-0"))
        n, _ = self.start_match(w, b, "5 0")
        w.send_line("resign")
        for c in (w, b):
            self.assertEqual(self.end_line(c), (n, w.name, b.name, "%s resigns" % w.name, "0-1"))

    def test_time_forfeit_server_flags(self):
        """A 3-second game where nobody moves: the server flags White by
        itself, nobody types flag."""
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        t0 = time.monotonic()
        n, got = self.start_match(w, b, "0.05 0")
        self.assertRegex(got["white"][0], r"^Creating: %s \(\+\+\+\+\) %s \(\+\+\+\+\) unrated "
                         r"lightning \S+" % (w.name, b.name))
        self.assertEqual(got["white"][3]["wclock"], 3000)
        self.assertEqual(self.end_line(w, GT + 5),
                         (n, w.name, b.name, "%s forfeits on time" % w.name, "0-1"))
        self.assertGreaterEqual(time.monotonic() - t0, 2.9)
        self.assertEqual(self.end_line(b), (n, w.name, b.name, "%s forfeits on time" % w.name, "0-1"))

    def test_time_forfeit_black_after_moves(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        n, _ = self.start_match(w, b, "0.05 0")
        self.play_moves(w, b, ["e4", "e5", "Nf3"])
        # Black's flag: White may also claim it, but the server gets there itself.
        self.assertIn(b"Your opponent is not out of time.", self.cmd(w, "flag"))
        for c in (w, b):
            self.assertEqual(self.end_line(c, GT + 5),
                             (n, w.name, b.name, "%s forfeits on time" % b.name, "1-0"))

    def test_flag_draw_rule_6_9_at_rules_level(self):
        """6.9 (flag fall against a lone king is a draw) cannot be reached in
        a live game without a long sequence of captures (there is no way to
        start a game from a FEN), so it is checked through chess-rules:
        the positions where one side keeps only its king."""
        r = rules("status", "8/8/4k3/8/8/4K3/4r3/8 w - - 0 1", "Kxe2").stdout
        self.assertIn("termination: dead-position", r)
        self.assertIn("result: 1/2-1/2", r)

    def test_stalemate_loyd(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        moves = ["e3", "a5", "Qh5", "Ra6", "Qxa5", "h5", "h4", "Rah6", "Qxc7", "f6",
                 "Qxd7+", "Kf7", "Qxb7", "Qd3", "Qxb8", "Qh7", "Qxc8", "Kg6", "Qe6"]
        d = self.play_moves(w, b, moves)
        self.assertEqual(d["san"], "Qe6")
        for c in (w, b):
            self.assertEqual(self.end_line(c),
                             (n, w.name, b.name, "Game drawn by stalemate", "1/2-1/2"))

    def test_draw_by_agreement(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        # draw / draw
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, ["e4", "e5"])
        self.assertIn(b"Draw request sent.", self.cmd(w, "draw"))
        self.expect_line(b, re.escape("%s offers you a draw." % w.name))
        b.send_line("draw")
        for c in (w, b):
            self.assertEqual(self.end_line(c),
                             (n, w.name, b.name, "Game drawn by mutual agreement", "1/2-1/2"))
        # draw / decline, then draw / accept
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, ["d4", "d5"])
        self.assertIn(b"Draw request sent.", self.cmd(b, "draw"))
        self.expect_line(w, re.escape("%s offers you a draw." % b.name))
        self.assertIn(b"You decline the draw request from %s." % b.name.encode(), self.cmd(w, "decline"))
        self.expect_line(b, re.escape("%s declines the draw request." % w.name))
        self.assertIn(b"You have no offers to accept.", self.cmd(w, "accept"))
        self.cmd(b, "draw")
        self.expect_line(w, re.escape("%s offers you a draw." % b.name))
        w.send_line("accept")
        for c in (w, b):
            self.assertEqual(self.end_line(c),
                             (n, w.name, b.name, "Game drawn by mutual agreement", "1/2-1/2"))

    SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]

    def test_threefold_claim(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, self.SHUFFLE)
        # Only the second occurrence: "draw" is then an offer, not a claim.
        self.assertIn(b"Draw request sent.", self.cmd(w, "draw"))
        self.play_moves(w, b, self.SHUFFLE)     # Black's move declines it
        w.send_line("draw")
        for c in (w, b):
            self.assertEqual(self.end_line(c),
                             (n, w.name, b.name, "Game drawn by repetition", "1/2-1/2"))

    def test_claim_with_intended_move(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, self.SHUFFLE + ["Nf3", "Nf6"])
        # After 4.Ng1 the position would occur only twice.
        self.assertIn(b"After Ng1 you could not claim a draw.", self.cmd(w, "draw Ng1"))
        self.move(w, b, "Ng1")
        # 4...Ng8 makes the start position occur a third time.
        b.send_line("draw Ng8")
        d = self.expect12(w)
        self.assertEqual((d["san"], d["ranks"]), ("Ng8", START_RANKS))
        for c in (w, b):
            self.assertEqual(self.end_line(c),
                             (n, w.name, b.name, "Game drawn by repetition", "1/2-1/2"))

    def test_fivefold_automatic(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, self.SHUFFLE * 4)
        for c in (w, b):
            self.assertEqual(self.end_line(c),
                             (n, w.name, b.name, "Game drawn by fivefold repetition", "1/2-1/2"))

    def test_insufficient_material_at_rules_level(self):
        """Reaching bare kings takes 30 captures; no short live sequence was
        found, so the rule is checked through chess-rules (the server's
        end text for it is "Neither player has mating material")."""
        for fen, mv in (("8/8/4k3/8/8/4K3/4r3/8 w - - 0 1", "Kxe2"),
                        ("8/8/4k3/8/8/4K3/4r3/5N2 w - - 0 1", "Kxe2"),
                        ("8/8/4k3/8/8/4K3/4q3/5B2 w - - 0 1", "Bxe2")):
            out = rules("status", fen, mv).stdout
            self.assertIn("termination: dead-position", out, fen)

    def test_abort(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        # Unilateral before the first moves.
        n, _ = self.start_match(w, b, "5 0")
        w.send_line("abort")
        for c in (w, b):
            self.assertEqual(self.end_line(c), (n, w.name, b.name, "Game aborted on move 1", "*"))
        # Black may still abort alone after White's first move.
        n, _ = self.start_match(w, b, "5 0")
        self.move(w, b, "e4")
        b.send_line("abort")
        for c in (w, b):
            self.assertEqual(self.end_line(c), (n, w.name, b.name, "Game aborted on move 1", "*"))
        # Later only by agreement.
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, ["e4", "e5", "Nf3"])
        self.assertIn(b"Abort request sent.", self.cmd(w, "abort"))
        self.expect_line(b, re.escape('%s would like to abort the game; type "abort" to accept.'
                                      % w.name))
        b.send_line("abort")
        for c in (w, b):
            self.assertEqual(self.end_line(c),
                             (n, w.name, b.name, "Game aborted by mutual agreement", "*"))

    def test_takeback_by_agreement(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, ["e4", "e5", "Nf3"])
        self.assertIn(b"Takeback request sent.", self.cmd(b, "takeback 2"))
        self.expect_line(w, re.escape('%s would like to take back 2 half move(s); type "takeback 2" '
                                      'to accept.' % b.name))
        w.send_line("takeback 2")
        for c, rel in ((w, -1), (b, 1)):
            d = self.expect12(c)
            self.assertEqual((d["side"], d["san"], d["verbose"], d["dpp"], d["relation"], d["moveno"]),
                             ("B", "e4", "P/e2-e4", 4, rel, 1))
            self.assertEqual(d["ranks"][4], "----P---")
            self.assertEqual(d["ranks"][3], "--------")
        out = self.cmd(w, "moves")
        self.assertRegex(out, rb"\n\r  1\.  e4      \(0:\d\d\.\d{3}\) *\n\r      \{Still in progress\} \*")
        # Black plays on from there; then takeback 1 answered with accept.
        self.move(b, w, "c5", san="c5")
        self.cmd(w, "takeback")
        self.expect_line(b, re.escape('%s would like to take back 1 half move(s); type "takeback 1" '
                                      'to accept.' % w.name))
        b.send_line("accept")
        d = self.expect12(w)
        self.assertEqual((d["side"], d["san"]), ("B", "e4"))
        self.assertNotIn(b"c5", self.cmd(w, "moves").split(b"----\n\r")[-1])

    def test_error_messages(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        x = self.guest_player(srv)
        self.start_match(w, b, "5 0")
        self.assertIn(b"Illegal move (e2e5).", self.cmd(w, "e2e5"))
        self.assertIn(b"It is not your move.", self.cmd(b, "e5"))
        self.assertIn(b"It is not your move.", self.cmd(b, "e7e5"))
        for cmd in ("e4", "resign", "draw", "abort", "adjourn", "takeback", "flag"):
            self.assertIn(b"You are not playing a game.", self.cmd(x, cmd), cmd)
        self.assertIn(b"ERROR: You can't seek a game while you are playing one.", self.cmd(w, "seek 5 0"))


class ObserveTest(GamesTestCase):

    def test_observe_allobservers_unobserve_kibitz(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        o = self.guest_player(srv)
        o2 = self.guest_player(srv, ms=False)
        n, _ = self.start_match(w, b, "5 0")
        out = self.cmd(o, "observe %d" % n)
        self.assertIn(("You are now observing game %d.\n\rGame %d: %s (++++) %s (++++) unrated "
                       "blitz 5 0\n\r\n\r<12> " % (n, n, w.name, b.name)).encode(), out)
        d = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))
        self.assertEqual((d["relation"], d["ranks"]), (0, START_RANKS))
        out = self.cmd(o2, "observe %s" % w.name)       # by a player's name
        self.assertIn(b"You are now observing game %d." % n, out)
        self.assertIn(b"You are already observing game %d." % n, self.cmd(o2, "observe %d" % n))
        self.assertIn(b"You cannot observe a game that you are playing.", self.cmd(w, "observe %d" % n))
        out = self.cmd(o, "allobservers")
        self.assertRegex(out, (r"Observing +%d \[%s vs\. %s\]: (%s\(U\) %s\(U\)|%s\(U\) %s\(U\)) "
                               r"\(2 users\)" % (n, w.name, b.name, o.name, o2.name, o2.name,
                                                 o.name)).encode())
        # every board to both observers
        self.play_moves(w, b, ["e4", "e5", "Nf3"], [o, o2])
        # kibitz: players and observers; whisper: observers only (a guest
        # observer may do neither, as in lasker: test_kibitz_guest.py)
        self.assertIn(b"You must be registered to kibitz other people's games.",
                      self.cmd(o, "kibitz hello all"))
        out = self.cmd(w, "kibitz from white")
        self.assertIn(b"kibitzed to 3.", out)
        for c in (b, o, o2):
            self.expect_line(c, re.escape("%s(++++)[%d] kibitzes: from white" % (w.name, n)))
        out = self.cmd(b, "whisper psst")
        self.assertIn(b"whispered to 2.", out)
        for c in (o, o2):
            self.expect_line(c, re.escape("%s(++++)[%d] whispers: psst" % (b.name, n)))
        # say to the opponent
        self.assertIn(("(told %s)" % w.name).encode(), self.cmd(b, "say good luck"))
        self.expect_line(w, r"%s(\(U\))?\[%d\] says: good luck" % (b.name, n))
        # unobserve: no more boards for o2
        out = self.cmd(o2, "unobserve %d" % n)
        self.assertIn(b"Removing game %d from observation list." % n, out)
        self.move(b, w, "Nc6", [o])
        self.assertNotIn(b"<12>", o2.read_for(0.5))
        # the end line to the remaining observer; w's and b's boards, not o2's
        for c in (w, b):
            c.read_for(0.2)
        w.send_line("resign")
        for c in (w, b, o):
            self.assertEqual(self.end_line(c), (n, w.name, b.name, "%s resigns" % w.name, "0-1"))
        self.assertNotIn(b"{Game", o2.read_for(0.5))
        self.assertIn(b"You are not observing any games.", self.cmd(o, "unobserve"))

    def test_whisper_and_kibitz_chatter_tracks_observers(self):
        """An observer leaving with plain "unobserve" stops getting kibitzes."""
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        o = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.cmd(o, "observe %d" % n)
        self.assertIn(b"Removing game %d from observation list." % n, self.cmd(o, "unobserve"))
        self.assertIn(b"kibitzed to 1.", self.cmd(w, "kibitz x"))
        self.assertNotIn(b"kibitzes", o.read_for(0.5))

    def test_follow_observes_next_game(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        f = self.guest_player(srv)
        out = self.cmd(f, "follow %s" % w.name)
        self.assertIn(("You will now be following %s's games." % w.name).encode(), out)
        n, _ = self.start_match(w, b, "5 0")
        f.expect(("You are now observing game %d.\n\rGame %d: %s (++++) %s (++++) unrated blitz 5 0"
                  % (n, n, w.name, b.name)).encode(), GT)
        d = self.expect12(f)
        self.assertEqual((d["relation"], d["game"]), (0, n))
        self.move(w, b, "e4", [f])
        w.send_line("abort")
        self.assertEqual(self.end_line(f)[3], "Game aborted on move 1")
        # and again for the next game (Black this time)
        n2, _ = self.start_match(b, w, "5 0")
        f.expect(b"You are now observing game %d." % n2, GT)
        self.expect12(f, game=n2)
        out = self.cmd(f, "follow")
        self.assertIn(("You will not follow %s's games any more." % w.name).encode(), out)

    def test_games_list(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, ["e4", "d5", "exd5"])
        out = self.cmd(w, "games")
        # The clocks run between the listings: the line is matched, not copied.
        line = re.compile((r"(?m)^ *%d \+\+\+\+ %s +\+\+\+\+ %s +\[ bu  5   0\] +\d:\d\d - +\d:\d\d "
                           r"\(39-38\) B:  2\r?$" % (n, w.name, b.name)).encode())
        self.assertRegex(out, line)
        # FICS's wording, which eboard waits for even with one game.
        self.assertIn(b"\n\r  1 games displayed.\n\r", out)
        out = self.cmd(w, "games %s" % b.name)
        self.assertIn(b"\n\r  1 games displayed (of 1 in progress).\n\r", out)
        # lasker's texts for no match, and a number naming a game (eboard
        # sends "games N" for the game it examines or observes).
        self.assertEqual(self.cmd(w, "games zzz"),
                         b"No matching games were found (of 1 in progress).\n\r")
        out = self.cmd(w, "games %d" % n)
        self.assertRegex(out, line)
        self.assertIn(b"\n\r  1 games displayed (of 1 in progress).\n\r", out)
        self.assertEqual(self.cmd(w, "games %d" % (n + 1)),
                         b"No matching games were found (of 1 in progress).\n\r")
        w.send_line("resign")
        self.end_line(w)
        self.assertIn(b"There are no games in progress.\n\r", self.cmd(w, "games %s" % w.name))
        # A plain "games" still ends as eboard's game list waits for.
        self.assertIn(b"\n\r  0 games displayed.\n\r", self.cmd(w, "games"))


class RecordTest(GamesTestCase):

    def test_moves_format(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, ["e4", "e5", "Nf3"])
        out = self.cmd(b, "moves %d" % n).decode()
        lines = out.split("\n\r")
        i = lines.index("Movelist for game %d:" % n)
        self.assertEqual(lines[i + 1], "")
        self.assertRegex(lines[i + 2], r"^%s \(\+\+\+\+\) vs\. %s \(\+\+\+\+\) --- "
                         r"\w{3} \w{3} [ \d]\d, \d\d:\d\d UTC \d{4}$" % (w.name, b.name))
        self.assertEqual(lines[i + 3], "Unrated blitz match, initial time: 5 minutes, increment: "
                                       "0 seconds.")
        self.assertEqual(lines[i + 4], "")
        self.assertEqual(lines[i + 5], "Move  %-23s %s" % (w.name, b.name))
        self.assertEqual(lines[i + 6], "----  ---------------------   ---------------------")
        self.assertRegex(lines[i + 7], r"^  1\.  e4      \(0:0\d\.\d{3}\)      e5      \(0:0\d\.\d{3}\)$")
        self.assertRegex(lines[i + 8], r"^  2\.  Nf3     \(0:0\d\.\d{3}\) *$")
        self.assertEqual(lines[i + 9], "      {Still in progress} *")
        # by a player's name as well
        self.assertIn(b"Movelist for game %d:" % n, self.cmd(w, "moves %s" % b.name))

    def _pgn_of(self, c, n):
        out = self.cmd(c, "pgn %s" % n).decode()
        text = out.replace("\n\r", "\n")
        text = text[:text.rindex("fics% ")] if text.endswith("fics% ") else text
        self.assertTrue(text.startswith("[Event "), out)
        return text

    def _live_game_for_pgn(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        self.play_moves(w, b, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6", "Re1", "O-O",
                               "c3", "d6", "d4", "exd4", "cxd4", "Bb4", "Bd2", "Bxd2", "Nbxd2",
                               "Nxe4", "Nxe4", "d5", "Bxd5", "Qxd5"])
        return w, b, n

    def test_pgn_accepted_by_chess_rules(self):
        w, b, n = self._live_game_for_pgn()
        text = self._pgn_of(w, n)
        self.assertIn('[White "%s"]' % w.name, text)
        self.assertIn('[Black "%s"]' % b.name, text)
        self.assertIn('[TimeControl "300"]', text)
        self.assertIn("O-O", text)
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
            f.write(text)
            path = f.name
        self.addCleanup(os.unlink, path)
        r = rules("pgn", path, check=False)
        self.assertEqual(r.returncode, 0, "chess-rules pgn rejected:\n%s\n%s%s" % (
            text, r.stdout, r.stderr))

    def test_pgn_of_a_finished_game_from_the_database(self):
        tool = pgn_extract_path()
        if not tool:
            self.fail("pgn-extract is not installed; install the pgn-extract package")
        w, b, n = self._live_game_for_pgn()
        self.cmd(b, "resign")
        self.end_line(w)
        w.expect(b"No ratings adjustment done.\n\rfics% ", GT)
        text = self._pgn_of(w, w.name)       # the newest stored game of w
        self.assertIn('[Result "1-0"]', text)
        self.assertIn('[Termination "normal"]', text)
        self.assertIn("Qxd5", text)
        self.assertTrue(text.rstrip().endswith("1-0"), text)
        self.assertEqual(text, self._pgn_of(w, "%s 0" % b.name))
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
            f.write(text)
            path = f.name
        self.addCleanup(os.unlink, path)
        r = rules("pgn", path, check=False)
        self.assertEqual(r.returncode, 0, "chess-rules pgn rejected:\n%s\n%s%s" % (
            text, r.stdout, r.stderr))
        r = subprocess.run([tool, "-s", path], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, "pgn-extract failed:\n%s\n%s" % (text, r.stderr))
        self.assertIn(b"has no such game", self.cmd(w, "pgn %s 5" % w.name))

    def test_pgn_accepted_by_pgn_extract(self):
        tool = pgn_extract_path()
        if not tool:
            self.fail("pgn-extract is not installed (looked in PATH, /usr/bin, /usr/games); "
                      "install the pgn-extract package to run this test")
        w, b, n = self._live_game_for_pgn()
        text = self._pgn_of(b, n)
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
            f.write(text)
            path = f.name
        self.addCleanup(os.unlink, path)
        r = subprocess.run([tool, "-s", path], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, "pgn-extract failed:\n%s\n%s" % (text, r.stderr))
        self.assertNotRegex(r.stderr.lower(), r"error|unknown|illegal|failed|missing",
                            "pgn-extract complained about:\n%s\n%s" % (text, r.stderr))
        self.assertIn("Qxd5", r.stdout)


class AdjournTest(GamesTestCase):

    def test_adjourn_stored_resume(self):
        srv, a, b = self.two_users()
        n, got = self.start_match(a, b, "5 0 unrated")
        self.assertEqual(got["white"][0], "Creating: alice (----) bob (----) unrated blitz 5 0")
        moves = ["e4", "c5", "Nf3", "d6", "d4"]
        last = self.play_moves(a, b, moves)
        self.assertIn(b"Adjourn request sent.", self.cmd(b, "adjourn"))
        self.expect_line(a, re.escape('bob would like to adjourn the game; type "adjourn" to accept.'))
        a.send_line("adjourn")
        for c in (a, b):
            self.assertEqual(self.end_line(c),
                             (n, "alice", "bob", "Game adjourned by mutual agreement", "*"))
        for c, opp, col in ((a, "bob", "W"), (b, "alice", "B")):
            out = self.cmd(c, "stored")
            self.assertIn(b"Stored games for %s:" % c.name.encode(), out)
            self.assertRegex(out, (r"\n\r 1: %s %s +Y +\[ bu  5   0\]" % (col, opp)).encode())
        # resume: alice asks, bob answers with resume
        out = self.cmd(a, "resume")
        self.expect_line(b, re.escape("alice would like to resume your adjourned game."))
        b.send_line("resume")
        for c, rel in ((a, -1), (b, 1)):
            c.expect(re.compile(LS + rb"(Creating: [^\n]*)\n\r(\{Game (\d+) [^\n]*\})\n\r\n\r"
                                rb"<12> ([^\n\r]*)\n\r"), GT)
            m = c.match
            self.assertEqual(m.group(1), b"Creating: alice (----) bob (----) unrated blitz 5 0")
            n2 = int(m.group(3))
            self.assertEqual(m.group(2).decode(),
                             "{Game %d (alice vs. bob) Continuing unrated blitz match.}" % n2)
            d = parse12(m.group(4))
            self.assertEqual((d["ranks"], d["side"], d["relation"], d["san"], d["moveno"]),
                             (last["ranks"], "B", rel, "d4", 3))
        out = self.cmd(a, "moves").decode()
        sans = re.findall(r"(?m)^ +\d+\.  (\S+) +\(\S+\)(?: +(\S+) +\(\S+\))?", out.replace("\r", ""))
        flat = [x for pair in sans for x in pair if x]
        self.assertEqual(flat, moves)
        self.assertIn(b"alice has no adjourned games.", self.cmd(a, "stored"))
        # the game goes on
        self.move(b, a, "cxd4", san="cxd4")
        a.send_line("resign")
        self.assertEqual(self.end_line(b), (n2, "alice", "bob", "alice resigns", "0-1"))
        out = self.cmd(b, "history")
        self.assertIn(b"History for bob:", out)
        self.assertRegex(out, rb"\+ +0 B +0 alice")      # history ratings are numbers, as in FICS

    def test_resume_accept_and_oldmoves(self):
        srv, a, b = self.two_users()
        n, _ = self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["d4", "Nf6"])
        self.cmd(a, "adjourn")
        self.expect_line(b, re.escape('alice would like to adjourn the game; type "adjourn" to accept.'))
        b.send_line("accept")
        self.end_line(a)
        out = self.cmd(a, "smoves alice")
        self.assertIn(b"alice (----) vs. bob (----)", out)
        self.assertRegex(out, rb"  1\.  d4 +\(0:00\.\d{3}\) +Nf6 +\(0:00\.\d{3}\)")
        self.cmd(b, "resume alice")
        self.expect_line(a, re.escape("bob would like to resume your adjourned game."))
        a.send_line("accept")
        for c in (a, b):
            c.expect(b"Creating: alice (----) bob (----) unrated blitz 5 0", GT)
            d = self.expect12(c)
            self.assertEqual((d["san"], d["side"]), ("Nf6", "W"))


if __name__ == "__main__":
    main()
