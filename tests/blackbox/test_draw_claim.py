#!/usr/bin/env python3
"""A draw claimed with the move one intends ("draw MOVE"): the move is read
once, in the player's letters, and that very move is the one played."""
from games_harness import GamesTestCase, board_fen_part, fen_after, main

# Clears b1, c1 and d1 for White and b8, c8 and d8 for Black, then shuffles
# the queen's rooks so that one more Rd1 makes a position occur a third time
# (the first Rd1 came while Black could still castle long, so it counts not).
OPENING = ["d4", "d5", "Qd3", "Qd6", "Bd2", "Bd7", "Nc3", "Nc6"]
SHUFFLE = ["Rd1", "Rd8", "Ra1", "Ra8"] * 3


class DrawWithMove(GamesTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.game_server()
        self.w = self.guest_player(self.srv)
        self.b = self.guest_player(self.srv)
        self.n, _ = self.start_match(self.w, self.b, "5 0")
        self.play_moves(self.w, self.b, OPENING + SHUFFLE)

    def test_spanish_claim_reads_the_move_as_spanish(self):
        self.assertIn(b"Language set to Spanish.", self.cmd(self.w, "set lang Spanish"))
        # To a Spanish player R is the king (rey): Kd1 repeats nothing.
        self.assertEqual(self.cmd(self.w, "draw Rd1"), b"After Rd1 you could not claim a draw.\n\r")
        self.assertNotIn(b"<12>", self.b.read_for(0.3))
        # T (torre) is the rook: the claimed position is the one on the board.
        self.w.send_line("draw Td1")
        d = self.expect12(self.b)
        self.assertEqual(d["san"], "Rd1")
        want = fen_after(OPENING + SHUFFLE + ["Rd1"]).split(" ")[0]
        self.assertEqual(board_fen_part(d), want)
        for c in (self.w, self.b):
            self.assertEqual(self.end_line(c), (self.n, self.w.name, self.b.name,
                                                "Game drawn by repetition", "1/2-1/2"))

    def test_claim_by_coordinates(self):
        self.w.send_line("draw a1d1")
        d = self.expect12(self.b)
        self.assertEqual(d["san"], "Rd1")
        self.assertEqual(self.end_line(self.b)[3], "Game drawn by repetition")

    def test_king_move_is_no_claim_in_english(self):
        self.assertEqual(self.cmd(self.w, "draw Kd1"), b"After Kd1 you could not claim a draw.\n\r")
        self.assertEqual(self.cmd(self.w, "draw Kd2"), b"Illegal move (Kd2).\n\r")
        self.move(self.w, self.b, "Kd1", san="Kd1")


if __name__ == "__main__":
    main()
