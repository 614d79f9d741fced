"""FICS texts clients parse, black box, where chessd used to deviate:
follow's observe header, gin, a registered player's match with a guest,
delay controls (never an increment to clients, kept in the record), the
`games` clock columns, `history` columns, and register in block mode.
The formats are lasker's (the FICS server source) byte for byte."""
import re

from games_harness import GT, LS, GamesTestCase, main, parse12

OBSERVE_HEADER = (rb"You are now observing game (\d+)\.\n\r"
                  rb"Game \1: (\w+) \(\S+\) (\w+) \(\S+\) (\w+) (\w+) (\d+) (\d+)\n\r"
                  rb"\n\r<12> ([^\n\r]*)\n\r")


class DeviationTest(GamesTestCase):

    def users(self, *names):
        srv = self.game_server()
        out = []
        for n in names:
            srv.useradd(n, n + "pw1")
            out.append(self.user_player(srv, n, n + "pw1"))
        return [srv] + out

    def test_follow_header_has_no_prompt_inside(self):
        srv, a, b = self.users("alice", "bob")
        f = self.guest_player(srv)
        self.cmd(f, "follow alice")
        self.start_match(a, b, "5 0 unrated")
        # the header and board arrive as one piece, like observe's
        f.expect(re.compile(LS + OBSERVE_HEADER), GT)
        self.assertEqual(f.match.group(2, 3), (b"alice", b"bob"))
        self.assertNotIn(b"fics% ", f.match.group(0)[6:])
        # following someone already playing: the same header as the command's reply
        g = self.guest_player(srv)
        out = self.cmd(g, "follow bob")
        self.assertRegex(out, rb"You will now be following bob's games\.\n\r" + OBSERVE_HEADER)

    def test_gin_announces_starts_and_ends(self):
        srv, a, b = self.users("alice", "bob")
        w = self.guest_player(srv)
        self.assertIn(b"You will now hear game results.", self.cmd(w, "set gin 1"))
        n, _ = self.start_match(a, b, "5 0 unrated")
        self.expect_line(w, re.escape("{Game %d (alice vs. bob) Creating unrated blitz match.}" % n))
        a.send_line("resign")
        self.expect_line(w, re.escape("{Game %d (alice vs. bob) alice resigns} 0-1" % n))
        # without gin, nothing
        self.cmd(w, "set gin 0")
        n2, _ = self.start_match(a, b, "5 0 unrated")
        a.send_line("resign")
        self.end_line(b)
        self.assertNotIn(b"{Game %d" % n2, w.read_for(0.5))

    def test_registered_player_matches_a_guest_unrated(self):
        srv, a = self.users("alice")
        g = self.guest_player(srv)
        self.assertIn(b"rated=1", self.cmd(a, "variables"))
        out = self.cmd(a, "match %s 5 0" % g.name)
        self.assertIn(b"Issuing: alice (----) %s (++++) unrated blitz 5 0." % g.name.encode(), out)
        # asking for rated makes it unrated too, as lasker's com_match does
        self.cmd(a, "withdraw")
        out = self.cmd(a, "match %s 5 0 rated" % g.name)
        self.assertIn(b"Issuing: alice (----) %s (++++) unrated blitz 5 0." % g.name.encode(), out)

    def test_delay_is_never_an_increment(self):
        srv, a, b = self.users("alice", "bob")
        n, got = self.start_match(a, b, "5d3 unrated")
        d = got["white"][3]
        self.assertEqual((d["initial"], d["increment"]), (5, 0), d["raw"])
        self.play_moves(a, b, ["e4", "e5"])
        out = self.cmd(a, "moves")
        self.assertIn(b"Unrated blitz match, initial time: 5 minutes, increment: 0 seconds.", out)
        self.assertRegex(self.cmd(a, "games"), rb"\[ bu  5   0\]")
        a.send_line("resign")
        self.end_line(b)
        hist = self.cmd(a, "history")
        self.assertRegex(hist, rb"\[ bu  5   0\]")
        out = self.cmd(a, "oldmoves alice")
        self.assertIn(b"initial time: 5 minutes, increment: 0 seconds.", out)
        # the record keeps the control
        pgn = self.cmd(a, "pgn alice 1") + self.cmd(a, "pgn alice 0")
        self.assertIn(b'[TimeControl "300"]', pgn)
        self.assertIn(b'[ChessdTimeControl "', pgn)

    def test_games_clocks_of_an_hour_or_more(self):
        srv, a, b = self.users("alice", "bob")
        self.start_match(a, b, "90 0 unrated")
        out = self.cmd(a, "games")
        # lasker: "%6s -%6s" of h:mm:ss
        self.assertRegex(out, rb"\[ su 90   0\] 1:(?:29:59|30:00) -1:30:00 \(39-39\) W:  1")

    def test_history_columns_and_numbers(self):
        srv, a, b = self.users("alice", "bob")
        self.start_match(a, b, "5 0 rated")
        self.play_moves(a, b, ["e4", "e5"])
        a.send_line("resign")
        self.end_line(b)
        out = self.cmd(a, "history")
        lines = [l for l in out.split(b"\n\r") if re.match(rb" *\d+: ", l)]
        self.assertEqual(len(lines), 1, out)
        # "%2d: %c %4d %c %4d %-13s [...]": plain numbers, fixed columns
        self.assertRegex(lines[0], rb"^ 0: - +\d{1,4} W +\d{1,4} bob           \[ br  5   0\] --- Res ")
        self.assertNotRegex(lines[0], rb"\d[PE] ")

    def test_register_in_block_mode_is_one_block(self):
        srv = self.game_server()
        g = self.guest_player(srv)
        g.send_line("iset block 1")
        g.expect(b"block set.\n\rfics% ", GT)
        other = self.guest_player(srv)
        g.send_line("7 register carol secret-pw1")
        # a tell while the password is hashed goes out on its own, never inside the block
        other.send_line("tell %s ping-while-hashing" % g.name)
        g.expect(re.compile(rb"\x157\x16(\d+)\x16(.*?)\x17\n\r(fics% )?", re.S), GT)
        body = g.match.group(2)
        self.assertNotIn(b"ping-while-hashing", body)
        self.assertEqual(int(g.match.group(1)), 0)      # register has no FICS code
        self.assertIn(b"You are now registered as carol.", body)
        self.assertNotIn(b"fics% ", body)
        rest = g.seen + g.read_for(0.5)
        self.assertIn(b"ping-while-hashing", rest)


if __name__ == "__main__":
    main()
