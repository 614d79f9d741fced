#!/usr/bin/env python3
"""Messages past a censor list, and the lines FICS gives for a guest's name:
an administrator's message reaches a player censoring them (online or not),
a player's does not, and clearing messages "from" a guest finds none."""
import re

from chessd_harness import ChessdTestCase, main

PW = "secret1"
LINE_RE = rb" ?(\d+)\. (\w+) at [^:]+:\d\d UTC \d{4}: (.*?)\n\r"


class MessagesCensor(ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.new_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                                   tls=False)
        for name in ("alice", "bob"):
            self.srv.useradd(name, PW)
        self.srv.useradd("root", PW, admin=True)
        self.srv.start()

    def test_an_admins_message_passes_a_censor(self):
        a, b = self.user(self.srv, "alice", PW), self.user(self.srv, "bob", PW)
        root = self.user(self.srv, "root", PW)
        self.assertIn(b"added", b.command("+censor alice"))
        self.assertIn(b"added", b.command("+censor root"))
        self.assertEqual(a.command("message bob hi"), b'Player "bob" is censoring you.\n\rfics% ')
        self.assertEqual(root.command("message bob listen"),
                         b"\n\rThe following message was sent to bob: \n\r   listen\n\rfics% ")
        b.expect(b"\n\rroot just sent you a message:\n\r    listen\n\r")
        b.expect_prompt()
        # Offline, the stored list decides the same way.
        b.close()
        self.assertEqual(a.command("message bob still?"), b'Player "bob" is censoring you.\n\rfics% ')
        self.assertIn(b"The following message was sent to bob: ", root.command("message bob later"))
        b = self.user(self.srv, "bob", PW)
        self.assertEqual(re.findall(LINE_RE, b.command("messages")),
                         [(b"1", b"root", b"listen"), (b"2", b"root", b"later")])

    def test_clearing_messages_from_a_guest(self):
        a, b = self.user(self.srv, "alice", PW), self.user(self.srv, "bob", PW)
        g = self.guest(self.srv)
        b.command("message alice one")
        a.expect(b"bob just sent you a message:")
        a.expect_prompt()
        self.assertEqual(a.command("clearmessages %s" % g.name),
                         b"You have no messages from " + g.name.encode() + b".\n\rfics% ")
        self.assertEqual(a.command("clearmessages nobodyhere"),
                         b"There is no player matching that name.\n\rfics% ")
        self.assertEqual(len(re.findall(LINE_RE, a.command("messages"))), 1)


if __name__ == "__main__":
    main()
