#!/usr/bin/env python3
"""finger of an online player says what they are doing, as lasker's
com_stats does and pychess's FingerManager reads: "(playing game N: w vs.
b)", "(Examining game N: ...)", "(Setting up game N: ...)" and the busy
string "(alice at lunch)"; not lasker's "alice is observing game N.", at
which pychess would stop reading.  The finger is fed to the installed
pychess (test_conformance_pychess's oracle), which must read the rating
table ("rating RD win loss draw total best", as lasker heads it) and the
notes after it."""
import re

import test_conformance_pychess as pychess_oracle
from games_harness import GamesTestCase, main

PW = "fingerdo1"


class FingerDoing(GamesTestCase):

    def finger_read(self, asker, name):
        """finger name in block mode: its body, and pychess's onFinger events for it."""
        asker.send_line("iset block 1")
        asker.expect(b"block set.\n\rfics% ")
        start = len(asker.seen)
        asker.send_line("1 finger %s" % name)
        asker.expect(re.compile(rb"\x151\x16\d+\x16(.*?)\x17", re.S))
        body = asker.match.group(1)
        got = pychess_oracle.ask_pychess({"asker": asker.seen[start:]})["transcripts"]["asker"]
        return body, pychess_oracle.handlers(got, "onFinger")

    def test_playing_examining_busy(self):
        srv = self.game_server(start=False)
        srv.useradd("wanda", PW)
        srv.start()
        w = self.user_player(srv, "wanda", PW)
        b, e, o, asker = (self.guest_player(srv) for _ in range(4))
        n, _ = self.start_match(w, b, "5 0")
        self.assertIn(b"(playing game %d: wanda vs. %s)\n\r" % (n, b.name.encode()),
                      self.cmd(asker, "finger wanda"))
        self.assertIn(b"examine (scratch) mode", self.cmd(e, "examine"))
        m = n + 1
        self.assertIn(b"(Examining game %d: %s vs. %s)\n\r" % (m, e.name.encode(), e.name.encode()),
                      self.cmd(asker, "finger %s" % e.name))
        self.cmd(e, "unexamine")
        self.assertIn(b"examine (setup) mode", self.cmd(e, "examine setup"))
        self.assertIn(b"(Setting up game ", self.cmd(asker, "finger %s" % e.name))
        self.assertIn(b"Your \"busy\" string was set to \" is at lunch\"", self.cmd(w, "set busy is at lunch"))
        body, fingers = self.finger_read(asker, "wanda")
        self.assertIn(b"(wanda is at lunch)\n\r", body)
        # pychess reads the finger to its end: the rating table and the last line.
        self.assertEqual(len(fingers), 1, fingers)
        lines = fingers[0]["lines"]
        self.assertIn("(playing game %d: wanda vs. %s)" % (n, b.name), lines)
        self.assertIn("(wanda is at lunch)", lines)
        self.assertIn("wanda has not played any rated games.", lines)

    def test_pychess_reads_the_rating_table(self):
        srv = self.game_server(start=False)
        srv.useradd("wanda", PW)
        srv.useradd("bert", PW)
        srv.start()
        w = self.user_player(srv, "wanda", PW)
        b = self.user_player(srv, "bert", PW)
        asker = self.guest_player(srv)
        self.start_match(w, b, "5 0 rated")
        self.play_moves(w, b, ["e4", "e5"])
        self.assertIn(b"resigns", self.cmd(b, "resign"))
        self.end_line(w)
        body, fingers = self.finger_read(asker, "wanda")
        self.assertIn(b"         rating     RD     win   loss   draw  total   best\n\r", body)
        self.assertRegex(body, rb"\n\rBlitz     \d{4}P?    \d{3}\.\d   +1   +0   +0   +1\n\r")
        lines = fingers[0]["lines"]
        self.assertIn("rating     RD     win   loss   draw  total   best", [x.strip() for x in lines])
        self.assertTrue([x for x in lines if x.startswith("Blitz")], lines)

    def test_an_observer_is_read_to_the_notes(self):
        srv = self.game_server(start=False)
        srv.useradd("otto", PW)
        srv.start()
        w, b = self.guest_player(srv), self.guest_player(srv)
        o = self.user_player(srv, "otto", PW)
        n, _ = self.start_match(w, b, "5 0")
        self.assertIn(b"You are now observing game %d." % n, self.cmd(o, "observe %d" % n))
        self.cmd(o, "set 1 ask me about the Najdorf")
        asker = self.guest_player(srv)
        body, fingers = self.finger_read(asker, "otto")
        self.assertNotIn(b"is observing", body)
        lines = fingers[0]["lines"]
        self.assertIn("otto has not played any rated games.", lines)
        self.assertIn("1: ask me about the Najdorf", lines)


if __name__ == "__main__":
    main()
