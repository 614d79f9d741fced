#!/usr/bin/env python3
"""notify and gnotify: the lines (parsed with pychess's own patterns), znotify,
guests' lists, lists across a restart, and identity (entries name accounts,
not names)."""
import re

import chessd_harness as H
from chessd_harness import ChessdTestCase, main
from lists_harness import pychess_patterns

PW = "secret1"


class Notify(ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.start_server(config={"list_entries": 3})
        for name in ("alice", "bob", "carol"):
            self.srv.useradd(name, PW)

    def login(self, name):
        return self.user(self.srv, name, PW)

    def test_notify_arrival_departure_and_present_company(self):
        pats = pychess_patterns()
        arrived = re.compile(pats["onArrivalNotification"][0][0])
        departed = re.compile(pats["onDepartedNotification"][0][0])
        a = self.login("alice")
        a.command("+notify bob")
        c = self.login("carol")
        c.command("+notify bob")
        b = self.connect(self.srv)
        transcript = b.login("bob", PW)
        self.assertIn(b"Your arrival was noted by: ", transcript)
        noted = re.search(rb"Your arrival was noted by: (.*)\.\n", transcript).group(1).split()
        self.assertEqual(sorted(noted), [b"alice", b"carol"])
        for who in (a, c):
            who.expect(b"\n\rNotification: bob has arrived.\n\rfics% ")
            self.assertEqual(arrived.search("Notification: bob has arrived.").group(1), "bob")
        # Someone not listing bob hears nothing.
        g = self.guest(self.srv)
        # znotify, both ways.
        self.assertEqual(a.command("znotify"),
                         b"Present company on your notify list:\n\r   bob\n\r"
                         b"No one logged in has you on their notify list.\n\rfics% ")
        self.assertEqual(b.command("znotify"),
                         b"No one from your notify list is logged on.\n\r"
                         b"The following players have you on their notify list:\n\r   "
                         + b" ".join(sorted([b"alice", b"carol"], key=lambda n: n)) + b"\n\rfics% ")
        # At login: who of one's notify list is here.
        a.send_line("quit")
        a.expect_closed()
        a2 = self.connect(self.srv)
        self.assertIn(b"Present company includes: bob.\n", a2.login("alice", PW))
        b.send_line("quit")
        b.expect_closed()
        for who in (a2, c):
            out = who.expect(b"Notification: bob has departed.")
            self.assertTrue(departed.search(out.decode().replace("\r", "")))
        self.assertNotIn(b"Notification", g.read_for(0.3))

    def test_guests_arrivals_are_not_notified_but_guests_keep_lists(self):
        g = self.guest(self.srv)
        self.assertEqual(g.command("+notify alice"),
                         b"[alice] added to your notify list.\n\rfics% ")
        a = self.login("alice")
        g.expect(b"Notification: alice has arrived.")
        g.expect_prompt()
        # A guest's own entry in a list lives as long as its session.
        self.assertEqual(a.command("+censor " + g.name),
                         b"[%s] added to your censor list.\n\rfics%% " % g.name.encode())
        self.assertEqual(g.command("tell alice hi"),
                         b'Player "alice" is censoring you.\n\rfics% ')
        name = g.name
        g.send_line("quit")
        g.expect_closed()
        # Gone with the session: a new guest under that name is someone else.
        h = self.connect(self.srv)
        h.login_unregistered(name)
        self.assertEqual(h.command("tell alice hello"), b"(told alice)\n\rfics% ")
        a.expect(b"tells you: hello")
        a.expect_prompt()
        # and the departed guest is on nobody's list any more
        self.assertEqual(a.command("-censor " + name),
                         b"[%s] is not in your censor list.\n\rfics%% " % name.encode())

    def test_gnotify(self):
        c = self.login("carol")
        c.command("+gnotify alice")
        c.command("+gnotify bob")
        g = self.guest(self.srv)
        g.command("+gnotify alice")
        a, b = self.login("alice"), self.login("bob")
        a.command("match bob 5 0 white")
        b.expect(b'You can "accept" or "decline"')
        b.send_line("accept")
        created = a.expect(re.compile(
            rb"Creating: alice \((\S+)\) bob \((\S+)\) (rated blitz 5 0)"))
        ra, rb_, kind = a.match.groups()
        a.expect(re.compile(rb"\{Game (\d+) "))
        game = a.match.group(1)
        want = b"Game notification: alice (%s) vs. bob (%s) %s: Game %s" % (ra, rb_, kind, game)
        out = c.expect(want)
        g.expect(want)
        # One line for a listener who lists both players.
        self.assertEqual((out + c.read_for(0.3)).count(b"Game notification"), 1)
        self.assertNotIn(b"Game notification", created)

    def test_lists_survive_a_restart(self):
        a = self.login("alice")
        for cmd in ("+notify bob", "+gnotify carol", "+censor bob", "+noplay carol"):
            a.command(cmd)
        self.srv.stop()
        self.srv.start()
        a = self.login("alice")
        self.assertEqual(a.command("=notify"), b"-- notify list: 1 name --\n\rbob\n\rfics% ")
        self.assertEqual(a.command("=gnotify"), b"-- gnotify list: 1 name --\n\rcarol\n\rfics% ")
        self.assertEqual(a.command("=censor"), b"-- censor list: 1 name --\n\rbob\n\rfics% ")
        self.assertEqual(a.command("=noplay"), b"-- noplay list: 1 name --\n\rcarol\n\rfics% ")
        b = self.login("bob")
        self.assertEqual(b.command("tell alice hi"), b'Player "alice" is censoring you.\n\rfics% ')

    def test_entry_for_deleted_account_does_not_pass_to_a_new_one(self):
        a = self.login("alice")
        a.command("+censor bob")
        a.command("+notify bob")
        # bob's account goes beside the running server and a new bob registers.
        r = H.run_admin(self.srv.data_dir, "userdel", "bob")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.srv.useradd("bob", "other22")
        b = self.user(self.srv, "bob", "other22")
        # Even before the running server has noticed the deletion, the new bob is not the old.
        self.assertEqual(b.command("tell alice early"), b"(told alice)\n\rfics% ")
        a.expect(b"bob tells you: early")
        a.expect_prompt()
        self.srv.wait_log(re.compile(r"account \d+ deleted"))
        b.send_line("quit")
        b.expect_closed()
        b = self.user(self.srv, "bob", "other22")
        self.assertEqual(b.command("tell alice hello"), b"(told alice)\n\rfics% ")
        out = a.expect(b"bob tells you: hello")
        out += a.expect_prompt()
        self.assertNotIn(b"Notification: bob has arrived", out)
        self.assertEqual(a.command("=censor"), b"-- censor list: 0 names --\n\rfics% ")
        # And after a restart too.
        self.srv.stop()
        self.srv.start()
        a = self.login("alice")
        self.assertEqual(a.command("=notify"), b"-- notify list: 0 names --\n\rfics% ")
        b = self.user(self.srv, "bob", "other22")
        self.assertEqual(b.command("tell alice again"), b"(told alice)\n\rfics% ")


if __name__ == "__main__":
    main()
