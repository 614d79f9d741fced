#!/usr/bin/env python3
"""How observe, unobserve and allobservers name a game, as lasker's
obsproc.c GameNumFromParam and do_observe say it: an unknown name is "No
user named ..." (not "is not playing"), a user not playing is named as
they spell themselves, a number below 1 "is not a valid game number.", and
a player is told "You cannot observe a game that you are playing."."""
from games_harness import GamesTestCase, main


class ObserveTexts(GamesTestCase):

    def test_naming_a_game(self):
        srv = self.game_server()
        w, b, o = (self.guest_player(srv) for _ in range(3))
        for command in ("observe", "unobserve", "allobservers"):
            self.assertEqual(self.cmd(o, "%s nobody" % command),
                             b'No user named "nobody" is logged in.\n\r', command)
            self.assertEqual(self.cmd(o, "%s %s" % (command, w.name.lower())),
                             b"%s is not playing a game.\n\r" % w.name.encode(), command)
            self.assertEqual(self.cmd(o, "%s 0" % command), b"0 is not a valid game number.\n\r",
                             command)
            self.assertEqual(self.cmd(o, "%s -3" % command), b"-3 is not a valid game number.\n\r",
                             command)
            self.assertEqual(self.cmd(o, "%s 99" % command), b"There is no such game.\n\r", command)
        n, _ = self.start_match(w, b, "5 0")
        self.assertEqual(self.cmd(w, "observe %d" % n),
                         b"You cannot observe a game that you are playing.\n\r")
        self.assertIn(b"You are now observing game %d." % n, self.cmd(o, "observe %s" % b.name.lower()))
        self.assertEqual(self.cmd(o, "unobserve %s" % w.name),
                         b"Removing game %d from observation list.\n\r" % n)


if __name__ == "__main__":
    main()
