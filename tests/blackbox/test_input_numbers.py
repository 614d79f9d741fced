#!/usr/bin/env python3
"""Numbers a client sends: read by one checked parser, so a huge or negative
number gets one clear line and never wraps into something else."""
import re

from chessd_harness import ChessdTestCase, main

RANGE = "%s: %s is not a number from 0 to 2147483647."


class Numbers(ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.start_server(tls=False)
        self.srv.useradd("alice", "secret1", admin=True)
        self.a = self.user(self.srv, "alice", "secret1")

    def reply(self, line):
        out = self.a.command(line)
        self.assertTrue(out.endswith(b"\n\rfics% "), out)
        return out[:-len(b"\n\rfics% ")].decode()

    def assert_alive(self):
        self.assertIn("Server time", self.reply("date"))
        fresh = self.guest(self.srv)
        self.assertIn(b"Server time", fresh.command("date"))

    def test_pgn_int_max_is_no_game(self):
        # INT_MAX itself is a number; the game after it must not wrap to "every game".
        self.assertEqual(self.reply("pgn alice 2147483647"), "alice has no such game.")
        # Record numbers are history's: any other number names no game.
        self.assertEqual(self.reply("pgn alice 2147483648"), "alice has no such game.")
        self.assertEqual(self.reply("pgn alice -1"), "alice has no such game.")
        self.assertEqual(self.reply("pgn alice 99999999999999999999999"),
                         "alice has no such game.")
        self.assertEqual(self.reply("pgn alice 12x"), '"12x" is not a game number from history.')
        self.assert_alive()

    def test_numbered_arguments(self):
        cases = [
            ("play 99999999999999999999", RANGE % ("play", "99999999999999999999")),
            ("play -5", RANGE % ("play", "-5")),
            ("play 4294967297", RANGE % ("play", "4294967297")),
            ("unseek 2147483648", RANGE % ("unseek", "2147483648")),
            ("unseek -1", RANGE % ("unseek", "-1")),
            ("takeback -1", RANGE % ("takeback", "-1")),
            ("takeback 4294967298", RANGE % ("takeback", "4294967298")),
            ("oldmoves alice 9999999999", "alice has no such game."),
            ("smoves alice -3", "alice has no such game."),
            ("oldmoves alice 2147483647", "alice has no such game."),
            ("style 4294967308", RANGE % ("style", "4294967308")),
            ("style 12x", "Usage: style <1-12>"),
            ("play 1e3", "Usage: play <number>"),
        ]
        for line, want in cases:
            with self.subTest(line=line):
                self.assertEqual(self.reply(line), want)
        self.assert_alive()

    def test_games_and_channels_by_number(self):
        cases = [
            ("observe 99999999999999999999", "There is no such game."),
            ("observe 4294967297", "There is no such game."),
            ("observe -1", "-1 is not a valid game number."),
            ("observe -99999999999999999999", "There is no such game."),
            ("moves 18446744073709551617", "There is no such game."),
            ("+channel 4294967297", "The channel number must be from 0 to 255."),
            ("+channel -1", "The channel number must be from 0 to 255."),
            ("accept 4294967297", "You have no offers to accept."),
            ("tourney show 4294967297", "There is no tourney 4294967297."),
            ("tourney show -1", "There is no tourney -1."),
            ("set time 99999999999", "Bad value given for variable time (0 to 1440)."),
            ("set time -99999999999999999999", "Bad value given for variable time (0 to 1440)."),
            ("adjudicate 99999999999999999999 1-0",
             "There is no adjourned game 99999999999999999999."),
            ("adjudicate -1 1-0", "There is no adjourned game -1."),
        ]
        for line, want in cases:
            with self.subTest(line=line):
                self.assertEqual(self.reply(line), want)
        self.assert_alive()

    def test_seek_rating_range(self):
        for bad in ("0-99999999999", "4294967296-4294968296", "-5-100", "1500-1400"):
            with self.subTest(range=bad):
                out = self.reply("seek 5 0 %s" % bad)
                self.assertTrue(out.startswith('I don\'t understand "%s".' % bad), out)
        self.assertIn("Your seek has been posted", self.reply("seek 5 0 1000-2000"))
        self.assert_alive()

    def test_clock_and_tourney_numbers(self):
        g = self.guest(self.srv)
        cases = [
            ("match %s 99999999999 0 u" % g.name, "period 1: more than 1440 minutes"),
            ("match %s 2147483647 2147483647 u" % g.name, "period 1: more than 1440 minutes"),
            ("match %s 5 -99999999999999999999 u" % g.name,
             'I don\'t understand "-99999999999999999999".'),
            ("seek 99999999999 0", "period 1: more than 1440 minutes"),
            ("seek 5 4294967296", "increment over 600 seconds"),
            ("tourney create Cup rr 4294967297 5 0", "Usage: tourney create"),
            ("tourney create Cup swiss 1 99999999999999 0", "Usage: tourney create"),
            ("tourney bye 4294967297 1", "There is no tourney 4294967297."),
        ]
        for line, want in cases:
            with self.subTest(line=line):
                out = self.reply(line)
                self.assertTrue(out.startswith(want), out)
        self.assertNotIn(b"Challenge:", g.read_for(0.2))
        self.assert_alive()

    def test_block_mode_number(self):
        self.assertIn("set", self.reply("iset block 1"))
        self.a.send_line("99999999999999999999 date")
        self.a.expect(b"\x15" + b"0\x16" + str(519).encode() + b"\x16Block mode needs a command number first.")
        self.a.send_line("2147483647 date")
        self.a.expect(re.compile(rb"\x152147483647\x16\d+\x16Local time"))


if __name__ == "__main__":
    main()
