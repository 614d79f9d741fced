#!/usr/bin/env python3
"""Adding to and removing from every list by a name typed in another case:
the answer names the player as the list keeps it (the account's own
spelling, a guest's session name), as lasker echoes its stored member,
never the case that was typed."""
import re

from chessd_harness import ChessdTestCase, main

PW = "secret1"
PERSONAL = ("notify", "gnotify", "censor", "noplay")
PUBLIC = ("td", "muzzle", "cmuzzle", "ban", "computer")


class ListCase(ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.start_server()
        self.srv.useradd("root", PW, admin=True)
        for name in ("alice", "BobSmith"):
            self.srv.useradd(name, PW)

    def check_personal(self, a, typed_add, typed_sub, stored):
        for kind in PERSONAL:
            self.assertEqual(a.command("+%s %s" % (kind, typed_add)),
                             b"[%s] added to your %s list.\n\rfics%% " % (stored, kind.encode()))
            self.assertEqual(a.command("+%s %s" % (kind, typed_sub)),
                             b"[%s] is already on your %s list.\n\rfics%% "
                             % (stored, kind.encode()))
            self.assertEqual(a.command("=" + kind),
                             b"-- %s list: 1 name --\n\r%s\n\rfics%% " % (kind.encode(), stored))
            self.assertEqual(a.command("-%s %s" % (kind, typed_sub)),
                             b"[%s] removed from your %s list.\n\rfics%% "
                             % (stored, kind.encode()))
            self.assertEqual(a.command("sublist %s %s" % (kind, typed_add)),
                             b"[%s] is not in your %s list.\n\rfics%% " % (stored, kind.encode()))
            self.assertEqual(a.command("=" + kind),
                             b"-- %s list: 0 names --\n\rfics%% " % kind.encode())

    def test_personal_lists_echo_the_stored_name_offline(self):
        a = self.user(self.srv, "alice", PW)
        self.check_personal(a, "bobsmith", "BOBSMITH", b"BobSmith")

    def test_personal_lists_echo_the_stored_name_online(self):
        a = self.user(self.srv, "alice", PW)
        self.user(self.srv, "BobSmith", PW)
        self.check_personal(a, "BOBSMITH", "bobSMITH", b"BobSmith")

    def test_personal_lists_echo_a_guests_session_name(self):
        a = self.user(self.srv, "alice", PW)
        g = self.guest(self.srv)
        name = g.name.encode()
        self.assertRegex(name, rb"^Guest[A-Z]{4}$")
        self.check_personal(a, name.lower().decode(), name.swapcase().decode(), name)

    def test_public_lists_echo_the_stored_name(self):
        r = self.user(self.srv, "root", PW)
        for kind in PUBLIC:
            k = kind.encode()
            self.assertEqual(r.command("+%s bobsmith" % kind),
                             b"[BobSmith] added to the %s list.\n\rfics%% " % k)
            self.assertEqual(r.command("+%s BOBSMITH" % kind),
                             b"[BobSmith] is already on the %s list.\n\rfics%% " % k)
            self.assertEqual(r.command("-%s bOBsMITH" % kind),
                             b"[BobSmith] removed from the %s list.\n\rfics%% " % k)
            self.assertEqual(r.command("-%s BOBSMITH" % kind),
                             b"[BobSmith] is not in the %s list.\n\rfics%% " % k)
            reply = r.command("=" + kind)
            self.assertNotIn(b"BobSmith", reply)
            self.assertNotIn(b"BOBSMITH", reply)
            self.assertRegex(reply, re.compile(rb"-- %s list: \d+ names? --" % k))


if __name__ == "__main__":
    main()
