#!/usr/bin/env python3
"""Finger notes (set 1 .. set 10, shown under finger and kept), ping/lag
(the round trip as the server sees it: timeseal's pings when the client
speaks timeseal, the kernel's TCP measurement otherwise), and assess (the
Glicko-2 change of a win, draw and loss, in FICS's layout, read by
pychess's own SeekManager pattern)."""
import math
import random
import re
import sqlite3
import time

from chessd_harness import ChessdTestCase, main
from test_conformance_pychess import ask_pychess, handlers

PW = "secret1"
TS_KEY = b"Timestamp (FICS) v1.0 - programmed by Henrik Gram."


def timeseal(text, stamp):
    """One line encoded as a timeseal v1 client sends it (the scheme in server/timeseal.h)."""
    buf = bytearray(text.encode() + b"\x18%d\x19" % stamp)
    buf += b"x" * (12 - len(buf) % 12)
    for i in range(0, len(buf), 12):
        for a, b in ((0, 11), (2, 9), (4, 7)):
            buf[i + a], buf[i + b] = buf[i + b], buf[i + a]
    offset = random.randrange(len(TS_KEY))
    for i in range(len(buf)):
        buf[i] = ((buf[i] | 0x80) ^ TS_KEY[(i + offset) % len(TS_KEY)]) - 32
    return bytes(buf) + bytes([0x80 | offset]) + b"\n"


def glicko2_game(me, them, score, tau=0.5):
    """Glickman's Glicko-2 for one game, written from the paper: (rating, rd, vol)."""
    s = 173.7178
    mu, phi, sigma = (me[0] - 1500) / s, me[1] / s, me[2]
    mu_j, phi_j = (them[0] - 1500) / s, them[1] / s
    g = 1 / math.sqrt(1 + 3 * phi_j ** 2 / math.pi ** 2)
    e = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g ** 2 * e * (1 - e))
    delta = v * g * (score - e)
    a = math.log(sigma ** 2)

    def f(x):
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
                - (x - a) / tau ** 2)
    lo = a
    if delta ** 2 > phi ** 2 + v:
        hi = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    lo, hi = a, hi
    fa, fb = f(lo), f(hi)
    while abs(hi - lo) > 1e-6:
        c = lo + (lo - hi) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            lo, fa = hi, fb
        else:
            fa /= 2
        hi, fb = c, fc
    new_sigma = math.exp(lo / 2)
    phi_star = math.sqrt(phi ** 2 + new_sigma ** 2)
    new_phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    new_mu = mu + new_phi ** 2 * g * (score - e)
    return new_mu * s + 1500, max(30.0, min(350.0, new_phi * s))


def shown(r):
    return int(math.floor(r + 0.5))


class FingerPingAssess(ChessdTestCase):
    def server(self, ratings=()):
        srv = self.new_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                              tls=False)
        for n in ("alice", "bob"):
            srv.useradd(n, PW)
        if ratings:
            srv.start()
            srv.stop()
            con = sqlite3.connect(srv.db_path)
            for name, cat, r, rd, vol in ratings:
                con.execute("INSERT INTO ratings (user_id, category, rating, rd, volatility, wins,"
                            " losses, draws) SELECT id, ?, ?, ?, ?, 3, 2, 1 FROM users "
                            "WHERE name = ?", (cat, r, rd, vol, name))
            con.commit()
            con.close()
        srv.start()
        return srv

    def test_finger_notes_set_shown_and_kept(self):
        srv = self.server()
        a = self.user(srv, "alice", PW)
        self.assertEqual(a.command("set 1 I play the Najdorf"),
                         b"Plan variable 1 changed to 'I play the Najdorf'.\n\rfics% ")
        a.command("set 2 Tuesdays only")
        # Past the last note: it goes at the end, numbered as shown.
        self.assertEqual(a.command("set 7 say hi"),
                         b"Plan variable 3 changed to 'say hi'.\n\rfics% ")
        self.assertIn(b"alice has not played any rated games.\n\r\n\r 1: I play the Najdorf\n\r 2: Tuesdays only\n\r"
                      b" 3: say hi\n\r\n\rRegistered player.\n\r", a.command("finger"))
        self.assertEqual(a.command("set 2"), b"Plan variable 2 cleared.\n\rfics% ")
        self.assertEqual(a.command("set 11 x"), b"No such variable name 11.\n\rfics% ")
        a.close()
        srv.stop()
        srv.start()
        b = self.user(srv, "bob", PW)
        self.assertIn(b"\n\r\n\r 1: I play the Najdorf\n\r 2: say hi\n\r\n\rRegistered player.",
                      b.command("finger alice"))
        self.assertNotIn(b" 1: ", b.command("finger bob"))
        # pychess sends "set N TEXT" and reads the notes back from finger's lines.
        b.send_line("iset block 1")
        b.expect(b"block set.\n\rfics% ")
        b.send_line("1 finger alice")
        b.expect(b"\x17\n\rfics% ")
        got = ask_pychess(transcripts={"finger": b.seen})["transcripts"]["finger"]
        fired = handlers(got, "onFinger")[-1]        # the block-mode one
        self.assertIn("1: I play the Najdorf", [x.strip() for x in fired["lines"]], got)
        self.assertIn("2: say hi", [x.strip() for x in fired["lines"]])
        g = self.guest(srv)
        self.assertEqual(g.command("set 1 hello"),
                         b"Only registered players can have finger notes.\n\rfics% ")

    def test_ping_plain_is_the_tcp_round_trip(self):
        srv = self.server()
        a = self.user(srv, "alice", PW)
        reply = a.command("ping")
        m = re.match(rb"Average ping time for alice is (\d+)ms\.\n\r\(the TCP round trip", reply)
        self.assertTrue(m, reply)
        self.assertLess(int(m.group(1)), 100)      # loopback
        self.assertEqual(a.command("lag nobody"), b"nobody isn't logged in.\n\rfics% ")

    def test_ping_timeseal_is_the_clients_round_trip(self):
        srv = self.server()
        ts = self.connect(srv)
        clock = 5000000
        ts.send_raw(timeseal("TIMESTAMP|test|Linux|", clock))
        ts.expect(b"login: ")
        ts.send_raw(timeseal("alice", clock))
        ts.expect(b"password: ")
        ts.send_raw(timeseal(PW, clock))
        ts.expect(b"**** Starting FICS session as alice ****")
        ts.expect_prompt()
        self.assertIn(b"[G]", ts.seen)      # the login ping; answered late, as lag would
        time.sleep(0.4)
        ts.send_raw(timeseal("\x029", clock + 400))
        ts.send_raw(timeseal("ping", clock + 400))
        reply = ts.expect(re.compile(rb"Average ping time for alice is (\d+)ms\.\n\r"
                                     rb"\(measured by timeseal pings\)"))
        self.assertGreaterEqual(int(ts.match.group(1)), 400, reply)
        self.assertLess(int(ts.match.group(1)), 5000, reply)
        # Others see the same figure.
        b = self.user(srv, "bob", PW)
        self.assertIn(b"Average ping time for alice is %sms." % ts.match.group(1),
                      b.command("ping alice"))

    def test_assess_is_glicko2_in_the_layout_pychess_reads(self):
        srv = self.server(ratings=[("alice", "blitz", 1720.4, 80.0, 0.06),
                                   ("bob", "blitz", 1560.0, 150.0, 0.06)])
        a = self.user(srv, "alice", PW)
        a.send_line("iset block 1")
        a.expect(b"block set.\n\rfics% ")
        a.send_line("1 assess alice bob /blitz")
        a.expect(re.compile(rb"\x151\x16(\d+)\x16(.*?)\x17\n\r", re.S))
        code, text = int(a.match.group(1)), a.match.group(2)
        self.assertEqual(code, 15)              # BLKCMD_ASSESS
        # FICS's centring: the title in 35 columns, each name in 17, after 7 blanks.
        self.assertRegex(text, rb"\n\r {22}Blitz\n\r {7} {6}alice {14}bob\n\r")
        alice, bob = (1720.4, 80.0, 0.06), (1560.0, 150.0, 0.06)
        want = {}
        for score, label in ((1, b"Win:"), (0.5, b"Draw:"), (0, b"Loss:")):
            ra, _ = glicko2_game(alice, bob, score)
            rb_, _ = glicko2_game(bob, alice, 1 - score)
            want[label] = (shown(ra) - shown(alice[0]), shown(rb_) - shown(bob[0]))
        for label, (da, db) in want.items():
            m = re.search(rb"\n\r +%s +(-?\d+) +(-?\d+)\n\r" % re.escape(label), text)
            self.assertTrue(m, text)
            self.assertEqual((int(m.group(1)), int(m.group(2))), (da, db), label)
        self.assertGreater(want[b"Win:"][0], 0)
        self.assertLess(want[b"Loss:"][0], 0)
        _, rd_a = glicko2_game(alice, bob, 0.5)
        m = re.search(rb"New RD: +(\d+\.\d)", text)
        self.assertAlmostEqual(float(m.group(1)), rd_a, delta=0.06)
        self.assertIn(b"(1720 RD  80.0)   (1560P RD 150.0)", text)
        # pychess's SeekManager reads it (its own pattern, in its own process).
        got = ask_pychess(transcripts={"assess": a.seen})["transcripts"]["assess"]
        fired = handlers(got, "on_assess")
        self.assertEqual(len(fired), 1, got)
        self.assertEqual(fired[0]["lines"][0].strip(), "Blitz")
        # No category: all three; errors in FICS's words.
        a.send_line("2 assess bob")
        a.expect(re.compile(rb"\x152\x1615\x16(.*?)\x17", re.S))
        both = a.match.group(1)
        for title in (b"Lightning", b"Blitz", b"Standard"):
            self.assertIn(title + b"\n\r", both)
        a.send_line("3 assess nobody bob")
        a.expect(b'No user named "nobody" was found.')
        a.send_line("4 assess alice alice")
        a.expect(b"You can't assess the same players.")
        a.send_line("5 assess alice bob /bughouse")
        a.expect(b"There is no game type bughouse.")


if __name__ == "__main__":
    main()
