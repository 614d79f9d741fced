"""Moves typed with Spanish piece letters ("set lang Spanish").

A move is read in the player's language only: "Rf1" is the king (rey) to a
Spanish player, and is illegal when f1 is attacked, even though the rook
could go there; two knights that reach d2 make "Cd2" ambiguous, not illegal.
English letters still work for text that is no Spanish move ("Nbd2"), and
clients always see English SAN.
"""
from games_harness import GT, GamesTestCase, main

# After these, Black's bishop on a6 covers f1 and the white squares to it;
# g1 and f1 are empty, the pawn has left d2: both knights reach d2.
OPENING = ["e4", "b6", "Nf3", "Ba6", "g3", "Nc6", "Bg2", "Nf6", "d4", "e6"]


class SpanishMovesTest(GamesTestCase):

    def test_read_in_the_players_language_only(self):
        srv = self.game_server()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        self.assertIn(b"Language set to Spanish.", self.cmd(w, "set lang Spanish"))
        self.start_match(w, b, "5 0")
        self.play_moves(w, b, OPENING)

        out = self.cmd(w, "Rf1")
        self.assertIn(b"Illegal move (Rf1).", out)
        self.assertNotIn(b"<12>", out)
        out = self.cmd(w, "Cd2")
        self.assertIn(b"Ambiguous move (Cd2).", out)
        self.assertNotIn(b"<12>", out)
        # The rook is T; the board goes out in English.
        d = self.move(w, b, "Tf1", san="Rf1")
        self.assertEqual(d["verbose"], "R/h1-f1")
        self.move(b, w, "Be7")
        # English letters: no Spanish move reads "Nbd2", so it is the knight.
        self.move(w, b, "Nbd2", san="Nbd2")
        self.move(b, w, "O-O")
        # D, A and C.
        self.move(w, b, "De2", san="Qe2")
        self.move(b, w, "h6")
        self.move(w, b, "Ah3", san="Bh3")
        self.move(b, w, "g6")
        self.move(w, b, "Ch4", san="Nh4")
        # Spanish letters are no move for an English player.
        out = self.cmd(b, "Cb4")
        self.assertNotIn(b"<12>", out)
        self.assertIn(b"Cb4", out)


if __name__ == "__main__":
    main()
