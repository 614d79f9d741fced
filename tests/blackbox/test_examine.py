#!/usr/bin/env python3
"""Examine mode on a scratch board: moves for either side through the rules
core, forward/backward/revert, the style 12 relations of examiners (2) and
their observers (-2) next to those of a played game (1/-1, 0), observers
who join mid-lesson, kibitz and whisper, games and allobservers, pgn of the
line as it stands, unexamine, and the limits."""
import re
import signal
import sqlite3
import sys

sys.path.insert(0, "/usr/lib/python3/dist-packages")

from games_harness import GamesTestCase, parse12, main, GT  # noqa: E402

try:
    import gi
    gi.require_version("Gtk", "3.0")
    from pychess.ic.managers.BoardManager import BoardManager
except Exception:  # pragma: no cover - pychess is installed on the test machines
    BoardManager = None


class Examine(GamesTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.game_server({"examined_games": 2})
        self.coach = self.guest_player(self.srv)
        self.pupil = self.guest_player(self.srv)

    def test_scratch_moves_either_side_and_steps(self):
        c = self.coach
        out = self.cmd(c, "examine")
        self.assertRegex(out, rb"^Starting a game in examine \(scratch\) mode\.\n\r\n\r<12> ")
        d = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))
        self.assertEqual(d["relation"], 2)
        self.assertEqual(d["verbose"], "none")
        self.assertEqual((d["initial"], d["increment"], d["ticking"]), (0, 0, 0))
        number = d["game"]
        # Either side moves; every move is the rules core's.
        for mv, san in (("e4", "e4"), ("e5", "e5"), ("g1f3", "Nf3")):
            out = self.cmd(c, mv)
            b = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))
            self.assertEqual((b["san"], b["relation"]), (san, 2))
            self.assertIn(("%s moves: %s" % (c.name, san)).encode(), out)
        self.assertIn(b"Illegal move (Ke3).", self.cmd(c, "Ke3"))
        out = self.cmd(c, "backward 2")
        self.assertIn(("Game %d: %s backs up 2 moves." % (number, c.name)).encode(), out)
        self.assertEqual(parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["san"], "e4")
        out = self.cmd(c, "forward")
        self.assertIn(("Game %d: %s goes forward 1 move." % (number, c.name)).encode(), out)
        self.assertEqual(parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["san"], "e5")
        # A different move after backward cuts the line there.
        self.cmd(c, "Nc3")
        self.assertIn(("Game %d: End of game." % number).encode(), self.cmd(c, "forward"))
        self.assertIn(b"1. e4 e5 2. Nc3 *", self.cmd(c, "pgn"))
        out = self.cmd(c, "revert")
        self.assertIn(("Game %d: %s reverts to mainline." % (number, c.name)).encode(), out)
        self.assertEqual(parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["verbose"], "none")
        self.assertIn(("Game %d: Already at mainline." % number).encode(), self.cmd(c, "revert"))
        self.assertIn(("Game %d: Beginning of game." % number).encode(), self.cmd(c, "backward"))
        self.assertIn(("You are no longer examining game %d." % number).encode(),
                      self.cmd(c, "unexamine"))
        self.assertIn(b"You are not examining any games.", self.cmd(c, "forward"))
        # Nothing of it was stored as a game.
        with sqlite3.connect(self.srv.db_path) as db:
            self.assertEqual(db.execute("SELECT COUNT(*) FROM games").fetchone()[0], 0)

    def test_commit_makes_the_main_line(self):
        """xboard sends commit after uploading a game: revert then returns to it."""
        c = self.coach
        number = parse12(re.search(rb"<12> ([^\n\r]*)", self.cmd(c, "examine")).group(1))["game"]
        self.cmd(c, "e4")
        self.cmd(c, "e5")
        self.assertIn(("Game %d: %s makes this line of 2 moves the main line."
                       % (number, c.name)).encode(), self.cmd(c, "commit"))
        self.cmd(c, "backward")
        self.cmd(c, "c5")
        out = self.cmd(c, "revert")
        self.assertEqual(parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["san"], "e4")
        out = self.cmd(c, "forward")
        self.assertEqual(parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["san"], "e5")
        # Back at the branch point of another line: revert brings the main line back.
        self.cmd(c, "backward")
        self.cmd(c, "c5")
        self.cmd(c, "backward")
        self.assertIn(b"reverts to mainline.", self.cmd(c, "revert"))
        out = self.cmd(c, "forward")
        self.assertEqual(parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["san"], "e5")
        self.assertIn(b"Already at mainline.", self.cmd(c, "revert"))

    def test_end_conditions_are_reported_not_ending(self):
        c = self.coach
        self.cmd(c, "examine")
        for mv in ("f3", "e5", "g4"):
            self.cmd(c, mv)
        out = self.cmd(c, "Qh4")
        self.assertIn(b"White has been checkmated.", out)
        # The board stays examined: back up and play on.
        self.assertIn(b"backs up 1 move.", self.cmd(c, "backward"))
        self.assertIn(b"moves: d6", self.cmd(c, "d6"))

    def test_observers_mid_lesson_kibitz_and_relations(self):
        c, p = self.coach, self.pupil
        out = self.cmd(c, "examine")
        number = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["game"]
        self.cmd(c, "d4")
        # A pupil joins after the first move and sees the board as it stands.
        out = self.cmd(p, "observe %d" % number)
        self.assertIn(("You are now observing game %d." % number).encode(), out)
        self.assertRegex(out, (r"Game %d: %s \(\+\+\+\+\) %s \(\+\+\+\+\) unrated untimed 0 0"
                               % (number, c.name, c.name)).encode())
        d = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))
        self.assertEqual((d["relation"], d["san"]), (-2, "d4"))
        c.send_line("d5")
        self.assertEqual(self.expect12(p)["relation"], -2)
        self.expect_line(p, re.escape("%s moves: d5" % c.name))
        c.send_line("backward")
        self.expect_line(p, re.escape("Game %d: %s backs up 1 move." % (number, c.name)))
        self.assertEqual(self.expect12(p)["san"], "d4")
        # games marks the board; allobservers names the examiner with "#".
        games = self.cmd(p, "games")
        self.assertRegex(games, (r"\s*%d \(Exam\. \+\+\+\+ %s" % (number, c.name)).encode())
        allobs = self.cmd(p, "allobservers")
        self.assertIn(("Examining  %d (scratch): #%s(U) %s(U) (1 user)"
                       % (number, c.name, p.name)).encode(), allobs)
        # kibitz reaches examiners and observers; whisper the observers only.
        # A guest observer may do neither, as in lasker (test_kibitz_guest.py).
        self.assertIn(b"You must be registered to kibitz other people's games.",
                      self.cmd(p, "kibitz why d4?"))
        self.assertIn(b"kibitzed to 1.", self.cmd(c, "kibitz control the centre"))
        self.expect_line(p, re.escape("%s(++++)[%d] kibitzes: control the centre"
                                      % (c.name, number)))
        self.assertIn(b"whispered to 1.", self.cmd(c, "whisper psst"))
        self.expect_line(p, re.escape("%s(++++)[%d] whispers: psst" % (c.name, number)))
        # The examiner leaving ends the board for its observers.
        self.cmd(c, "unexamine")
        self.expect_line(p, re.escape("%s stopped examining game %d." % (c.name, number)))
        self.expect_line(p, re.escape("There are no examiners."))
        self.expect_line(p, re.escape("Removing game %d from observation list." % number))
        self.assertIn(b"There is no such game.", self.cmd(p, "observe %d" % number))

    def test_four_relations_and_shared_numbers(self):
        """1/-1 for the players of a played game, 0 for its observer, 2/-2 on
        an examined board: the numbers come from one sequence."""
        c, p = self.coach, self.pupil
        watcher = self.guest_player(self.srv)
        number, got = self.start_match(c, p)
        self.assertEqual(got["white"][3]["relation"], 1)
        self.assertEqual(got["black"][3]["relation"], -1)
        d = parse12(re.search(rb"<12> ([^\n\r]*)",
                              self.cmd(watcher, "observe %d" % number)).group(1))
        self.assertEqual(d["relation"], 0)
        # A player may not examine; nor may one who examines be challenged.
        self.assertIn(b"You are playing a game.", self.cmd(c, "examine"))
        third = self.guest_player(self.srv)
        out = self.cmd(third, "examine")
        e = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))
        self.assertEqual(e["relation"], 2)
        self.assertNotEqual(e["game"], number)
        self.assertIn(b"You are already examining a game.", self.cmd(third, "examine"))
        self.assertIn(b"You cannot challenge while you are examining a game.",
                      self.cmd(third, "match %s 1 0" % watcher.name))
        self.assertIn(('Player "%s" is involved in another game.' % third.name).encode(),
                      self.cmd(watcher, "match %s 1 0" % third.name))
        self.cmd(watcher, "unobserve")
        d = parse12(re.search(rb"<12> ([^\n\r]*)",
                              self.cmd(watcher, "observe %d" % e["game"])).group(1))
        self.assertEqual(d["relation"], -2)
        # The played game ending does not disturb the examined one.
        self.cmd(c, "resign")
        self.assertIn(b"moves: e4", self.cmd(third, "e4"))

    def test_pychess_parses_the_boards(self):
        """pychess's own style 12 parser reads the examiner's and observer's boards."""
        if BoardManager is None:
            self.fail("pychess is not importable")
        c, p = self.coach, self.pupil
        out = self.cmd(c, "examine")
        number = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["game"]
        line = self.cmd(c, "e4")
        text = re.search(rb"<12> ([^\n\r]*)", line).group(1).decode()
        gameno, relation, curcol, ply, wname, bname, wms, bms, gain, lastmove, fen = \
            BoardManager.parseStyle12(text, ("k", "q"))
        self.assertEqual((int(gameno), relation, lastmove, wname), (number, 2, "e4", c.name))
        self.assertTrue(fen.startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"),
                        fen)
        from pychess.ic import IC_POS_EXAMINATING, IC_POS_OBSERVING_EXAMINATION
        self.assertEqual(relation, IC_POS_EXAMINATING)
        out = self.cmd(p, "observe %d" % number)
        text = re.search(rb"<12> ([^\n\r]*)", out).group(1).decode()
        self.assertEqual(BoardManager.parseStyle12(text, ("k", "q"))[1],
                         IC_POS_OBSERVING_EXAMINATION)

    def test_examining_ends_watching_and_help(self):
        c, p = self.coach, self.pupil
        number, _ = self.start_match(p, self.guest_player(self.srv))
        self.cmd(c, "observe %d" % number)
        out = self.cmd(c, "examine")
        self.assertRegex(out, (r"^Removing game %d from observation list\.\n\r"
                               r"Starting a game in examine \(scratch\) mode\." % number).encode())
        self.assertIn(b"You are still examining a game.", self.cmd(c, "observe %d" % number))
        self.assertIn(b"examine alice 3", self.cmd(c, "help examine"))
        self.assertIn(b"Usage: bsetup [fen F", self.cmd(c, "help bsetup"))

    def test_examined_games_cap(self):
        self.cmd(self.coach, "examine")
        self.cmd(self.pupil, "examine")
        third = self.guest_player(self.srv)
        self.assertIn(b"There are 2 games being examined, the most this server allows; "
                      b"try again later.", self.cmd(third, "examine"))
        self.cmd(self.pupil, "unexamine")
        self.assertIn(b"Starting a game in examine (scratch) mode.", self.cmd(third, "examine"))

    def test_line_length_cap(self):
        srv = self.game_server({"examine_plies": 2})
        c = self.guest_player(srv)
        self.cmd(c, "examine")
        self.cmd(c, "e4")
        self.cmd(c, "e5")
        out = self.cmd(c, "Nf3")
        self.assertIn(b"This line has 2 plies, the most an examined game may have.", out)
        self.assertNotIn(b"<12>", out)
        # Stepping back makes room again.
        self.cmd(c, "backward")
        self.assertIn(b"moves: c5", self.cmd(c, "c5"))

    def test_shutdown_ends_boards_and_stores_nothing(self):
        c, p = self.coach, self.pupil
        number = parse12(re.search(rb"<12> ([^\n\r]*)", self.cmd(c, "examine")).group(1))["game"]
        self.cmd(c, "e4")
        self.cmd(p, "observe %d" % number)
        self.srv.signal(signal.SIGTERM)
        self.expect_line(c, re.escape("You are no longer examining game %d." % number))
        self.expect_line(p, re.escape("Removing game %d from observation list." % number))
        self.assertEqual(self.srv.wait_exit(GT), 0, self.srv.log())
        with sqlite3.connect(self.srv.db_path) as db:
            self.assertEqual(db.execute("SELECT COUNT(*) FROM games").fetchone()[0], 0)

    def test_examiner_disconnect_ends_board(self):
        c, p = self.coach, self.pupil
        out = self.cmd(c, "examine")
        number = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["game"]
        self.cmd(p, "observe %d" % number)
        c.close()
        self.expect_line(p, re.escape("There are no examiners."))
        self.assertIn(b"There is no such game.", self.cmd(p, "observe %d" % number))


if __name__ == "__main__":
    main()
