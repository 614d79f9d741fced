#!/usr/bin/env python3
"""What `set` answers, byte for byte as lasker's variable.c set_* functions
print it (set_shout, set_kibitz, set_tell, set_pinform, set_ginform,
set_ads, set_bell, set_private, set_flip, set_time, set_inc, set_kiblevel,
set_highlight, set_promote, set_language, set_busy, set_availinfo,
set_availmin/max, set_mailmess); no client parses these, so lasker's text
is the one to give."""
from chessd_harness import ChessdTestCase, main

PW = "echoespw1"

ECHOES = [
    ("set shout 0", "You will not hear shouts."),
    ("set shout 1", "You will now hear shouts."),
    ("set cshout 0", "You will not hear cshouts."),
    ("set cshout 1", "You will now hear cshouts."),
    ("set kibitz 0", "You will not hear kibitzes."),
    ("set kibitz 1", "You will now hear kibitzes."),
    ("set tell 0", "You will not hear tells from unregistered users."),
    ("set tell 1", "You will now hear tells from unregistered users."),
    ("set pin 1", "You will now hear logins/logouts."),
    ("set pin 0", "You will not hear logins/logouts."),
    ("set gin 1", "You will now hear game results."),
    ("set gin 0", "You will not hear game results."),
    ("set seek 0", "You will not hear ads."),
    ("set seek 1", "You will now hear ads."),
    ("set open 0", "You are no longer receiving match requests."),
    ("set open 1", "You are now open to receive match requests."),
    ("set bell 1", "Bell on."),
    ("set bell 0", "Bell off."),
    ("set private 1", "Your games will be private."),
    ("set private 0", "Your games may not be private."),
    ("set flip 1", "Flip on."),
    ("set flip", "Flip off."),
    ("set time 3", "Default time set to 3."),
    ("set inc 2", "Default increment set to 2."),
    ("set kiblevel 1200", "Kibitz level now set to: 1200."),
    ("set highlight 1", "Highlight is now style 1."),
    ("set highlight 0", "Highlight is off."),
    ("set promote n", "Promotion piece set to KNIGHT."),
    ("set promote r", "Promotion piece set to ROOK."),
    ("set promote b", "Promotion piece set to BISHOP."),
    ("set promote q", "Promotion piece set to QUEEN."),
    ("set lang Spanish", "Language set to Spanish."),
    ("set lang English", "Language set to English."),
    ("set busy at lunch", "Your \"busy\" string was set to \" at lunch\""),
    ("set busy", "Your \"busy\" string was cleared."),
    ("set availinfo 1", "availinfo set to 1.\n\rYou will receive info on who is available to play."),
    ("set availinfo 0",
     "availinfo set to 0.\n\rYou are no longer receiving info on who is available to play."),
    ("set availmax 1900", "You will be notified of availability with blitz ratings 0 - 1900."),
    ("set availmin 1500", "You will be notified of availability with blitz ratings 1500 - 1900."),
    ("set style 12", "Style 12 set."),
    ("set width 100", "Width set to 100."),
    ("set height 30", "Height set to 30."),
    ("set mailmess 1", "Your messages will be mailed to you."),
    ("set mailmess 0", "Your messages will not be mailed to you."),
]


class SetEchoes(ChessdTestCase):

    def test_each_echo_is_laskers(self):
        srv = self.start_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                                start=False)
        srv.useradd("vera", PW)
        srv.start()
        c = self.user(srv, "vera", PW)
        for line, echo in ECHOES:
            self.assertEqual(c.command(line), echo.encode() + b"\n\rfics% ", line)

    def test_the_setting_still_takes_effect(self):
        srv = self.start_server()
        c = self.guest(srv)
        self.assertEqual(c.command("set time 7"), b"Default time set to 7.\n\rfics% ")
        self.assertIn(b"time=7", c.command("variables"))

    def test_a_guest_changes_neither_rated_nor_mailmess(self):
        srv = self.start_server()
        g = self.guest(srv)
        self.assertEqual(g.command("set rated 0"), b"You cannot change your rated status.\n\rfics% ")
        self.assertEqual(g.command("set mailmess 1"),
                         b"Unregistered players may not receive messages.\n\rfics% ")
        out = g.command("variables")
        self.assertIn(b"rated=1", out)
        self.assertIn(b"mailmess=0", out)


if __name__ == "__main__":
    main()
