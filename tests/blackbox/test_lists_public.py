#!/usr/bin/env python3
"""Public lists: admin, computer, td, muzzle, cmuzzle, ban.  Read by anyone,
changed only by admins, kept in the database, and in force at once for
sessions already online."""
import re

from chessd_harness import ChessdTestCase, main

PW = "secret1"


class PublicLists(ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.start_server()
        self.srv.useradd("root", PW, admin=True)
        for name in ("alice", "bob"):
            self.srv.useradd(name, PW)
        self.root = self.user(self.srv, "root", PW)
        self.a = self.user(self.srv, "alice", PW)

    def told(self, who, text):
        out = who.expect(text)
        who.expect_prompt()
        return out

    def test_muzzle_stops_shouts_of_a_session_online(self):
        root, a = self.root, self.a
        self.assertEqual(root.command("+muzzle alice"),
                         b"[alice] added to the muzzle list.\n\rfics% ")
        self.told(a, b"You have been added to the muzzle list by root.")
        self.assertEqual(root.command("+muzzle alice"),
                         b"[alice] is already on the muzzle list.\n\rfics% ")
        self.assertEqual(a.command("shout hello"), b"You are muzzled.\n\rfics% ")
        self.assertNotIn(b"hello", root.read_for(0.3))
        # Anyone may read the list.
        self.assertEqual(a.command("=muzzle"), b"-- muzzle list: 1 name --\n\ralice\n\rfics% ")
        # Channels are not shouts.
        a.command("+channel 9")
        root.command("+channel 9")
        self.assertIn(b"(told 1 players in channel 9)", a.command("tell 9 still here"))
        self.told(root, b"alice(9): still here")
        self.assertEqual(root.command("-muzzle alice"),
                         b"[alice] removed from the muzzle list.\n\rfics% ")
        self.told(a, b"You have been removed from the muzzle list by root.")
        self.assertEqual(root.command("-muzzle alice"),
                         b"[alice] is not in the muzzle list.\n\rfics% ")
        self.assertEqual(a.command("shout hello"), b"(1) alice shouts: hello\n\rfics% ")

    def test_cmuzzle_stops_channel_tells(self):
        root, a = self.root, self.a
        a.command("+channel 9")
        root.command("+channel 9")
        root.command("+cmuzzle alice")
        self.told(a, b"You have been added to the cmuzzle list by root.")
        self.assertEqual(a.command("tell 9 hi"), b"You are c-muzzled.\n\rfics% ")
        self.assertNotIn(b"hi", root.read_for(0.3))
        # Shouts are not channel tells.
        self.assertEqual(a.command("shout loud"), b"(1) alice shouts: loud\n\rfics% ")
        self.told(root, b"alice shouts: loud")
        self.assertEqual(root.command("-cmuzzle alice"),
                         b"[alice] removed from the cmuzzle list.\n\rfics% ")
        self.told(a, b"You have been removed from the cmuzzle list by root.")
        self.assertIn(b"(told 1 players", a.command("tell 9 hi again"))

    def test_ban_refuses_login_and_lasts_a_restart(self):
        root, a = self.root, self.a
        self.assertEqual(a.command("+ban bob"),
                         b'"ban" is not an appropriate list name or you have insufficient '
                         b'rights.\n\rfics% ')
        self.assertEqual(root.command("+ban alice"), b"[alice] added to the ban list.\n\rfics% ")
        # As in FICS, the session online is told and stays; nuke ends it.
        self.told(a, b"You have been added to the ban list by root.")
        self.assertEqual(a.command("=ban"), b"-- ban list: 1 name --\n\ralice\n\rfics% ")
        c = self.connect(self.srv)
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b'Player "alice" is banned.')
        c.expect_closed()
        # A ban names the account: the name in another case is the same account.
        c = self.connect(self.srv)
        c.expect(b"login: ")
        c.send_line("ALICE")
        c.expect(b'Player "alice" is banned.')
        c.expect_closed()
        self.srv.stop()
        self.srv.start()
        c = self.connect(self.srv)
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b'Player "alice" is banned.')
        c.expect_closed()
        root = self.user(self.srv, "root", PW)
        self.assertEqual(root.command("-ban alice"),
                         b"[alice] removed from the ban list.\n\rfics% ")
        self.user(self.srv, "alice", PW)

    def test_ban_while_the_password_is_checked(self):
        c = self.connect(self.srv)
        c.expect(b"login: ")
        c.send_line("bob")
        c.expect(b"password: ")
        self.root.command("+ban bob")
        c.send_line(PW)
        c.expect(b'Player "bob" is banned.')
        c.expect_closed()

    def test_admin_and_computer_lists_change_the_session_online(self):
        root, a = self.root, self.a
        b = self.user(self.srv, "bob", PW)
        self.assertEqual(a.command("=admin"), b"-- admin list: 1 name --\n\rroot\n\rfics% ")
        self.assertEqual(root.command("+computer bob"),
                         b"[bob] added to the computer list.\n\rfics% ")
        self.told(b, b"You have been added to the computer list by root.")
        b.command("tell alice beep")
        self.told(a, b"bob(C) tells you: beep")
        self.assertEqual(a.command("=computer"), b"-- computer list: 1 name --\n\rbob\n\rfics% ")
        root.command("+admin alice")
        self.told(a, b"You have been added to the admin list by root.")
        # Now an admin: the admin-only list changes are hers to make.
        self.assertEqual(a.command("+td bob"), b"[bob] added to the td list.\n\rfics% ")
        self.told(b, b"You have been added to the td list by alice.")
        self.assertEqual(b.command("=td"), b"-- td list: 1 name --\n\rbob\n\rfics% ")
        a.command("tell bob hi")
        self.told(b, b"alice(*) tells you: hi")
        root.command("-admin alice")
        self.told(a, b"You have been removed from the admin list by root.")
        self.assertEqual(a.command("-td bob"),
                         b'"td" is not an appropriate list name or you have insufficient '
                         b'rights.\n\rfics% ')
        self.srv.stop()
        self.srv.start()
        g = self.guest(self.srv)
        self.assertEqual(g.command("=admin"), b"-- admin list: 1 name --\n\rroot\n\rfics% ")
        self.assertEqual(g.command("=computer"), b"-- computer list: 1 name --\n\rbob\n\rfics% ")
        self.assertEqual(g.command("=td"), b"-- td list: 1 name --\n\rbob\n\rfics% ")

    def test_public_lists_name_accounts_only(self):
        g = self.guest(self.srv)
        self.assertEqual(self.root.command("+muzzle " + g.name),
                         b"There is no player matching that name.\n\rfics% ")
        self.assertEqual(self.root.command("+ban nosuchname"),
                         b"There is no player matching that name.\n\rfics% ")


if __name__ == "__main__":
    main()
