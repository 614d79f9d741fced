#!/usr/bin/env python3
"""censor and noplay on every delivery path: tell, xtell, say (in and after a
game), kibitz, whisper, channel tell, shout, match, seek and its answer by
play, rematch; each added while everyone is online, and undone."""
import re

from chessd_harness import ChessdTestCase, main

PW = "secret1"


class Censor(ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.start_server()
        for name in ("alice", "bob", "carol"):
            self.srv.useradd(name, PW)
        self.a, self.b, self.c = (self.user(self.srv, n, PW) for n in ("alice", "bob", "carol"))

    def quiet(self, who, text, seconds=0.3):
        self.assertNotIn(text, who.read_for(seconds))

    def start_game(self, white, black):
        white.command("match %s 5 0 white" % black.name)
        black.expect(b'You can "accept" or "decline", or propose different parameters.')
        black.expect_prompt()
        black.send_line("accept")
        numbers = []
        for p in (white, black):
            p.expect(re.compile(rb"\{Game (\d+) \(alice vs\. bob\) Creating"))
            numbers.append(int(p.match.group(1)))
            p.expect_prompt()
        return numbers[0]

    def end_game(self, white, black):
        white.send_line("resign")
        for p in (white, black):
            p.expect(b"} 0-1")
            p.expect_prompt()

    def test_tell_and_xtell(self):
        a, b = self.a, self.b
        self.assertEqual(b.command("+censor alice"),
                         b"[alice] added to your censor list.\n\rfics% ")
        for cmd in ("tell bob hi", "xtell bob hi", "t bob hi"):
            self.assertEqual(a.command(cmd), b'Player "bob" is censoring you.\n\rfics% ')
        self.quiet(b, b"tells you")
        # Only the one censored: carol still gets through.
        self.assertEqual(self.c.command("tell bob hi"), b"(told bob)\n\rfics% ")
        b.expect(b"carol tells you: hi")
        b.expect_prompt()
        b.command("-censor alice")
        self.assertEqual(a.command("tell bob back"), b"(told bob)\n\rfics% ")
        b.expect(b"alice tells you: back")

    def test_message_online_and_offline(self):
        a, b = self.a, self.b
        b.command("+censor alice")
        self.assertEqual(a.command("message bob hello"),
                         b'Player "bob" is censoring you.\n\rfics% ')
        self.quiet(b, b"just sent you a message")
        # Offline, bob's stored list still holds: nothing waits for him.
        b.close()
        self.assertEqual(a.command("message bob still there?"),
                         b'Player "bob" is censoring you.\n\rfics% ')
        self.assertIn(b"The following message was sent to bob:",
                      self.c.command("message bob from carol"))
        out = self.connect(self.srv).login("bob", PW)
        self.assertIn(b"You have 1 message.", out)

    def test_an_admins_tell_reaches_a_censoring_player(self):
        self.srv.useradd("root", PW, admin=True)
        root = self.user(self.srv, "root", PW)
        self.b.command("+censor root")
        self.assertEqual(root.command("tell bob listen"),
                         b'Told "bob", who is censoring you.\n\r(told bob)\n\rfics% ')
        self.b.expect(b"root(*) tells you: listen")
        # Other paths stay censored.
        self.assertEqual(root.command("shout all"), b"(2) root shouts: all\n\rfics% ")
        self.quiet(self.b, b"root(*) shouts")

    def test_say_kibitz_whisper_in_a_game_and_say_after(self):
        a, b, c = self.a, self.b, self.c
        game = self.start_game(a, b)
        c.command("observe %d" % game)
        b.command("+censor alice")
        c.command("+censor alice")
        self.assertEqual(a.command("say hello"), b'Player "bob" is censoring you.\n\rfics% ')
        self.assertEqual(a.command("kibitz nice"), b"kibitzed to 0.\n\rfics% ")
        self.assertEqual(a.command("whisper psst"), b"whispered to 0.\n\rfics% ")
        self.quiet(b, b"alice")
        self.quiet(c, b"alice")
        c.command("-censor alice")
        self.assertEqual(a.command("whisper psst"), b"whispered to 1.\n\rfics% ")
        c.expect(b"alice(----)[%d] whispers: psst" % game)
        self.assertEqual(a.command("kibitz again"), b"kibitzed to 1.\n\rfics% ")
        c.expect(b"alice(----)[%d] kibitzes: again" % game)
        self.end_game(a, b)
        c.read_for(0.2)
        # After the game, say goes to the last opponent: still censored.
        self.assertEqual(a.command("say gg"), b'Player "bob" is censoring you.\n\rfics% ')
        self.quiet(b, b"says")
        b.command("-censor alice")
        self.assertEqual(a.command("say gg"), b"(told bob)\n\rfics% ")
        b.expect(b"alice says: gg")

    def test_channel_tell_and_shout(self):
        a, b, c = self.a, self.b, self.c
        for p in (a, b, c):
            p.command("+channel 77")
        b.command("+censor alice")
        self.assertEqual(a.command("tell 77 hi all"), b"(told 1 players in channel 77)\n\rfics% ")
        c.expect(b"alice(77): hi all")
        self.quiet(b, b"hi all")
        self.assertEqual(a.command("shout hey"), b"(1) alice shouts: hey\n\rfics% ")
        c.expect(b"alice shouts: hey")
        self.quiet(b, b"shouts")
        # A censored player's own messages to others are unaffected.
        b.command("shout from bob")
        a.expect(b"bob shouts: from bob")

    def test_match_and_rematch(self):
        a, b = self.a, self.b
        b.command("+censor alice")
        self.assertEqual(a.command("match bob 5 0"), b'Player "bob" is censoring you.\n\rfics% ')
        self.assertEqual(b.command("match alice 5 0"), b'You are censoring "alice".\n\rfics% ')
        self.quiet(b, b"Challenge")
        b.command("-censor alice")
        self.start_game(a, b)
        self.end_game(a, b)
        b.command("+censor alice")
        self.assertEqual(a.command("rematch"), b'Player "bob" is censoring you.\n\rfics% ')
        self.quiet(b, b"Challenge")
        b.command("-censor alice")
        b.command("+noplay alice")
        self.assertEqual(a.command("rematch"), b"You are on bob's noplay list.\n\rfics% ")
        self.assertEqual(a.command("match bob 5 0"), b"You are on bob's noplay list.\n\rfics% ")
        self.assertEqual(b.command("match alice 5 0"),
                         b"You have alice on your noplay list.\n\rfics% ")
        self.quiet(b, b"Challenge")
        b.command("-noplay alice")
        self.assertIn(b"Issuing:", a.command("rematch"))
        b.expect(b"Challenge: ")

    def test_offer_made_before_the_censor_cannot_be_accepted(self):
        a, b = self.a, self.b
        a.command("match bob 5 0")
        b.expect(b"Challenge: ")
        b.expect_prompt()
        a.command("+noplay bob")
        self.assertEqual(b.command("accept"), b"You are on alice's noplay list.\n\rfics% ")

    def test_seek_and_play(self):
        a, b, c = self.a, self.b, self.c
        for p in (a, b, c):
            p.command("set seek 1")
        b.command("+censor alice")
        reply = a.command("seek 5 0")
        self.assertIn(b"(1 player(s) saw the seek.)", reply)
        seek = int(re.search(rb"index (\d+)", reply).group(1))
        c.expect(b"alice (----) seeking 5 0")
        c.expect_prompt()
        self.quiet(b, b"seeking")
        # Nor in sought, nor in the <s> lines a client gets on "iset seekinfo 1".
        self.assertEqual(b.command("sought"), b"0 ads displayed.\n\rfics% ")
        self.assertIn(b"1 ad displayed.", c.command("sought"))
        self.assertEqual(b.command("iset seekinfo 1"), b"seekinfo set.\n\r<sc>\n\rfics% ")
        self.assertEqual(b.command("play %d" % seek), b'You are censoring "alice".\n\rfics% ')
        # The seeker's lists count too: noplay, then censor.
        a.command("+noplay carol")
        self.assertEqual(c.command("play %d" % seek), b"You are on alice's noplay list.\n\rfics% ")
        a.command("-noplay carol")
        a.command("+censor carol")
        self.assertEqual(c.command("play %d" % seek), b'Player "alice" is censoring you.\n\rfics% ')
        a.command("-censor carol")
        c.send_line("play %d" % seek)
        # The seek left the colour to chance.
        c.expect(re.compile(rb"Creating: (carol \(----\) alice|alice \(----\) carol) \(----\) "
                            rb"rated blitz 5 0"))


if __name__ == "__main__":
    main()
