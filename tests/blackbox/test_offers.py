"""Challenges, black box: the caps on pending offers, picking one of several
by number or by name, what a logout withdraws, rematch going through the
checks of match, and input left over from one pass of the loop.
"""
import re

from games_harness import FAST, GT, GamesTestCase, main


class OfferTest(GamesTestCase):

    def issue(self, a, b, terms="5 0"):
        out = self.cmd(a, "match %s %s" % (b.name, terms))
        self.assertIn(b"Issuing: ", out)
        b.expect(b"Challenge: ", GT)
        return out

    def test_offers_per_user_cap(self):
        srv = self.game_server({"offers_per_user": 2})
        a, b, c, d = (self.guest_player(srv) for _ in range(4))
        self.issue(a, b)
        self.issue(a, c)
        out = self.cmd(a, "match %s 5 0" % d.name)
        self.assertIn(b"You can have at most 2 pending offers; withdraw one first.\n\r", out)
        self.assertNotIn(b"Issuing", out)
        self.assertNotIn(b"Challenge", d.read_for(0.3))
        # A new offer to the same player replaces the old one: no cap in the way.
        self.assertIn(b"Updating match request to: ", self.cmd(a, "match %s 3 0" % b.name))
        # Others may still challenge a; a withdrawal makes room again.
        self.issue(d, a)
        self.assertIn(b"You withdraw the match offer to %s." % c.name.encode(),
                      self.cmd(a, "withdraw %s" % c.name))
        self.issue(a, d, "3 0")     # other terms than d's offer: it declines that one
        out = self.cmd(a, "pending")
        self.assertIn(b"You are offering %s a challenge" % b.name.encode(), out)
        self.assertIn(b"You are offering %s a challenge" % d.name.encode(), out)
        self.assertNotIn(c.name.encode(), out)

    def test_offers_total_cap(self):
        srv = self.game_server({"offers_total": 2})
        a, b, c = (self.guest_player(srv) for _ in range(3))
        self.issue(a, b)
        self.issue(b, c)
        out = self.cmd(c, "match %s 5 0" % a.name)
        self.assertIn(b"There are too many pending offers on the server; try again later.\n\r",
                      out)
        self.cmd(b, "withdraw")
        self.issue(c, a)

    def test_several_offers_picked_by_number_and_name(self):
        srv = self.game_server()
        a, b, c, d = (self.guest_player(srv) for _ in range(4))
        self.issue(b, a)
        self.issue(c, a)
        self.issue(d, a)
        self.assertIn(b"You have more than one offer to accept.\n\r"
                      b'Use "pending" to see them and "accept n" to choose which one.',
                      self.cmd(a, "accept"))
        out = self.cmd(a, "pending")
        numbers = dict((m.group(2).decode(), m.group(1).decode()) for m in re.finditer(
            rb" (\d+): (\w+) is offering a challenge", out))
        self.assertEqual(set(numbers), {b.name, c.name, d.name}, out)
        # By number, and a number that is someone else's is not ours to decline.
        self.assertIn(b"You decline the match offer from %s." % c.name.encode(),
                      self.cmd(a, "decline %s" % numbers[c.name]))
        self.expect_line(c, re.escape("%s declines the match offer." % a.name))
        self.assertIn(b'Out of range. Use "pending" to see the list of offers.',
                      self.cmd(b, "withdraw %s" % numbers[d.name]))
        self.assertIn(b'Out of range. Use "pending" to see the list of offers.',
                      self.cmd(a, "decline 99999"))
        self.assertIn(b'No user named "Nobody" is logged in.', self.cmd(a, "decline Nobody"))
        # By name, then the only one left needs no name.
        self.assertIn(b"You decline the match offer from %s." % b.name.encode(),
                      self.cmd(a, "decline %s" % b.name.lower()))
        a.send_line("accept")
        self.expect_line(d, re.escape("%s accepts your challenge." % a.name))
        d.expect(b"Creating: ", GT)

    def test_logout_withdraws_offers_both_ways(self):
        srv = self.game_server()
        a, b, c = (self.guest_player(srv) for _ in range(3))
        self.issue(a, b)
        self.issue(c, a)
        a.send_line("quit")
        a.expect_closed(GT)
        self.expect_line(b, re.escape("%s withdraws the match offer." % a.name))
        self.expect_line(c, re.escape("%s declines the match offer." % a.name))
        self.assertIn(b"There are no offers pending FROM other players.", self.cmd(b, "pending"))
        self.assertIn(b"There are no offers pending TO other players.", self.cmd(c, "pending"))
        # Nothing of a's is left behind: the same players can start afresh.
        self.issue(b, c)

    def test_lines_left_over_wait_for_the_next_pass(self):
        # One line a pass: a packet of many commands is still answered in
        # full and in order, nothing dropped or stuck.
        srv = self.game_server({"lines_per_pass": 1})
        a = self.guest_player(srv)
        a.send_raw(b"".join(b"echo%d\n" % i for i in range(40)))
        out = b""
        for i in range(40):
            out += a.expect(b"echo%d: Command not found." % i, GT)
        self.assertEqual([int(n) for n in re.findall(rb"echo(\d+): Command not found", out)],
                         list(range(40)))

    def test_lines_left_over_wait_for_the_next_pass_over_tls(self):
        # Reading stops while lines wait; TLS must not strand what OpenSSL
        # had already decrypted when it starts again.
        srv = self.start_server(config=dict(FAST, lines_per_pass=1))
        a = self.guest(srv, tls=True)
        a.send_raw(b"".join(b"echo%d\n" % i for i in range(100)))
        for i in range(100):
            a.expect(b"echo%d: Command not found." % i, GT)

    def play_and_resign(self, a, b):
        self.start_match(a, b, "5 0")
        a.send_line("resign")
        self.end_line(a)
        self.end_line(b)

    def test_rematch_respects_open(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        self.play_and_resign(a, b)
        self.cmd(b, "set open 0")
        out = self.cmd(a, "rematch")
        self.assertIn(b'Player "%s" is not open to match requests.' % b.name.encode(), out)
        self.assertNotIn(b"Issuing", out)
        self.assertNotIn(b"Challenge", b.read_for(0.3))
        self.cmd(b, "set open 1")
        # Colours swap: a had white.
        out = self.cmd(a, "rematch")
        self.assertIn(b"Issuing: %s (++++) [black] %s (++++) unrated blitz 5 0." % (
            a.name.encode(), b.name.encode()), out)

    def test_rematch_respects_the_caps_of_match(self):
        srv = self.game_server({"offers_per_user": 1})
        a, b, c = (self.guest_player(srv) for _ in range(3))
        self.play_and_resign(a, b)
        self.issue(a, c)
        self.assertIn(b"You can have at most 1 pending offers; withdraw one first.",
                      self.cmd(a, "rematch"))


if __name__ == "__main__":
    main()
