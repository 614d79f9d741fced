#!/usr/bin/env python3
"""Messages left for registered players (FICS's message, messages,
clearmessages): stored by account, delivered at once to a recipient who is
online, counted at login with FICS's follow-up line, capped per recipient,
refused to and from guests, and kept across a restart."""
import re
import sqlite3

from chessd_harness import ChessdTestCase, main

PW = "secret1"
# FICS's message line: "NN. sender at Tue Dec  1, 13:40 UTC 2026: text".
LINE_RE = rb" ?(\d+)\. (\w+) at \w{3} \w{3} [ \d]\d, \d\d:\d\d UTC \d{4}: (.*?)\n\r"


class Messages(ChessdTestCase):
    def server(self, names=("alice", "bob", "carol"), **config):
        cfg = {"commands_per_sec": 1000, "command_burst": 1000}
        cfg.update(config)
        srv = self.new_server(config=cfg, tls=False)
        for n in names:
            srv.useradd(n, PW)
        srv.start()
        return srv

    def test_offline_message_survives_restart_and_is_counted_at_login(self):
        srv = self.server()
        a = self.user(srv, "alice", PW)
        reply = a.command("message bob Hello there, bob")
        self.assertEqual(reply, b"\n\rThe following message was sent to bob: \n\r"
                                b"   Hello there, bob\n\rfics% ")
        a.command("message bob second one")
        srv.stop()
        srv.start()
        b = self.connect(srv)
        out = b.login("bob", PW)
        self.assertIn(b"\n\rYou have 2 messages.\n\rUse \"messages\" to display them, or "
                      b"\"clearmessages\" to remove them.\n\r", out)
        listing = b.command("messages")
        self.assertTrue(listing.startswith(b"Messages:\n\r"), listing)
        got = re.findall(LINE_RE, listing)
        self.assertEqual(got, [(b"1", b"alice", b"Hello there, bob"),
                               (b"2", b"alice", b"second one")])
        # Stored by account ids, not names.
        con = sqlite3.connect(srv.db_path)
        ids = dict(con.execute("SELECT name, id FROM users"))
        rows = con.execute("SELECT recipient_id, sender_id FROM messages").fetchall()
        con.close()
        self.assertEqual(rows, [(ids["bob"], ids["alice"])] * 2)

    def test_one_message_is_singular(self):
        srv = self.server()
        self.user(srv, "alice", PW).command("message bob just one")
        out = self.connect(srv).login("bob", PW)
        self.assertIn(b"\n\rYou have 1 message.\n\rUse \"messages\" to display it, or "
                      b"\"clearmessages\" to remove it.\n\r", out)
        # No messages, no line.
        self.assertNotIn(b"You have", self.connect(srv).login("carol", PW))

    def test_online_recipient_gets_it_at_once(self):
        srv = self.server()
        a = self.user(srv, "alice", PW)
        b = self.user(srv, "bob", PW)
        a.command("messages bob are you there?")
        b.expect(b"\n\ralice just sent you a message:\n\r    are you there?\n\r")
        b.expect_prompt()
        self.assertEqual(re.findall(LINE_RE, b.command("messages")),
                         [(b"1", b"alice", b"are you there?")])

    def test_messages_n_and_name_and_clearing(self):
        srv = self.server()
        a = self.user(srv, "alice", PW)
        c = self.user(srv, "carol", PW)
        a.command("message bob from alice 1")
        c.command("message bob from carol")
        a.command("message bob from alice 2")
        b = self.user(srv, "bob", PW)
        self.assertEqual(re.findall(LINE_RE, b.command("messages 2")),
                         [(b"2", b"carol", b"from carol")])
        self.assertEqual(b.command("messages 4"), b"You do not have a message 4.\n\rfics% ")
        both = a.command("messages bob")
        self.assertIn(b"Messages to bob:\n\ralice at ", both)
        # FICS heads a list only when it has a message.
        self.assertTrue(both.endswith(b"\n\r\n\rYou have no messages from bob.\n\rfics% "), both)
        self.assertNotIn(b"Messages from bob:", both)
        from_alice = b.command("messages alice")
        self.assertTrue(from_alice.startswith(b"alice has no messages from you.\n\r"
                                              b"Messages from alice:\n\r"), from_alice)
        self.assertNotIn(b"Messages to alice:", from_alice)
        self.assertEqual(re.findall(LINE_RE, from_alice),
                         [(b"1", b"alice", b"from alice 1"), (b"3", b"alice", b"from alice 2")])
        self.assertEqual(b.command("clearmessages 2"), b"Message 2 cleared.\n\rfics% ")
        self.assertEqual(b.command("clearmessages 9"), b"You do not have a message 9.\n\rfics% ")
        self.assertEqual(b.command("clearmessages carol"),
                         b"You have no messages from carol.\n\rfics% ")
        self.assertEqual(b.command("clearmessages alice"),
                         b"Messages from alice cleared.\n\rfics% ")
        self.assertEqual(b.command("messages"), b"You have no messages.\n\rfics% ")
        a.command("message bob again")
        b.expect(b"alice just sent you a message:")
        b.expect_prompt()
        self.assertEqual(b.command("clearmessages *"), b"Messages cleared.\n\rfics% ")
        self.assertEqual(b.command("clearmessages"), b"You have no messages.\n\rfics% ")
        self.assertEqual(b.command("messages nosuchname"),
                         b"There is no player matching that name.\n\rfics% ")

    def test_guests_neither_send_nor_receive(self):
        srv = self.server()
        g = self.guest(srv)
        a = self.user(srv, "alice", PW)
        self.assertEqual(g.command("message alice hi"),
                         b"You are not registered and cannot send messages.\n\rfics% ")
        self.assertEqual(g.command("messages"),
                         b"Unregistered players may not send or receive messages.\n\rfics% ")
        self.assertEqual(g.command("clearmessages *"), b"You have no messages.\n\rfics% ")
        self.assertEqual(a.command("message %s hi" % g.name),
                         b"Player \"" + g.name.encode() + b"\" is unregistered and cannot "
                         b"receive messages.\n\rfics% ")
        self.assertEqual(a.command("messages %s" % g.name),
                         b"Player \"" + g.name.encode() + b"\" is unregistered and cannot send "
                         b"or receive messages.\n\rfics% ")
        self.assertEqual(a.command("message nobodyhere hi"),
                         b"There is no player matching that name.\n\rfics% ")
        self.assertEqual(a.command("message"), b"Usage: message <name> <text>\n\rfics% ")

    def test_cap_per_recipient(self):
        srv = self.server(messages_per_user=2)
        a = self.user(srv, "alice", PW)
        a.command("message bob one")
        a.command("message bob two")
        self.assertEqual(a.command("message bob three"),
                         b"Couldn't send message to bob. Message buffer full.\n\rfics% ")
        b = self.user(srv, "bob", PW)
        self.assertEqual(len(re.findall(LINE_RE, b.command("messages"))), 2)
        b.command("clearmessages 1")
        self.assertIn(b"The following message was sent to bob:", a.command("message bob three"))


if __name__ == "__main__":
    main()
