#!/usr/bin/env python3
"""time [N] and switch.  "time", as lasker's com_time, shows both clocks
of one's game (or of game N, or of a player's) as "White (NAME) : M mins,
S secs".  "switch", as lasker's com_switch, is an offer the opponent
accepts: the colours change places, in the stored game too; games here
start at once, so it is refused once the first move is made, in the words
pychess reads ("You cannot switch sides once a game is underway.")."""
import re
import sqlite3

import test_conformance_pychess as pychess_oracle
from games_harness import LS, GamesTestCase, main, parse12


class SwitchTimeTest(GamesTestCase):

    def test_time_of_own_and_named_games(self):
        srv = self.game_server()
        w, b, o = self.guest_player(srv), self.guest_player(srv), self.guest_player(srv)
        n, _ = self.start_match(w, b, "3 0")
        self.move(w, b, "e2e4")
        d = self.move(b, w, "e7e5")
        black_s, white_s = d["bclock"] // 1000, d["wclock"] // 1000
        line = rb"White \(%s\) : (\d+) mins, (\d+) secs\n\rBlack \(%s\) : (\d+) mins, (\d+) secs\n\r"
        want = re.compile(line % (w.name.encode(), b.name.encode()))
        for c, arg in ((w, ""), (b, ""), (o, " %d" % n), (o, " " + w.name)):
            m = want.search(self.cmd(c, "time" + arg))
            self.assertIsNotNone(m, (c.name, arg))
            wmin, wsec, bmin, bsec = map(int, m.groups())
            self.assertEqual((bmin, bsec), divmod(black_s, 60))    # not to move: it stands
            self.assertIn(wmin * 60 + wsec, range(white_s - 3, white_s + 1))
            self.assertLess(bsec, 60)
        self.assertRegex(self.cmd(o, "time"), LS + rb"You are not playing a game\.\n\r\Z")
        self.assertIn(b"There is no such game.", self.cmd(o, "time 999"))
        self.assertIn(b"There is no such game.", self.cmd(o, "time -3") +
                      self.cmd(o, "time 99999999999999999999"))

    def test_switch_before_the_first_move_only(self):
        srv = self.game_server()
        w, b = self.guest_player(srv), self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        start = len(w.seen)
        self.assertIn(b"Switch request sent.", self.cmd(w, "switch"))
        self.expect_line(b, re.escape("%s would like to switch sides." % w.name))
        self.expect_line(b, re.escape('Type "accept" to switch sides, or "decline" to refuse.'))
        out = self.cmd(b, "accept")
        d = parse12(re.findall(rb"<12> ([^\n\r]*)\n\r", out)[-1])
        self.assertEqual((d["white"], d["black"], d["relation"]), (b.name, w.name, 1))
        # b plays White now; w's e2e4 is refused, b's is played.
        self.assertIn(b"It is not your move.", self.cmd(w, "e2e4"))
        self.move(b, w, "e2e4")
        con = sqlite3.connect(srv.db_path)
        try:
            row = con.execute("SELECT white, black FROM games ORDER BY id DESC LIMIT 1").fetchone()
        finally:
            con.close()
        self.assertEqual(row, (b.name, w.name))
        self.assertIn(b"White (%s)" % b.name.encode(), self.cmd(w, "time"))
        # Underway: refused, in pychess's words.
        self.assertIn(b"You cannot switch sides once a game is underway.", self.cmd(w, "switch"))
        self.assertIn(b"You are not playing a game.", self.cmd(self.guest_player(srv), "switch"))
        got = pychess_oracle.ask_pychess({"w": w.seen[start:]})["transcripts"]["w"]
        self.assertEqual(len([e for e in pychess_oracle.handlers(got, "<lambda>") if e["lines"] ==
                              ["You cannot switch sides once a game is underway."]]), 1, got)

    def test_switch_declined(self):
        srv = self.game_server()
        w, b = self.guest_player(srv), self.guest_player(srv)
        self.start_match(w, b, "5 0")
        self.cmd(w, "switch")
        self.expect_line(b, re.escape("%s would like to switch sides." % w.name))
        self.assertIn(b"You decline the switch sides request from %s." % w.name.encode(),
                      self.cmd(b, "decline"))
        self.expect_line(w, re.escape("%s declines the switch sides request." % b.name))
        self.move(w, b, "e2e4")

    def test_block_codes_are_pychess_ones(self):
        theirs = pychess_oracle.ask_pychess()["blkcmd"]
        srv = self.game_server()
        c = self.guest_player(srv)
        c.send_line("iset block 1")
        c.expect(b"block set.\n\rfics% ")
        for ident, (line, name) in enumerate((("pause", "PAUSE"), ("unpause", "UNPAUSE"),
                                              ("switch", "SWITCH"), ("moretime 5", "MORETIME"),
                                              ("time", "TIME")), 1):
            c.send_line("%d %s" % (ident, line))
            c.expect(re.compile(rb"\x15%d\x16(\d+)\x16(.*?)\x17" % ident, re.S))
            self.assertEqual(int(c.match.group(1)), theirs["BLKCMD_" + name], line)
            self.assertIn(b"You are not playing a game.", c.match.group(2))


if __name__ == "__main__":
    main()
