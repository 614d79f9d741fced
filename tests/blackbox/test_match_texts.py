"""match, accept, decline, withdraw and pending in lasker's words (its
matchproc.c and pending.c), byte for byte, with pychess's own parser
reading what it parses (the oracle of test_conformance_pychess): the
refusals of match, an offer updated or answered with new terms, a
counter-offer with the same terms accepting, the accept lines, the
choosing of one offer among several, the pending layout, and what the
other parties of a player's offers read when that player starts a game.
"""
import re

from games_harness import GT, LS, GamesTestCase, main
from test_conformance_pychess import ask_pychess, handlers

CREATED = re.compile(LS + rb"Creating: [^\n]*\n\r\{Game \d+ [^\n]*\}\n\r\n\r<12> ")


class MatchTextTest(GamesTestCase):

    def cmd(self, c, line, timeout=GT):
        """The reply alone: notices (each ending in a prompt) before it are cut off."""
        out = super().cmd(c, line, timeout)
        return out[out.rindex(b"fics% ") + 6:] if b"fics% " in out else out

    def offer(self, a, b, terms="5 0"):
        out = self.cmd(a, "match %s %s" % (b.name, terms))
        self.assertIn(b"Issuing: ", out)
        b.expect(b"or propose different parameters.", GT)
        return out

    def test_refusals_of_match(self):
        srv = self.game_server()
        a, b, c, d = (self.guest_player(srv) for _ in range(4))
        self.assertEqual(self.cmd(a, "match Nobody 5 0"), b'No user named "Nobody" is logged in.\n\r')
        self.cmd(b, "set open 0")
        self.assertEqual(self.cmd(a, "match %s 5 0" % b.name),
                         b'Player "%s" is not open to match requests.\n\r' % b.name.encode())
        self.cmd(b, "set open 1")
        self.start_match(c, d)
        self.assertEqual(self.cmd(a, "match %s 5 0" % c.name),
                         b'Player "%s" is involved in another game.\n\r' % c.name.encode())
        self.assertEqual(self.cmd(c, "match %s 5 0" % a.name),
                         b"You can't challenge while you are playing a game.\n\r")
        # A challenger closed to matches is opened by making one.
        self.cmd(a, "set open 0")
        out = self.cmd(a, "match %s 5 0" % b.name)
        self.assertTrue(out.startswith(b"Setting you open for matches.\n\rIssuing: "), out)
        self.assertIn(b"Issuing: ", self.cmd(b, "match %s 3 0" % a.name))

    def test_what_lasker_adds_to_a_challenge(self):
        srv = self.game_server()
        for n in ("alice", "bob", "Fish"):
            srv.useradd(n, n + "pw1")
        self.assertEqual(srv.admin_cmd("computer", "Fish", "on").returncode, 0)
        a, b = (self.user_player(srv, n, n + "pw1") for n in ("alice", "bob"))
        f = self.connect(srv)
        f.expect(b"login: ", GT)
        f.send_raw(b"Fish\nFishpw1\n")
        f.expect(b"**** Starting FICS session as Fish(C) ****", GT)
        f.expect_prompt(GT)
        # A rated offer: each side reads what the results would do to its rating,
        # as assess computes it.
        assess = self.cmd(a, "assess alice bob /blitz").decode()
        win, draw, loss = (int(re.search(r"%s:\s+(-?\d+)" % k, assess).group(1))
                           for k in ("Win", "Draw", "Loss"))
        rd = float(re.search(r"New RD:\s+([\d.]+)", assess).group(1))
        change = ("Your blitz rating will change:  Win: %+d,  Draw: %+d,  Loss: %+d\n\r"
                  "Your new RD will be %5.1f\n\r" % (win, draw, loss, rd)).encode()
        self.assertEqual(self.cmd(a, "match bob 5 0 rated"),
                         b"Issuing: alice (----) bob (----) rated blitz 5 0.\n\r" + change)
        b.expect(b"\n\rChallenge: alice (----) bob (----) rated blitz 5 0.\n\r" + change +
                 b'You can "accept" or "decline", or propose different parameters.', GT)
        # None for an unrated one; a computer is named as one to the other side.
        self.assertEqual(self.cmd(f, "match alice 5 0 unrated"),
                         b"Issuing: Fish (----) alice (----) unrated blitz 5 0.\n\r")
        a.expect(b"\n\rChallenge: Fish (----) alice (----) unrated blitz 5 0.\n\r"
                 b"--** Fish is a computer **--\n\r"
                 b'You can "accept" or "decline", or propose different parameters.', GT)
        self.assertEqual(self.cmd(b, "match Fish 5 0 unrated"),
                         b"Issuing: bob (----) Fish (----) unrated blitz 5 0.\n\r"
                         b"--** Fish is a computer **--\n\r")
        # Untimed is never rated, and says so.
        self.assertEqual(self.cmd(a, "match bob untimed rated"),
                         b"Game is untimed - reverting to unrated\n\r"
                         b'Updating offer already made to "bob".\n\r'
                         b"Updating match request to: alice (----) bob (----) unrated untimed 0 0.\n\r")
        self.cmd(a, "withdraw bob")
        # ropen 0: only games as rated as one's "rated" setting.
        self.cmd(b, "set ropen 0")
        self.cmd(b, "set rated 0")
        self.assertEqual(self.cmd(a, "match bob 5 0 rated"),
                         b"bob only wants to play unrated games.\n\r")
        self.expect_line(b, re.escape("Ignoring rated match request from alice."))
        self.assertIn(b"Issuing: ", self.cmd(a, "match bob 5 0 unrated"))

    def test_update_and_counter_offer(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        an, bn = a.name.encode(), b.name.encode()
        self.offer(a, b, "5 0")
        # The same challenger again: the offer is updated.
        self.assertEqual(self.cmd(a, "match %s 3 0" % b.name),
                         b'Updating offer already made to "%s".\n\r'
                         b"Updating match request to: %s (++++) %s (++++) unrated blitz 3 0.\n\r"
                         % (bn, an, bn))
        self.expect_line(b, re.escape("%s updates the match request.\n\rChallenge: "
                                      "%s (++++) %s (++++) unrated blitz 3 0." % (a.name, a.name,
                                                                               b.name)))
        self.assertNotIn(b"5 0", self.cmd(b, "pending"))
        # The other answers with other terms: theirs is declined, ours is made.
        self.assertEqual(self.cmd(b, "match %s 2 12" % a.name),
                         b"Declining offer from %s and offering new match parameters.\n\r"
                         b"Issuing: %s (++++) %s (++++) unrated blitz 2 12.\n\r" % (an, bn, an))
        self.expect_line(a, re.escape("%s declines your match offer a match with these "
                                      "parameters:\n\rChallenge: %s (++++) %s (++++) unrated "
                                      "blitz 2 12." % (b.name, b.name, a.name)))
        self.assertIn(b"There are no offers pending TO other players.", self.cmd(a, "pending"))
        # The same terms back accept the offer, in FICS's words (pychess's cue).
        out = self.cmd(a, "match %s 2 12" % b.name)
        self.assertTrue(out.startswith(b"Your challenge intercepts %s's challenge.\n\r" % bn), out)
        self.assertNotIn(b"Issuing", out)
        self.expect_line(b, re.escape("%s accepts your challenge." % a.name))
        b.expect(CREATED, GT)

    def test_counter_offer_with_colours(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        self.offer(a, b, "5 0 white")
        # Asking for the colour a asked for is other terms.
        self.assertIn(b"Declining offer from", self.cmd(b, "match %s 5 0 white" % a.name))
        a.expect(b"or propose different parameters.", GT)
        # Asking for the other colour is the same game.
        out = self.cmd(a, "match %s 5 0 black" % b.name)
        self.assertIn(b"Your challenge intercepts %s's challenge." % b.name.encode(), out)
        self.assertIn(b"Creating: %s (++++) %s (++++) unrated blitz 5 0" % (b.name.encode(),
                                                                          a.name.encode()), out)

    def test_accept_lines(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        self.offer(a, b)
        out = self.cmd(b, "accept")
        self.assertTrue(out.startswith(b"You accept the challenge of %s.\n\r" % a.name.encode()), out)
        self.expect_line(a, re.escape("%s accepts your challenge." % b.name))
        a.expect(CREATED, GT)

    def test_choosing_an_offer(self):
        srv = self.game_server()
        a, b, c = (self.guest_player(srv) for _ in range(3))
        self.assertEqual(self.cmd(a, "accept"), b"You have no offers to accept.\n\r")
        self.assertEqual(self.cmd(a, "decline"), b"You have no pending offers from other players.\n\r")
        self.assertEqual(self.cmd(a, "withdraw"), b"You have no pending offers to other players.\n\r")
        self.offer(b, a)
        self.offer(c, a)
        self.assertEqual(self.cmd(a, "accept"),
                         b"You have more than one offer to accept.\n\r"
                         b'Use "pending" to see them and "accept n" to choose which one.\n\r')
        self.assertEqual(self.cmd(a, "decline"),
                         b"You have more than one pending offer.\n\r"
                         b'Use "pending" to see them and "decline n" to choose which one.\n\r')
        self.assertEqual(self.cmd(a, "decline 99999"),
                         b'Out of range. Use "pending" to see the list of offers.\n\r')
        self.assertEqual(self.cmd(a, "accept Nobody"), b'No user named "Nobody" is logged in.\n\r')
        d = self.guest_player(srv)
        self.assertEqual(self.cmd(a, "accept %s" % d.name),
                         b"There are no pending offers from %s.\n\r" % d.name.encode())
        # b's offer is a's to decline, not b's to withdraw twice.
        self.cmd(b, "withdraw")
        e = self.guest_player(srv)
        self.offer(b, e)
        self.offer(b, d)
        self.assertEqual(self.cmd(b, "withdraw"),
                         b"You have more than one pending offer.\n\r"
                         b'Use "pending" to see them and "withdraw n" to choose which one.\n\r')
        self.assertEqual(self.cmd(b, "withdraw %s" % c.name),
                         b"There are no pending offers to %s.\n\r" % c.name.encode())

    def test_pending_layout(self):
        srv = self.game_server()
        a, b, c = (self.guest_player(srv) for _ in range(3))
        self.assertEqual(self.cmd(a, "pending"),
                         b"There are no offers pending TO other players.\n\r\n\r"
                         b"There are no offers pending FROM other players.\n\r")
        self.offer(a, b, "5 0 white")
        self.offer(c, a, "2 12")
        out = self.cmd(a, "pending").decode()
        ids = re.findall(r" (\d+): ", out)
        self.assertEqual(len(ids), 2, out)
        self.assertEqual(
            out,
            "Offers TO other players:\n\r"
            " %s: You are offering %s a challenge: %s (++++) [white] %s (++++) unrated blitz 5 0.\n\r"
            "\n\rIf you wish to withdraw any of these offers type 'withdraw n'\n\r"
            "or just 'withdraw' if there is only one offer.\n\r\n\r"
            "Offers FROM other players:\n\r"
            " %s: %s is offering a challenge: %s (++++) %s (++++) unrated blitz 2 12.\n\r"
            "\n\rIf you wish to accept any of these offers type 'accept n'\n\r"
            "or just 'accept' if there is only one offer.\n\r"
            % (ids[0], b.name, a.name, b.name, ids[1], c.name, c.name, a.name))

    def test_offers_of_a_player_starting_a_game(self):
        srv = self.game_server()
        a, b, c, d = (self.guest_player(srv) for _ in range(4))
        self.offer(a, c)            # a challenges c
        self.offer(d, a)            # d challenges a
        self.offer(a, b)
        b.send_line("accept")
        self.expect_line(c, re.escape("%s, who was challenging you, has joined a match with %s."
                                      % (a.name, b.name)))
        self.expect_line(d, re.escape("%s, whom you were challenging, has joined a match with %s."
                                      % (a.name, b.name)))
        a.expect(CREATED, GT)
        seen = a.seen.decode()
        self.assertIn("Challenge to %s withdrawn." % c.name, seen)
        self.assertIn("Challenge from %s removed." % d.name, seen)
        # Neither is told of the offer that became the game.
        self.assertNotIn("Challenge to %s withdrawn." % b.name, seen)
        for x in (c, d):
            self.assertIn(b"There are no offers pending", self.cmd(x, "pending"))

    def test_leaving_withdraws_and_declines(self):
        srv = self.game_server()
        a, b, c = (self.guest_player(srv) for _ in range(3))
        self.offer(a, b)
        self.offer(c, a)
        a.send_line("quit")
        a.expect_closed(GT)
        self.expect_line(b, re.escape("%s withdraws the match offer." % a.name))
        self.expect_line(c, re.escape("%s declines the match offer." % a.name))
        c.read_for(0.2)
        got = ask_pychess({"c": c.seen})["transcripts"]["c"]
        self.assertEqual([e["groups"][0] for e in handlers(got, "matchDeclined")], [[a.name]], got)

    def test_pychess_reads_the_flow(self):
        srv = self.game_server()
        srv.useradd("alice", "alicepw1")
        srv.useradd("bob", "bobpw1")
        a = self.user_player(srv, "alice", "alicepw1")
        b = self.user_player(srv, "bob", "bobpw1")
        for c in (a, b):
            c.send_line("iset block 1")
            c.expect(b"block set.\n\rfics% ", GT)
        block = iter(range(1, 1000))

        def bcmd(c, line):
            n = next(block)
            c.send_line("%d %s" % (n, line))
            c.expect(re.compile(rb"\x15%d\x16(\d+)\x16(.*?)\x17\n\r" % n, re.S), GT)
            return c.match.group(2)
        bcmd(b, "iset pendinfo 1")
        bcmd(a, "iset pendinfo 1")
        bcmd(a, "match bob 5 0 unrated")
        b.expect(b"<pf> ", GT)
        bcmd(a, "match bob 3 0 unrated")            # updated
        b.expect(b"updates the match request", GT)
        b.expect(b"<pf> ", GT)
        bcmd(b, "decline")
        a.expect(b"bob declines the match offer.", GT)
        bcmd(b, "match alice 2 12 unrated")
        a.expect(b"<pf> ", GT)
        reply = bcmd(a, "match bob 2 12 unrated")   # the same terms: the game
        self.assertIn(b"Your challenge intercepts bob's challenge.", reply)
        self.assertIn(b"<12> ", reply)
        b.expect(b"<12> ", GT)
        a.read_for(0.3)
        b.read_for(0.3)
        got = ask_pychess({"alice": a.seen, "bob": b.seen})["transcripts"]
        offers = [e["groups"][0] for e in handlers(got["bob"], "onOfferAdd")]
        self.assertEqual([(o[0], o[2], o[3]) for o in offers if o[0] == "f"],
                         [("f", "match", "alice (----) bob (----) unrated blitz 5 0"),
                          ("f", "match", "alice (----) bob (----) unrated blitz 3 0")])
        self.assertEqual(len(handlers(got["alice"], "matchDeclined")), 1, got["alice"])
        made = handlers(got["bob"], "onPlayGameCreated")
        self.assertEqual(len(made), 1, got["bob"])
        self.assertEqual(made[0]["groups"][0][5:], ["blitz", "2", "12"])
        # alice's game began in the reply to match: pychess reads it from the
        # intercept line on, its last four lines the game's start.
        cut = handlers(got["alice"], "onInterceptedChallenge")
        self.assertEqual(len(cut), 1, got["alice"])
        self.assertEqual(cut[0]["groups"][0], ["bob"])
        self.assertRegex(cut[0]["lines"][-4], r"^Creating: (alice \(----\) bob|bob \(----\) alice) "
                         r"\(----\) unrated blitz 2 12$")
        self.assertTrue(cut[0]["lines"][-3].startswith("{Game "), cut)
        self.assertEqual(cut[0]["lines"][-2], "", cut)


if __name__ == "__main__":
    main()
