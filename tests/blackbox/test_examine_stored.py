#!/usr/bin/env python3
"""Examining stored games: a game from history by the number history shows
(as smoves numbers it), an adjourned game (which stays adjourned), and
lessons with several examiners (mexamine), where an examiner who leaves
hands the board to the next."""
import re

from chessd_harness import db_rows
from games_harness import GamesTestCase, parse12, main, GT


def board(out):
    m = re.search(rb"<12> ([^\n\r]*)", out)
    return parse12(m.group(1)) if m else None


def boards(out):
    return [parse12(m.group(1)) for m in re.finditer(rb"<12> ([^\n\r]*)", out)]


class StoredBase(GamesTestCase):
    CONFIG = {"commands_per_sec": 1000, "command_burst": 1000}

    def setUp(self):
        super().setUp()
        self.srv = self.new_server(config=self.CONFIG, tls=False)
        for n in ("alice", "bob"):
            self.srv.useradd(n, n + "pw1")
        self.srv.start()
        self.a = self.user_player(self.srv, "alice", "alicepw1")
        self.b = self.user_player(self.srv, "bob", "bobpw1")
        self.a.name, self.b.name = "alice", "bob"
        self.coach = self.guest_player(self.srv)

    def games_rows(self):
        return db_rows(self.srv.db_path, "SELECT id, status FROM games ORDER BY id")


class Stored(StoredBase):
    def test_history_game_forward_backward_revert(self):
        a, b, c = self.a, self.b, self.coach
        self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["f3", "e5", "g4", "Qh4#"])
        self.end_line(a)
        self.cmd(a, "date")
        rows = self.games_rows()
        self.assertIn(b"Qh4#", self.cmd(c, "smoves alice 0"))
        out = self.cmd(c, "examine alice 0")
        self.assertIn(b"Starting a game in examine mode: alice vs. bob, 4 moves stored.", out)
        d = board(out)
        number = d["game"]
        self.assertEqual((d["white"], d["black"], d["relation"], d["verbose"]),
                         ("alice", "bob", 2, "none"))
        self.assertEqual((d["initial"], d["increment"], d["wclock"], d["bclock"], d["ticking"]),
                         (5, 0, 300000, 300000, 0))
        out = self.cmd(c, "forward 999")
        self.assertIn(("Game %d: %s goes forward 4 moves." % (number, c.name)).encode(), out)
        d = board(out)
        self.assertEqual((d["san"], d["relation"]), ("Qh4#", 2))
        # The clocks as the stored game had them after each side's last move.
        self.assertLessEqual(d["wclock"], 300000)
        self.assertGreater(d["wclock"], 200000)
        self.assertRegex(out, (r"Game %d: \{[^}]*\} 0-1" % number).encode())
        self.assertIn(b"White has been checkmated.", out)
        # Back up, try another line (it replaces the rest), then revert.
        self.cmd(c, "backward 2")
        self.assertIn(b"moves: d4", self.cmd(c, "d4"))
        self.assertIn(("Game %d: End of game." % number).encode(), self.cmd(c, "forward"))
        out = self.cmd(c, "revert")
        self.assertIn(("Game %d: %s reverts to mainline." % (number, c.name)).encode(), out)
        self.assertEqual(board(out)["san"], "e5")
        self.assertEqual(board(self.cmd(c, "forward 2"))["san"], "Qh4#")
        # pgn of the examined game: the line as it stands.
        self.cmd(c, "backward 1")
        pgn = self.cmd(c, "pgn")
        self.assertIn(b'[White "alice"]', pgn)
        self.assertRegex(pgn, rb"1\. f3 [^\n]*1\.\.\. e5 [^\n]*2\. g4 [^\n*]*\*")
        self.assertNotIn(b"Qh4", pgn)
        self.assertIn(b"alice has no such game.", self.cmd(self.guest_player(self.srv),
                                                           "examine alice 7"))
        self.cmd(c, "unexamine")
        # Examining stored nothing: the same games, as they were.
        self.assertEqual(self.games_rows(), rows)

    def test_adjourned_game_stays_adjourned(self):
        a, b, c = self.a, self.b, self.coach
        self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["e4", "e5", "Nf3"])
        a.send_line("adjourn")
        b.expect(b"alice would like to adjourn", GT)
        b.send_line("adjourn")
        self.end_line(a)
        self.cmd(a, "date")
        self.assertIn(b"There is no adjourned game between alice and nobody.",
                      self.cmd(c, "examine alice nobody"))
        out = self.cmd(c, "examine alice bob")
        self.assertIn(b"alice vs. bob, 3 moves stored.", out)
        number = board(out)["game"]
        d = board(self.cmd(c, "forward 3"))
        self.assertEqual((d["san"], d["side"]), ("Nf3", "B"))
        self.assertNotIn(b"End of game", self.cmd(c, "Nc6"))
        self.cmd(c, "unexamine")
        self.assertEqual([s for _, s in self.games_rows()], ["adjourned"])
        # Its players examine it too (alone: the game with that opponent), and then
        # cannot resume it until they stop.
        out = self.cmd(a, "examine bob")
        self.assertIn(b"alice vs. bob, 3 moves stored.", out)
        self.assertIn(b"alice is examining a game.", self.cmd(b, "resume alice"))
        self.cmd(a, "unexamine")
        self.assertIn(b"There is no such game.", self.cmd(c, "observe %d" % number))

    def test_mexamine_and_hand_over(self):
        c = self.coach
        pupil = self.guest_player(self.srv)
        other = self.guest_player(self.srv)
        number = board(self.cmd(c, "examine"))["game"]
        self.assertIn(b'No user named "zzzq" is logged in.', self.cmd(c, "mexamine zzzq"))
        self.assertIn(("%s must observe the game you are analysing." % pupil.name).encode(),
                      self.cmd(c, "mexamine %s" % pupil.name))
        # Observing by the examiner's name finds the examined board.
        self.assertEqual(board(self.cmd(pupil, "observe %s" % c.name))["relation"], -2)
        self.cmd(other, "observe %d" % number)
        out = self.cmd(c, "mexamine %s" % pupil.name)
        self.assertIn(("%s is now examiner of game %d." % (pupil.name, number)).encode(), out)
        self.expect_line(pupil, re.escape("Removing game %d from observation list." % number))
        self.expect_line(pupil, re.escape("%s has made you an examiner of game %d."
                                          % (c.name, number)))
        self.assertEqual(self.expect12(pupil)["relation"], 2)
        self.assertIn(("%s must observe the game you are analysing." % pupil.name).encode(),
                      self.cmd(c, "mexamine %s" % pupil.name))
        # The pupil moves; the coach (2) and the observer (-2) see it.
        out = self.cmd(pupil, "e4")
        self.assertEqual(board(out)["relation"], 2)
        self.assertEqual(self.expect12(c, san="e4")["relation"], 2)
        self.expect_line(c, re.escape("%s moves: e4" % pupil.name))
        self.assertEqual(self.expect12(other, san="e4")["relation"], -2)
        self.assertIn(("Examining  %d (scratch): #%s(U) #%s(U) %s(U) (1 user)"
                       % (number, c.name, pupil.name, other.name)).encode(),
                      self.cmd(other, "allobservers %d" % number))
        # The coach leaves: the pupil keeps the board, the observer stays.
        self.cmd(c, "unexamine")
        self.expect_line(pupil, re.escape("%s stopped examining game %d." % (c.name, number)))
        self.expect_line(other, re.escape("Game %d is now examined by %s." % (number, pupil.name)))
        self.assertEqual(board(self.cmd(pupil, "e5"))["san"], "e5")
        self.assertEqual(self.expect12(other, san="e5")["relation"], -2)



class StoredCap(StoredBase):
    """A stored game longer than examine_plies is loaded up to it, without its result."""
    CONFIG = dict(StoredBase.CONFIG, examine_plies=3)

    def test_longer_game_is_loaded_up_to_the_cap(self):
        a, b, c = self.a, self.b, self.coach
        self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["f3", "e5", "g4", "Qh4#"])
        self.end_line(a)
        self.cmd(a, "date")
        self.assertIn(b"alice vs. bob, 3 moves stored.", self.cmd(c, "examine alice -1"))
        out = self.cmd(c, "forward 999")
        self.assertEqual(board(out)["san"], "g4")
        self.assertNotRegex(out, rb"\{[^}]*\} 0-1")


if __name__ == "__main__":
    main()
