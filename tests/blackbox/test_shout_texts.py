#!/usr/bin/env python3
"""shout, cshout and it as lasker's talkproc.c com_shout, com_cshout and
com_it say them: the shouter sees "(N) alice shouts: text" (N who heard it)
and "You are not listening to shouts." when deaf to them; cshout goes to
those with "set cshout 1" and is stopped by cmuzzle; "it" shows
"--> alice waves" ("--> alice's" before ' , and .).  Guests may do none of
them.  Each line is read with pychess's own ChatManager regexes."""
import re

import test_conformance_pychess as pychess_oracle
from chessd_harness import ChessdTestCase, main

PW = "shoutpw1"


class ShoutTexts(ChessdTestCase):

    def setUp(self):
        super().setUp()
        self.srv = self.start_server(start=False)
        for name in ("alice", "bob", "carl"):
            self.srv.useradd(name, PW)
        self.srv.useradd("root", PW, admin=True)
        self.srv.start()
        self.a = self.user(self.srv, "alice", PW)
        self.b = self.user(self.srv, "bob", PW)
        self.c = self.user(self.srv, "carl", PW)

    def heard(self, who, line):
        who.expect(b"\n\r" + line + b"\n\rfics% ")

    def test_shout_echo_and_deafness(self):
        self.assertEqual(self.a.command("shout hello"), b"(2) alice shouts: hello\n\rfics% ")
        for who in (self.b, self.c):
            self.heard(who, b"alice shouts: hello")
        self.assertEqual(self.a.command("set shout 0"), b"You will not hear shouts.\n\rfics% ")
        self.assertEqual(self.a.command("shout anyone"),
                         b"(2) alice shouts: anyone\n\rYou are not listening to shouts.\n\rfics% ")

    def test_cshout_goes_to_its_own_listeners(self):
        self.assertEqual(self.c.command("set cshout 0"), b"You will not hear cshouts.\n\rfics% ")
        self.assertEqual(self.a.command("cshout chess talk"), b"(1) alice c-shouts: chess talk\n\rfics% ")
        self.heard(self.b, b"alice c-shouts: chess talk")
        self.assertNotIn(b"c-shouts", self.c.read_for(0.3))
        # Shouts are not c-shouts: carl still hears those.
        self.a.command("shout plain")
        self.heard(self.c, b"alice shouts: plain")
        root = self.user(self.srv, "root", PW)
        root.command("+cmuzzle alice")
        self.a.expect(b"You have been added to the cmuzzle list by root.")
        self.a.expect_prompt()
        self.assertEqual(self.a.command("cshout again"), b"You are c-muzzled.\n\rfics% ")
        self.assertNotIn(b"again", self.b.read_for(0.3))

    def test_it(self):
        self.assertEqual(self.a.command("it waves"), b"--> alice waves\n\rfics% ")
        self.heard(self.b, b"--> alice waves")
        self.assertEqual(self.a.command("it 's bedtime"), b"--> alice's bedtime\n\rfics% ")
        self.heard(self.c, b"--> alice's bedtime")
        self.assertEqual(self.a.command("i nods"), b"--> alice nods\n\rfics% ")
        self.heard(self.b, b"--> alice nods")

    def test_guests_may_not(self):
        g = self.guest(self.srv)
        for cmd in ("shout", "cshout", "it"):
            self.assertEqual(g.command("%s hi" % cmd),
                             b"Only registered players can use the %s command.\n\rfics%% " % cmd.encode())
        self.assertNotIn(b"hi", self.b.read_for(0.3))

    def test_pychess_reads_what_listeners_get(self):
        start = len(self.b.seen)
        self.a.command("shout one")
        self.heard(self.b, b"alice shouts: one")
        self.a.command("cshout two")
        self.heard(self.b, b"alice c-shouts: two")
        self.a.command("it three")
        self.heard(self.b, b"--> alice three")
        got = pychess_oracle.ask_pychess({"b": self.b.seen[start:]})["transcripts"]["b"]
        shouts = pychess_oracle.handlers(got, "onShoutMessage")
        texts = [e["groups"][0] for e in shouts]
        self.assertEqual([(t[0], t[-1]) for t in texts],
                         [("alice", "one"), ("alice", "two"), ("alice", "three")], got)


if __name__ == "__main__":
    main()
