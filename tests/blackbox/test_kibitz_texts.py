#!/usr/bin/env python3
"""kibitz and whisper as lasker's talkproc.c com_kibitz, com_whisper and
tell() deliver them: "set kibitz 0" silences kibitzes for players too, a
whisper reaches observers whatever their kibitz variable, "set kiblevel N"
hears only talkers rated N or more, and the talker reads "kibitzed to N."
or "whispered to N."."""
from games_harness import GamesTestCase, main

PW = "kibtexts1"


class KibitzTexts(GamesTestCase):

    def test_who_hears_and_the_count(self):
        srv = self.game_server(start=False)
        srv.useradd("olga", PW)
        srv.useradd("otto", PW)
        srv.start()
        w, b = self.guest_player(srv), self.guest_player(srv)
        n, _ = self.start_match(w, b, "5 0")
        deaf = self.user_player(srv, "olga", PW)
        ears = self.user_player(srv, "otto", PW)
        for o in (deaf, ears):
            self.assertIn(b"You are now observing game %d." % n, self.cmd(o, "observe %d" % n))
        self.assertIn(b"You will not hear kibitzes.", self.cmd(deaf, "set kibitz 0"))
        self.assertIn(b"You will not hear kibitzes.", self.cmd(w, "set kibitz 0"))
        # A kibitz: neither the deaf player nor the deaf observer hears it.
        self.assertEqual(self.cmd(b, "kibitz good move"), b"kibitzed to 1.\n\r")
        self.expect_line(ears, r"%s\(\+\+\+\+\)\[%d\] kibitzes: good move" % (b.name, n))
        self.assertNotIn(b"good move", w.read_for(0.2) + deaf.read_for(0.2))
        # A whisper reaches both observers, kibitz 0 or not.
        self.assertEqual(self.cmd(b, "whisper psst"), b"whispered to 2.\n\r")
        for o in (deaf, ears):
            self.expect_line(o, r"%s\(\+\+\+\+\)\[%d\] whispers: psst" % (b.name, n))
        # kiblevel 1000: an unrated guest is not heard, a whisper neither.
        self.assertIn(b"Kibitz level now set to: 1000.", self.cmd(ears, "set kiblevel 1000"))
        self.assertEqual(self.cmd(b, "kibitz again"), b"kibitzed to 0.\n\r")
        self.assertEqual(self.cmd(b, "whisper again"), b"whispered to 1.\n\r")
        self.assertNotIn(b"again", ears.read_for(0.2))
        self.expect_line(deaf, r"%s\(\+\+\+\+\)\[%d\] whispers: again" % (b.name, n))
        # The level back to 0: heard again.
        self.cmd(ears, "set kiblevel 0")
        self.assertEqual(self.cmd(b, "kibitz back"), b"kibitzed to 1.\n\r")
        self.expect_line(ears, r"%s\(\+\+\+\+\)\[%d\] kibitzes: back" % (b.name, n))


if __name__ == "__main__":
    main()
