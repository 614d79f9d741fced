"""lasker's "password OLD NEW" (and our older "passwd"), and lasker's aliases
of quit and znotify: the old password is checked, guests are refused with
lasker's line, input too long is one line of error, and once changed the
old password no longer logs in while the new one does."""
import re

from chessd_harness import ChessdTestCase, main

PW = "secret1"
NEW = "n3w-pass"


class PasswordCommand(ChessdTestCase):

    def tearDown(self):
        self.stop_servers_clean()

    def server(self):
        srv = self.new_server()
        srv.useradd("alice", PW)
        srv.useradd("bob", PW)
        srv.start()
        return srv

    def answer(self, c, line, text):
        """The hash is made off the loop: the answer follows the prompt."""
        c.send_line(line)
        c.expect(text + b"\n\r")
        self.assertNotIn(b"password", c.read_for(0.2))

    def login_fails(self, srv, name, password):
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line(name)
        c.expect(b"password: ")
        c.send_line(password)
        c.expect(b"**** Invalid password! ****")
        c.close()

    def test_wrong_old_password_changes_nothing(self):
        srv = self.server()
        a = self.user(srv, "alice", PW)
        self.answer(a, "password wrong1 %s" % NEW, b"Incorrect password, password not changed!")
        # Another account's password is no key to this one.
        self.answer(a, "password %s %s" % ("x" + PW, NEW), b"Incorrect password, password not changed!")
        self.login_fails(srv, "alice", NEW)
        self.user(srv, "alice", PW)

    def test_guest_is_refused_with_laskers_line(self):
        srv = self.server()
        g = self.guest(srv)
        for line in ("password a b", "passwd a b", "password %s %s" % (PW, NEW)):
            self.assertEqual(g.command(line),
                             b"Setting a password is only for registered players.\n\rfics% ")
        self.assertEqual(g.command("password"),
                         b"Usage: password <oldpassword> <newpassword>\n\rfics% ")

    def test_overlong_input_is_one_line_and_harmless(self):
        srv = self.server()
        a = self.user(srv, "alice", PW)
        self.assertEqual(a.command("password %s %s" % (PW, "y" * 65)),
                         b"password must be at most 64 characters\n\rfics% ")
        # Longer than any password can be: refused before it is hashed.
        self.assertEqual(a.command("password %s %s" % ("z" * 900, NEW)),
                         b"Incorrect password, password not changed!\n\rfics% ")
        self.assertEqual(a.command("password %s" % PW),
                         b"Usage: password <oldpassword> <newpassword>\n\rfics% ")
        self.assertIn(b"Line too long", a.command("password %s %s" % (PW, "q" * 2000)))
        # Nothing changed, and the server and session are alive.
        self.assertIn(b"alice", a.command("who"))
        self.login_fails(srv, "alice", NEW)
        self.user(srv, "alice", PW)

    def test_old_password_stops_working_new_one_logs_in(self):
        srv = self.server()
        a = self.user(srv, "alice", PW)
        self.answer(a, "password %s %s" % (PW, NEW), b"Password changed.")
        # The session that changed it stays; a login with the old one fails.
        self.login_fails(srv, "alice", PW)
        self.assertIn(b"alice", a.command("who"))
        # bob's account is untouched.
        self.user(srv, "bob", PW)
        # The new one logs in (taking over the first session, as a second login does).
        a2 = self.user(srv, "alice", NEW)
        a.expect_closed()
        # The old name of the command and a prefix are the same command.
        self.answer(a2, "passwd %s %s" % (NEW, PW), b"Password changed.")
        self.answer(a2, "pass %s %s" % (PW, NEW), b"Password changed.")
        srv.stop()
        srv.start()
        self.login_fails(srv, "alice", PW)
        self.user(srv, "alice", NEW)

    def test_login_waiting_at_the_password_prompt_gets_no_old_password(self):
        """A login that gave the name before the change is checked against
        the password stored when it answers, not the one read at its name."""
        srv = self.server()
        a = self.user(srv, "alice", PW)
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        self.answer(a, "password %s %s" % (PW, NEW), b"Password changed.")
        c.send_line(PW)
        c.expect(b"**** Invalid password! ****")
        self.assertIn(b"alice", a.command("who"))
        # And one waiting there with the new password gets in.
        d = self.connect(srv)
        d.expect(b"login: ")
        d.send_line("alice")
        d.expect(b"password: ")
        self.answer(a, "password %s %s" % (NEW, PW + "x"), b"Password changed.")
        d.send_line(PW + "x")
        d.expect(b"**** Starting FICS session as alice ****")

    def test_help_lists_password_not_passwd(self):
        srv = self.server()
        g = self.guest(srv)
        listing = g.command("help")
        self.assertIn(b"password", listing)
        self.assertNotIn(b"passwd ", listing)
        self.assertIn(b"oldpassword", g.command("help password"))


class LaskerAliases(ChessdTestCase):

    def tearDown(self):
        self.stop_servers_clean()

    def test_exit_logout_bye_quit(self):
        srv = self.start_server()
        for word in ("exit", "logout", "bye", "EXIT"):
            g = self.guest(srv)
            g.send_line(word)
            out = g.expect_closed()
            self.assertIn(b"Logging you out.", out, word)
            self.assertIn(b"Thank you for using", out, word)

    def test_znotl_is_znotify(self):
        srv = self.start_server()
        g = self.guest(srv)
        self.assertEqual(g.command("znotl"), g.command("znotify"))
        self.assertNotIn(b"Command not found", g.command("znotl"))

    def test_more_and_n_are_next(self):
        """lasker's pmore_text with nothing paged; "more" is not moretime's prefix."""
        srv = self.start_server()
        g = self.guest(srv)
        for word in ("next", "more", "n"):
            self.assertEqual(g.command(word), b"There is no more.\n\rfics% ")


if __name__ == "__main__":
    main()
