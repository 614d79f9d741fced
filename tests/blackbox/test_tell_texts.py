#!/usr/bin/env python3
"""tell and xtell as lasker's talkproc.c says them: "(told NAME, who is
playing)" and the other notes tell() adds, "No user named 'name' is logged
in." (tell_s lowers the name and quotes it singly; xtell quotes it as
typed), "isn't listening to unregistered tells.", an admin's tell to
someone censoring them told both ways, and a number out of the channels'
range told as chtell tells it ("The maximum channel number is 255.")."""
import re

from games_harness import GamesTestCase, main

PW = "telltexts1"


class TellTexts(GamesTestCase):

    def setUp(self):
        super().setUp()
        self.srv = self.game_server(start=False)
        self.srv.useradd("tara", PW)
        self.srv.useradd("root", PW, admin=True)
        self.srv.start()

    def test_told_says_what_the_one_told_is_doing(self):
        w, b = self.guest_player(self.srv), self.guest_player(self.srv)
        e, t = self.guest_player(self.srv), self.guest_player(self.srv)
        self.start_match(w, b, "5 0")
        self.assertEqual(self.cmd(t, "tell %s hi" % w.name), b"(told %s, who is playing)\n\r" % w.name.encode())
        # The opponent is told plainly: it is the same game.
        self.assertEqual(self.cmd(b, "tell %s gl" % w.name), b"(told %s)\n\r" % w.name.encode())
        self.assertIn(b"Starting a game in examine (scratch) mode.", self.cmd(e, "examine"))
        self.assertEqual(self.cmd(t, "xtell %s hi" % e.name),
                         b"(told %s, who is examining a game)\n\r" % e.name.encode())
        self.cmd(e, "unexamine")
        self.assertIn(b"examine (setup) mode", self.cmd(e, "examine setup"))
        self.assertEqual(self.cmd(t, "tell %s hi" % e.name),
                         b"(told %s, who is setting up a position)\n\r" % e.name.encode())
        self.cmd(e, "unexamine")
        self.assertIn(b"Your \"busy\" string was set to \" is at lunch\"", self.cmd(e, "set busy is at lunch"))
        self.assertRegex(self.cmd(t, "tell %s hi" % e.name),
                         rb"^\(told %s, who is at lunch \(idle: \d+ secs?\)\)\n\r$" % re.escape(e.name.encode()))
        self.cmd(e, "set busy")
        self.assertEqual(self.cmd(t, "tell %s hi" % e.name), b"(told %s)\n\r" % e.name.encode())

    def test_not_logged_in_and_not_listening(self):
        g = self.guest_player(self.srv)
        self.assertEqual(self.cmd(g, "tell NoBody hi"), b"No user named 'nobody' is logged in.\n\r")
        self.assertEqual(self.cmd(g, "xtell NoBody hi"), b'No user named "NoBody" is logged in.\n\r')
        tara = self.user_player(self.srv, "tara", PW)
        self.assertIn(b"You will not hear tells from unregistered users.", self.cmd(tara, "set tell 0"))
        self.assertEqual(self.cmd(g, "tell tara hi"),
                         b"Player \"tara\" isn't listening to unregistered tells.\n\r")

    def test_a_number_is_a_channel_never_a_name(self):
        g = self.guest_player(self.srv)
        self.assertEqual(self.cmd(g, "tell 256 hi"), b"The maximum channel number is 255.\n\r")
        self.assertEqual(self.cmd(g, "tell 99999999999999999999 hi"),
                         b"The maximum channel number is 255.\n\r")
        self.assertEqual(self.cmd(g, "tell -1 hi"), b"The lowest channel number is 0.\n\r")
        self.assertEqual(self.cmd(g, "tell -99999999999999999999 hi"),
                         b"The lowest channel number is 0.\n\r")

    def test_an_admin_is_told_both_lines(self):
        tara = self.user_player(self.srv, "tara", PW)
        root = self.user_player(self.srv, "root", PW)
        self.assertIn(b"[root] added to your censor list.", self.cmd(tara, "+censor root"))
        self.assertEqual(self.cmd(root, "tell tara listen"),
                         b"Told \"tara\", who is censoring you.\n\r(told tara)\n\r")
        tara.expect(b"root(*) tells you: listen")


if __name__ == "__main__":
    main()
