#!/usr/bin/env python3
"""bsetup: setting up a position on an examined board (fen, clear, start,
drops and clears, tomove, castling, en passant, done), refused with the
rules core's reason when the position is not legal; tomove, clrsquare,
wname and bname."""
import re

from games_harness import GamesTestCase, parse12, main


def board(out):
    m = re.search(rb"<12> ([^\n\r]*)", out)
    return parse12(m.group(1)) if m else None


class Setup(GamesTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.game_server()
        self.c = self.guest_player(self.srv)

    def test_fen_done_and_play(self):
        c = self.c
        out = self.cmd(c, "examine")
        number = board(out)["game"]
        self.assertIn(b"Entering examine(setup) mode.", self.cmd(c, "bsetup"))
        self.assertIn(b"You are still setting up the position.", self.cmd(c, "e4"))
        self.assertIn(b"You can't move forward yet, the position is still being set up.",
                      self.cmd(c, "forward"))
        self.assertIn(b"Board set up by FEN.",
                      self.cmd(c, "bsetup fen 4k3/8/8/8/8/8/4P3/4K3 b - -"))
        out = self.cmd(c, "bsetup done")
        self.assertIn(b"Game is validated - entering examine mode.", out)
        d = board(out)
        self.assertEqual((d["game"], d["side"], d["relation"]), (number, "B", 2))
        self.assertEqual(d["ranks"][7], "----K---")
        self.assertIn(b"moves: Kd7", self.cmd(c, "Kd7"))
        # revert comes back to the position set up, not to the standard start.
        out = self.cmd(c, "revert")
        self.assertEqual(board(out)["ranks"][0], "----k---")

    def test_setup_from_the_board_as_it_stands(self):
        c = self.c
        self.cmd(c, "examine")
        self.cmd(c, "e4")
        self.cmd(c, "bsetup")
        self.assertIn(b"Black knight placed on e5.", self.cmd(c, "n@e5"))
        self.assertIn(b"black has 17 pieces", self.cmd(c, "bsetup done"))
        self.assertIn(b"b8 cleared.", self.cmd(c, "x@b8"))
        d = board(self.cmd(c, "bsetup done"))
        self.assertEqual((d["side"], d["wk"], d["bq"], d["verbose"]), ("B", 1, 1, "none"))
        self.assertEqual((d["ranks"][3], d["ranks"][4]), ("----n---", "----P---"))

    def test_drops_castling_tomove_and_names(self):
        c = self.c
        out = self.cmd(c, "bsetup")
        self.assertIn(b"Starting a game in examine (setup) mode.", out)
        for line, reply in (("K@e1", b"White king placed on e1."),
                            ("R@h1", b"White rook placed on h1."),
                            ("bk@e8", b"Black king placed on e8."),
                            ("p@d4", b"Black pawn placed on d4."),
                            ("P*e4", b"White pawn placed on e4."),
                            ("Q@a5", b"White queen placed on a5."),
                            ("x@a5", b"a5 cleared.")):
            self.assertIn(reply, self.cmd(c, line))
        self.assertIn(b"b3 cleared.", self.cmd(c, "clrsquare b3"))
        self.assertIn(b"White may castle: kside.", self.cmd(c, "bsetup wcastle kside"))
        self.assertIn(b"Black to move.", self.cmd(c, "tomove black"))
        self.assertIn(b"En passant capture on the e file.", self.cmd(c, "bsetup eppos e"))
        out = self.cmd(c, "bsetup done")
        d = board(out)
        self.assertEqual((d["side"], d["wk"], d["wq"], d["bk"], d["dpp"]), ("B", 1, 0, 0, -1), out)
        self.assertEqual(d["ranks"][4], "---pP---")
        # The en passant capture the setup allowed is legal.
        self.assertIn(b"moves: dxe3", self.cmd(c, "dxe3"))
        out = self.cmd(c, "wname Kasparov")
        self.assertEqual(board(out)["white"], "Kasparov")
        self.assertEqual(board(self.cmd(c, "bname"))["black"], c.name)
        self.assertIn(b"A name is 1 to 17 letters or digits.", self.cmd(c, "wname a-b"))

    def test_illegal_setups_are_refused_with_a_reason(self):
        c = self.c
        self.cmd(c, "bsetup")
        cases = (
            ("4k3/8/8/8/8/8/8/2K1K3 w - -", b"two white kings"),
            ("4k3/8/8/8/8/8/8/4K2P w - -", b"first or last rank"),
            ("4k3/8/8/8/8/8/8/4KR2 w - -", None),   # legal: the control case
        )
        for fen, reason in cases[:2]:
            self.cmd(c, "bsetup fen " + fen)
            out = self.cmd(c, "bsetup done")
            self.assertIn(b"The position is not valid (", out)
            self.assertIn(reason, out)
            self.assertIn(b"- staying in setup mode.", out)
            self.assertIsNone(board(out))
        # The side not to move in check: black's king attacked with white to move.
        self.cmd(c, "bsetup fen 4k3/8/8/8/8/8/8/4KR2 w - -")
        self.cmd(c, "R@e2")
        out = self.cmd(c, "bsetup done")
        self.assertIn(b"side not to move is in check", out)
        self.cmd(c, "bsetup clear")
        self.assertIn(b"no white king", self.cmd(c, "bsetup done"))
        self.assertIn(b"Board set up as starting position.", self.cmd(c, "bsetup start"))
        self.cmd(c, "bsetup wcastle none")
        self.cmd(c, "bsetup bcastle both")
        d = board(self.cmd(c, "bsetup done"))
        self.assertEqual((d["wk"], d["wq"], d["bk"], d["bq"]), (0, 0, 1, 1))
        self.assertIn(b"That is not a FEN", (self.cmd(c, "bsetup") and
                                             self.cmd(c, "bsetup fen 9/8 w")))
        self.assertIn(b"Usage: bsetup wcastle none|kside|qside|both",
                      self.cmd(c, "bsetup wcastle sometimes"))
        self.assertIn(b"You have supplied an incorrect parameter to bsetup.",
                      self.cmd(c, "bsetup nonsense"))

    def test_setup_commands_need_setup_mode(self):
        c = self.c
        self.assertIn(b"You are not examining any games.", self.cmd(c, "tomove white"))
        self.assertIn(b"You are not setting up a position.", self.cmd(c, "bsetup done"))
        self.cmd(c, "examine")
        self.assertIn(b"You are not setting up a position.", self.cmd(c, "bsetup done"))
        # An edit while examining enters setup mode, and the board shown is the one edited.
        out = self.cmd(c, "bsetup clear")
        self.assertRegex(out, rb"^Entering examine\(setup\) mode\.\n\rBoard cleared\.\n\r<12> ")
        self.assertEqual(board(out)["ranks"], ["--------"] * 8)
        out = self.cmd(c, "K@e1")
        self.assertEqual(board(out)["ranks"][7], "----K---")
        self.assertIn(b"Setup", self.cmd(c, "games"))

    def test_xboard_upload_to_examine(self):
        """What xboard's "Upload to Examine" sends to FICS after Edit Position
        (backend.c UploadGameEvent): examine, bsetup fen with the placement only,
        the side, both castling rights, bsetup done, then the moves."""
        c = self.c
        for line in ("examine", "bsetup fen r3k3/8/8/8/8/8/4P3/4K2R",
                     "bsetup tomove black", "bsetup wcastle kside", "bsetup bcastle qside"):
            self.assertNotIn(b"not", self.cmd(c, line), line)
        d = board(self.cmd(c, "bsetup done"))
        self.assertEqual((d["side"], d["wk"], d["wq"], d["bk"], d["bq"], d["relation"]),
                         ("B", 1, 0, 0, 1, 2))
        self.assertIn(b"moves: O-O-O", self.cmd(c, "O-O-O"))
        self.assertIn(b"moves: O-O", self.cmd(c, "O-O"))


if __name__ == "__main__":
    main()
