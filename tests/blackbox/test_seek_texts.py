"""seek, sought, play and unseek as lasker (seekproc.c, matchproc.c) and
the clients have them, byte for byte: the refusals of play and seek, what
the seeker and the answerer read when play starts the game (and that it
ends both players' seeks), sought's columns as lasker prints them and as
xboard's seek graph scans them, the <s> line of a player with no rating
(0P, which eboard shows as ++++), and unseek as pychess reads it (its own
handlers, through the oracle of test_conformance_pychess).
"""
import re

from games_harness import GT, LS, GamesTestCase, main
from test_conformance_pychess import ask_pychess, handlers

CREATED = re.compile(LS + rb"Creating: [^\n]*\n\r\{Game \d+ [^\n]*\}\n\r\n\r<12> ")

# xboard's MatchSoughtLine: sscanf "%d %s %s %d %d rated %s" (or "unrated").
XBOARD_SOUGHT = re.compile(r"^\s*(\d+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(?:un)?rated\s+(\S+)")
# xboard's looking_at(* (*) seeking * * * * *"play *" to respond)): each * up to the next literal.
XBOARD_SEEKING = re.compile(r'^([^ ]*) \(([^)]*)\) seeking ([^ ]*) ([^ ]*) ([^ ]*) ([^ ]*) '
                            r'([^"]*)"play ([^"]*)" to respond\)$')


class SeekTextTest(GamesTestCase):

    def cmd(self, c, line, timeout=GT):
        """The reply alone: notices (each ending in a prompt) before it are cut off."""
        out = super().cmd(c, line, timeout)
        return out[out.rindex(b"fics% ") + 6:] if b"fics% " in out else out

    def post(self, c, terms):
        out = self.cmd(c, "seek %s" % terms)
        m = re.search(rb"Your seek has been posted with index (\d+)\.", out)
        self.assertTrue(m, out)
        return int(m.group(1))

    def test_refusals_of_play_and_seek(self):
        srv = self.game_server()
        srv.useradd("alice", "alicepw1")
        a = self.user_player(srv, "alice", "alicepw1")
        g, h = self.guest_player(srv), self.guest_player(srv)
        self.assertEqual(self.cmd(g, "play 77"),
                         b"ERROR: Either that game has already started or it is no longer "
                         b"available.\n\r")
        rated = self.post(a, "5 0 rated")
        self.assertEqual(self.cmd(g, "play %d" % rated),
                         b"ERROR: Unregistred users cannot play rated games.\n\r")
        self.assertEqual(self.cmd(a, "play %d" % rated),
                         b"ERROR: You cannot respond to your own seek ads\n\r")
        self.start_match(g, h)
        self.assertEqual(self.cmd(g, "seek 5 0"),
                         b"ERROR: You can't seek a game while you are playing one.\n\r")
        # What pychess reads as "not while examining", seek's answer too.
        self.assertIn(b"<12> ", self.cmd(a, "examine"))
        self.assertEqual(self.cmd(a, "seek 5 0"),
                         b"You cannot challenge while you are examining a game.\n\r")

    def test_play_tells_both_and_ends_both_players_seeks(self):
        srv = self.game_server()
        a, b, w = (self.guest_player(srv) for _ in range(3))
        for v in ("seekinfo", "seekremove"):
            self.cmd(w, "iset %s 1" % v)
        mine = self.post(a, "5 0")
        theirs = self.post(b, "3 0")
        w.expect(b"<s> %d " % theirs, GT)
        out = self.cmd(b, "play %d" % mine)
        self.assertTrue(out.startswith(b"You accept the challenge of %s.\n\r" % a.name.encode()), out)
        self.assertRegex(out, CREATED)
        self.expect_line(a, re.escape("%s accepts your challenge." % b.name))
        a.expect(CREATED, GT)
        gone = set()
        for _ in range(2):
            w.expect(re.compile(LS + rb"<sr> (\d+)\n\r"), GT)
            gone.add(int(w.match.group(1)))
        self.assertEqual(gone, {mine, theirs})
        self.assertEqual(self.cmd(w, "sought"), b"0 ads displayed.\n\r")

    def test_play_first_ends_both_players_offers(self):
        srv = self.game_server()
        a, b, c, d = (self.guest_player(srv) for _ in range(4))
        n = self.post(a, "5 0")
        self.cmd(a, "match %s 3 0" % c.name)      # a offers c
        self.cmd(d, "match %s 3 0" % a.name)      # d offers a
        self.cmd(b, "match %s 2 0" % c.name)      # b offers c
        for x in (a, c):
            x.expect(b"or propose different parameters.", GT)
        out = self.cmd(b, "play %d" % n)
        self.assertTrue(out.startswith(b"You withdraw the match offer to %s.\n\r"
                                       b"You accept the challenge of %s.\n\r"
                                       % (c.name.encode(), a.name.encode())), out)
        self.expect_line(a, re.escape("You withdraw the match offer to %s." % c.name))
        self.expect_line(a, re.escape("You decline the match offer from %s." % d.name))
        self.expect_line(a, re.escape("%s accepts your challenge." % b.name))
        self.expect_line(d, re.escape("%s declines the match offer." % a.name))
        a.expect(CREATED, GT)
        c.expect(re.compile(rb"withdraws the match offer\.\n\r(?:.|\n)*withdraws the match offer\."),
                 GT)
        for x in (a, b):
            self.assertIn(b"\n\r%s withdraws the match offer.\n\r" % x.name.encode(), c.seen)

    def test_sought_columns(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        one = self.post(a, "5 0")
        two = self.post(a, "2 12 white m")
        three = self.post(b, "40/90,30+30")
        out = self.cmd(b, "sought").decode()
        lines = out.split("\n\r")
        self.assertEqual(lines[:4], [
            "%3d ++++ %-17s   5   0 unrated blitz      0-9999" % (one, a.name),
            "%3d ++++ %-17s   2  12 unrated blitz      0-9999 [white] m" % (two, a.name),
            "%3d ++++ %-17s  90  30 unrated standard   0-9999 (40/90,30+30)" % (three, b.name),
            "3 ads displayed."], out)
        # xboard's seek graph scans each of them.
        scanned = [XBOARD_SOUGHT.match(x).groups() for x in lines[:3]]
        self.assertEqual([(s[0], s[2], s[3], s[4], s[5]) for s in scanned],
                         [(str(one), a.name, "5", "0", "blitz"), (str(two), a.name, "2", "12", "blitz"),
                          (str(three), b.name, "90", "30", "standard")])
        self.cmd(a, "unseek")
        self.assertEqual(self.cmd(b, "sought").decode(), lines[2] + "\n\r1 ad displayed.\n\r")

    def test_seek_lines_a_client_reads(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        self.cmd(b, "set seek 1")
        self.cmd(b, "iset seekinfo 1")
        n = self.post(a, "2 12")
        # No rating yet: 0P (eboard turns a 0 with P into ++++), titles 01 (unregistered).
        line = self.expect_line(b, r"<s> [^\n]*").group(1).decode()
        self.assertEqual(line, "<s> %d w=%s ti=01 rt=0P t=2 i=12 r=u tp=blitz c=? rr=0-9999 a=t f=f"
                         % (n, a.name))
        self.cmd(b, "iset seekinfo 0")
        self.post(a, "5 0")
        human = self.expect_line(b, r"[^\n]* seeking [^\n]*").group(1).decode()
        m = XBOARD_SEEKING.match(human)
        self.assertTrue(m, human)
        self.assertEqual(m.group(1, 2, 3, 4, 5, 6), (a.name, "++++", "5", "0", "unrated", "blitz"))
        # A club control: xboard still finds the numbers; people read the control.
        self.post(a, "40/90,30+30 m")
        human = self.expect_line(b, r"[^\n]* seeking [^\n]*").group(1).decode()
        m = XBOARD_SEEKING.match(human)
        self.assertTrue(m, human)
        self.assertEqual(m.group(3, 4, 5, 6, 7), ("90", "30", "unrated", "standard",
                                                  "(40/90,30+30) m ("))

    def test_unseek(self):
        srv = self.game_server()
        a = self.guest_player(srv)
        self.assertEqual(self.cmd(a, "unseek"), b"You have no active seeks.\n\r")
        # As pychess runs: block mode, seekinfo, seekremove, showownseek.
        a.send_line("iset block 1")
        a.expect(b"block set.\n\rfics% ", GT)
        for i, line in enumerate(["iset seekinfo 1", "iset seekremove 1", "iset showownseek 1",
                                  "seek 5 0", "seek 3 0", "unseek"], 1):
            a.send_line("%d %s" % (i, line))
            a.expect(b"\x15%d\x16" % i, GT)
            a.expect(b"\x17", GT)
        a.read_for(0.3)
        got = ask_pychess({"a": a.seen})["transcripts"]["a"]
        self.assertEqual(len(handlers(got, "on_seek_add")), 2, got)
        gone = handlers(got, "on_our_seeks_removed")
        self.assertEqual(len(gone), 1, got)
        self.assertEqual(sorted(gone[0]["groups"][0][0].split()), ["1", "2"])

    def test_pychess_reads_a_game_begun_by_play(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        for c in (a, b):
            c.send_line("iset block 1")
            c.expect(b"block set.\n\rfics% ", GT)
            c.send_line("1 iset seekinfo 1")
            c.expect(b"\x17", GT)
        a.send_line("2 seek 5 0")
        b.expect(b"<s> ", GT)
        n = int(re.search(rb"<s> (\d+)", b.seen).group(1))
        b.send_line("3 play %d" % n)
        b.expect(re.compile(rb"\x153\x16\d+\x16.*?<12> .*?\x17", re.S), GT)
        a.expect(b"<12> ", GT)
        a.read_for(0.3)
        got = ask_pychess({"a": a.seen, "b": b.seen})["transcripts"]
        for who in ("a", "b"):
            made = handlers(got[who], "onPlayGameCreated")
            self.assertEqual(len(made), 1, (who, got[who]))
            self.assertEqual(made[0]["groups"][0][5:], ["blitz", "5", "0"])


if __name__ == "__main__":
    main()
