#!/usr/bin/env python3
"""Accounts: in-protocol registration and password change, the account
subcommands, what the database stores, and settings that persist."""
import os
import re

from chessd_harness import ChessdTestCase, db_rows, main, run_admin

REGISTERED = b"You are now registered as %s.  Log out and log in again as %s to use your account."


class Register(ChessdTestCase):
    def register(self, c, name, password):
        # One reply, one prompt at its end (the hash runs in between).
        reply = c.command("register %s %s" % (name, password))
        self.assertEqual(reply, REGISTERED % (name.encode(), name.encode()) + b"\n\rfics% ")

    def test_register_then_login(self):
        srv = self.start_server()
        g = self.guest(srv)
        self.register(g, "carol", "pass-word-9")
        self.assertIn(b"Logging you out.\n\r\n\rThank you for using chessd.\n\r", self._quit(g))
        c = self.connect(srv)
        out = c.login("carol", "pass-word-9")
        self.assertIn(b"**** Starting FICS session as carol ****", out)
        finger = c.command("finger")
        self.assertIn(b"Registered player.", finger)
        self.assertEqual(c.command("register dave abcd"), b"You are registered already.\n\rfics% ")

    def _quit(self, c):
        c.send_line("quit")
        return c.expect_closed()

    def test_registration_closed(self):
        srv = self.start_server(config={"registration": "closed"})
        g = self.guest(srv)
        self.assertEqual(g.command("register carol secret1"),
                         b"Registration is closed on this server; ask an administrator.\n\rfics% ")
        self.assertEqual(db_rows(srv.db_path, "SELECT count(*) FROM users"), [(0,)])
        # The administrator can still add accounts.
        srv.useradd("carol", "secret1")
        self.user(srv, "carol", "secret1")

    def test_guest_names_refused(self):
        srv = self.start_server()
        g = self.guest(srv)
        for name in ("Guestabc", "guestXYZ", "GUEST"):
            self.assertEqual(g.command("register %s secret1" % name),
                             b'Names beginning with "Guest" are kept for guests.\n\rfics% ')
        self.assertEqual(db_rows(srv.db_path, "SELECT count(*) FROM users"), [(0,)])

    def test_duplicate_name_refused(self):
        srv = self.start_server()
        srv.useradd("alice", "secret1")
        g = self.guest(srv)
        self.assertEqual(g.command("register alice other11"),
                         b'Sorry, "alice" is registered already.\n\rfics% ')
        self.assertEqual(g.command("register ALICE other11"),
                         b'Sorry, "ALICE" is registered already.\n\rfics% ')
        # A second registration of a name one guest just took.
        g2 = self.guest(srv)
        self.register(g, "carol", "secret1")
        self.assertEqual(g2.command("register Carol secret2"),
                         b'Sorry, "Carol" is registered already.\n\rfics% ')
        # The original password still works.
        self.user(srv, "alice", "secret1")

    def test_simultaneous_registration_of_one_name(self):
        srv = self.start_server()
        guests = [self.guest(srv) for _ in range(4)]
        # All ask before any hash is done: the name is free for each of them.
        for g in guests:
            g.send_line("register carol secret%d" % guests.index(g))
        won, lost = [], []
        for i, g in enumerate(guests):
            g.expect(re.compile(rb"(You are now registered as carol\.|"
                                rb"Sorry, \"carol\" (was registered by someone else meanwhile|"
                                rb"is registered already)\.)"))
            (won if g.match.group(1).startswith(b"You are") else lost).append(i)
        self.assertEqual(len(won), 1, (won, lost))
        self.assertEqual(db_rows(srv.db_path, "SELECT count(*) FROM users"), [(1,)])
        self.user(srv, "carol", "secret%d" % won[0])

    def test_bad_names_and_passwords_refused(self):
        srv = self.start_server()
        g = self.guest(srv)
        self.assertEqual(g.command("register bob1 secret1"),
                         b"Sorry, names can only consist of lower and upper case letters.  "
                         b"Try again.\n\rfics% ")
        self.assertEqual(g.command("register ab secret1"),
                         b"Sorry, names must be at least 3 characters long.  Try again.\n\rfics% ")
        self.assertEqual(g.command("register carol abc"),
                         b"password must be at least 4 characters\n\rfics% ")
        self.assertEqual(g.command("register carol " + "x" * 65),
                         b"password must be at most 64 characters\n\rfics% ")
        self.assertEqual(g.command("register carol"), b"Usage: register <name> <password>\n\rfics% ")
        self.assertEqual(db_rows(srv.db_path, "SELECT count(*) FROM users"), [(0,)])


class AdminSubcommands(ChessdTestCase):
    def test_useradd_passwd_userdel_admin(self):
        srv = self.new_server()
        d = srv.data_dir
        r = run_admin(d, "useradd", "alice", stdin="secret1\n")
        self.assertEqual((r.returncode, r.stdout), (0, "added alice\n"), r.stderr)
        r = run_admin(d, "useradd", "Alice", stdin="other11\n")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "chessd: alice is registered already\n")
        r = run_admin(d, "useradd", "bob", "--admin", stdin="bobpass\n")
        self.assertEqual((r.returncode, r.stdout), (0, "added bob\n"), r.stderr)
        # Bad passwords on stdin.
        r = run_admin(d, "useradd", "carol", stdin="abc\n")
        self.assertEqual((r.returncode, r.stderr), (1, "chessd: password must be at least 4 characters\n"))
        r = run_admin(d, "useradd", "carol", stdin="")
        self.assertEqual((r.returncode, r.stderr), (1, "chessd: no password on standard input\n"))
        r = run_admin(d, "useradd", "carol", stdin=" leading\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("space", r.stderr)
        # Bad names: usage errors.
        for name in ("car0l", "ca", "Guestabc"):
            r = run_admin(d, "useradd", name, stdin="secret1\n")
            self.assertEqual(r.returncode, 2, name)
            self.assertTrue(r.stderr.startswith("chessd: "), r.stderr)
        self.assertEqual([n for (n,) in db_rows(srv.db_path, "SELECT name FROM users ORDER BY name")],
                         ["alice", "bob"])

        r = run_admin(d, "passwd", "alice", stdin="newpass1\n")
        self.assertEqual((r.returncode, r.stdout), (0, "changed the password of alice\n"), r.stderr)
        r = run_admin(d, "passwd", "nobody", stdin="newpass1\n")
        self.assertEqual((r.returncode, r.stderr), (1, "chessd: no user named nobody\n"))
        r = run_admin(d, "passwd", "alice", stdin="x\n")
        self.assertEqual(r.returncode, 1)

        r = run_admin(d, "admin", "alice", "on")
        self.assertEqual((r.returncode, r.stdout), (0, "alice is now an administrator\n"), r.stderr)
        r = run_admin(d, "admin", "bob", "off")
        self.assertEqual((r.returncode, r.stdout), (0, "bob is no longer an administrator\n"), r.stderr)
        r = run_admin(d, "admin", "nobody", "on")
        self.assertEqual((r.returncode, r.stderr), (1, "chessd: no user named nobody\n"))
        r = run_admin(d, "admin", "alice", "maybe")
        self.assertEqual(r.returncode, 2)

        srv.start()
        a = self.connect(srv)
        out = a.login("alice", "newpass1")
        self.assertIn(b"Starting FICS session as alice(*) ****", out)
        b = self.connect(srv)
        out = b.login("bob", "bobpass")
        self.assertIn(b"Starting FICS session as bob ****", out)
        # Old password of alice is gone.
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        c.send_line("secret1")
        c.expect(b"**** Invalid password! ****")

        # userdel while the server runs; the name becomes unregistered.
        r = run_admin(d, "userdel", "bob")
        self.assertEqual((r.returncode, r.stdout), (0, "removed bob\n"), r.stderr)
        r = run_admin(d, "userdel", "bob")
        self.assertEqual((r.returncode, r.stderr), (1, "chessd: no user named bob\n"))
        e = self.connect(srv)
        e.expect(b"login: ")
        e.send_line("Bob")
        # bob is online (unregistered now or not), or not registered
        reply = e.expect(b"\n\r\n\r")
        self.assertNotIn(b"is a registered name", reply)
        # useradd while the server runs takes effect at once.
        srv.useradd("dave", "davepass")
        self.user(srv, "dave", "davepass")
        srv.stop()

    def test_usage_errors(self):
        srv = self.new_server()
        d = srv.data_dir
        for args in (["useradd"], ["frobnicate", "alice"], ["useradd", "alice", "extra"]):
            r = run_admin(d, *args, stdin="secret1\n")
            self.assertEqual(r.returncode, 2, args)
            self.assertIn("usage", r.stderr, args)


class Passwords(ChessdTestCase):
    def test_passwd_in_protocol(self):
        srv = self.start_server()
        srv.useradd("alice", "secret1")
        a = self.user(srv, "alice", "secret1")
        a.send_line("passwd wrongold newpass2")
        a.expect(b"Incorrect password, password not changed!\n\r")
        a.expect_prompt()
        self.assertEqual(a.command("passwd secret1 ab"),
                         b"password must be at least 4 characters\n\rfics% ")
        a.send_line("passwd secret1 newpass2")
        a.expect(b"Password changed.\n\r")
        a.expect_prompt()
        # New password works; the old one does not.
        self.user(srv, "alice", "newpass2")
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        c.send_line("secret1")
        c.expect(b"**** Invalid password! ****")
        # Guests have no password.
        g = self.guest(srv)
        self.assertEqual(g.command("passwd a b"),
                         b"Setting a password is only for registered players.\n\rfics% ")

    def test_no_plaintext_in_database(self):
        srv = self.start_server()
        srv.useradd("alice", "Plaintext-Alice-1")
        g = self.guest(srv)
        g.send_line("register carol Plaintext-Carol-2")
        g.expect(b"You are now registered as carol.")
        a = self.user(srv, "alice", "Plaintext-Alice-1")
        a.send_line("passwd Plaintext-Alice-1 Plaintext-Alice-3")
        a.expect(b"Password changed.")
        # While running (WAL files present) and after a clean stop.
        for phase in ("running", "stopped"):
            if phase == "stopped":
                srv.stop()
            for fname in os.listdir(srv.data_dir):
                path = os.path.join(srv.data_dir, fname)
                if not os.path.isfile(path):
                    continue
                with open(path, "rb") as f:
                    data = f.read()
                for pw in (b"Plaintext-Alice-1", b"Plaintext-Carol-2", b"Plaintext-Alice-3"):
                    self.assertNotIn(pw, data, "%s found in %s (%s)" % (pw, fname, phase))
        rows = db_rows(srv.db_path, "SELECT name, password FROM users ORDER BY name")
        self.assertEqual([n for n, _ in rows], ["alice", "carol"])
        for name, pw in rows:
            self.assertTrue(pw.startswith("scrypt$"), (name, pw))
            self.assertEqual(len(pw.split("$")), 6, pw)
        # Salted: the same password twice gives different strings.
        srv.start()
        g = self.guest(srv)
        g.send_line("register dave Plaintext-Carol-2")
        g.expect(b"You are now registered as dave.")
        srv.stop()
        rows = dict(db_rows(srv.db_path, "SELECT name, password FROM users"))
        self.assertNotEqual(rows["carol"], rows["dave"])


class PersistentSettings(ChessdTestCase):
    def test_registered_settings_survive_restart(self):
        srv = self.start_server()
        srv.useradd("alice", "secret1")
        srv.useradd("bob", "secret2")
        a = self.user(srv, "alice", "secret1")
        self.assertEqual(a.command("set shout 0"), b"You will not hear shouts.\n\rfics% ")
        self.assertEqual(a.command("+channel 77"), b"[77] added to your channel list.\n\rfics% ")
        self.assertEqual(a.command("alias foo tell bob"), b'Alias "foo" set.\n\rfics% ')
        self.assertEqual(a.command("set width 100"), b"Width set to 100.\n\rfics% ")
        self.assertEqual(a.command("set interface MyClient"), b"interface set to MyClient.\n\rfics% ")
        srv.stop()
        srv.start()
        a = self.user(srv, "alice", "secret1")
        b = self.user(srv, "bob", "secret2")
        vars_ = a.command("variables")
        self.assertRegex(vars_, rb"(^|\s)shout=0\s")
        self.assertRegex(vars_, rb"(^|\s)width=100\s")
        self.assertRegex(vars_, rb"(^|\s)interface=MyClient\s")
        self.assertEqual(a.command("=channel"),
                         b"alice is in the following channels:\n\r77 \n\rfics% ")
        self.assertEqual(a.command("alias foo"), b"foo -> tell bob\n\rfics% ")
        # The alias works and shouts are off.
        a.command("foo hello via alias")
        b.expect(b"alice tells you: hello via alias")
        b.command("shout anyone?")
        self.assertNotIn(b"shouts", a.command("date"))
        # Changing back persists too.
        a.command("-channel 77")
        a.command("unalias foo")
        a.command("set shout 1")
        srv.stop()
        srv.start()
        a = self.user(srv, "alice", "secret1")
        self.assertEqual(a.command("=channel"),
                         b"alice is in the following channels:\n\r(none)\n\rfics% ")
        self.assertEqual(a.command("alias foo"), b'You have no alias named "foo".\n\rfics% ')
        self.assertRegex(a.command("variables"), rb"(^|\s)shout=1\s")

    def test_guest_settings_do_not_persist(self):
        srv = self.start_server()
        c = self.connect(srv)
        c.login_unregistered("bobby")
        c.command("set shout 0")
        c.command("+channel 77")
        c.command("alias foo date")
        c.send_line("quit")
        c.expect_closed()
        c = self.connect(srv)
        c.login_unregistered("bobby")
        self.assertRegex(c.command("variables"), rb"(^|\s)shout=1\s")
        self.assertEqual(c.command("=channel"),
                         b"bobby is in the following channels:\n\r(none)\n\rfics% ")
        self.assertEqual(c.command("alias foo"), b'You have no alias named "foo".\n\rfics% ')
        srv.stop()
        for table in ("user_vars", "user_channels", "user_aliases"):
            self.assertEqual(db_rows(srv.db_path, "SELECT count(*) FROM %s" % table), [(0,)], table)


if __name__ == "__main__":
    main()
