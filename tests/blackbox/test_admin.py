#!/usr/bin/env python3
"""Moderation by admins: nuke, addcomment/showcomment, announce, the admin
log, admin levels (no admin acts on one of the same or a higher level), and
a clear refusal for everyone else.  Every action reaches sessions already
online.  asetpasswd, address bans and shutdown have files of their own."""
import re

from chessd_harness import ChessdTestCase, db_rows, main

PW = "secret1"
FAST = {"commands_per_sec": 1000, "command_burst": 1000}
ADMIN_COMMANDS = ["nuke bob", "addcomment bob hi", "showcomment bob", "announce hi",
                  "shutdown 5", "asetpasswd bob", "banaddress 10.0.0.0/8",
                  "unbanaddress 10.0.0.0/8", "adminlog"]


class Admin(ChessdTestCase):
    def server(self, admins=("root",), players=("alice", "bob"), levels=None, **config):
        cfg = dict(FAST)
        cfg.update(config)
        srv = self.new_server(config=cfg, tls=False)
        for n in admins:
            srv.useradd(n, PW, admin=True)
        for n in players:
            srv.useradd(n, PW)
        for name, level in (levels or {}).items():
            r = srv.admin_cmd("admin", name, str(level))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout, "%s has admin level %d\n" % (name, level))
        srv.start()
        return srv

    def log_rows(self, srv):
        return db_rows(srv.db_path, "SELECT admin_id, admin, action, target_id, target, detail "
                                    "FROM admin_log ORDER BY id")

    def user_id(self, srv, name):
        return db_rows(srv.db_path, "SELECT id FROM users WHERE name = ?", name)[0][0]

    def test_non_admins_are_refused_in_one_line(self):
        srv = self.server()
        a = self.user(srv, "alice", PW)
        g = self.guest(srv)
        for c in (a, g):
            for line in ADMIN_COMMANDS:
                word = line.split()[0]
                self.assertEqual(c.command(line), b"Only administrators can use the " +
                                 word.encode() + b" command.\n\rfics% ")
        self.assertEqual(self.log_rows(srv), [])
        # whenshut is everyone's.
        self.assertEqual(a.command("whenshut"), b"No shutdown currently in progress\n\rfics% ")

    def test_nuke_disconnects_an_online_session_and_is_logged(self):
        srv = self.server()
        root = self.user(srv, "root", PW)
        b = self.user(srv, "bob", PW)
        g = self.guest(srv)
        reply = root.command("nuke bob")
        self.assertEqual(reply, b"Nuking: bob\n\rPlease leave a comment explaining why bob was "
                         b"nuked.\n\rfics% ")
        out = b.expect_closed()
        self.assertIn(b"**** You have been kicked out by root! ****", out)
        self.assertNotIn(b"bob", root.command("who"))
        self.assertEqual(root.command("nuke bob"), b"bob isn't logged in.\n\rfics% ")
        root.command("nuke " + g.name)
        g.expect_closed()
        self.assertRegex(root.command("showcomment bob"),
                         rb"^root at \w{3} \w{3} [ \d]\d, \d\d:\d\d UTC \d{4}: Nuked\n\rfics% ")
        rid, bid = self.user_id(srv, "root"), self.user_id(srv, "bob")
        self.assertEqual(self.log_rows(srv), [(rid, "root", "nuke", bid, "bob", ""),
                                              (rid, "root", "nuke", None, g.name, "")])

    def test_levels(self):
        srv = self.server(admins=("root", "head", "peer"), levels={"head": 5})
        root = self.user(srv, "root", PW)
        head = self.user(srv, "head", PW)
        self.user(srv, "peer", PW)
        self.assertEqual(root.command("nuke head"),
                         b"You need a higher adminlevel to nuke head!\n\rfics% ")
        self.assertEqual(root.command("nuke peer"),
                         b"You need a higher adminlevel to nuke peer!\n\rfics% ")
        self.assertEqual(root.command("asetpasswd head"),
                         b"You can only set password for players below your adminlevel.\n\rfics% ")
        self.assertEqual(root.command("addcomment head hmm"),
                         b"You need a higher adminlevel to comment on head.\n\rfics% ")
        self.assertIn(b"Nuking: root", head.command("nuke root"))
        self.assertEqual([r[2] for r in self.log_rows(srv)], ["nuke"])

    def test_comments(self):
        srv = self.server()
        root = self.user(srv, "root", PW)
        g = self.guest(srv)
        self.assertEqual(root.command("showcomment alice"),
                         b"There are no comments to show for alice.\n\rfics% ")
        self.assertEqual(root.command("addcomment alice warned for spam"),
                         b"Comment added for alice.\n\rfics% ")
        root.command("addcomment alice second note")
        listing = root.command("showcomment alice")
        self.assertEqual(re.findall(rb"(\w+) at \w{3} \w{3} [ \d]\d, \d\d:\d\d UTC \d{4}: "
                                    rb"(.*?)\n\r", listing),
                         [(b"root", b"warned for spam"), (b"root", b"second note")])
        self.assertEqual(root.command("addcomment " + g.name + " x"),
                         b"Player \"" + g.name.encode() + b"\" is unregistered and cannot have "
                         b"comments.\n\rfics% ")
        self.assertEqual(root.command("addcomment nobody x"),
                         b"There is no player matching that name.\n\rfics% ")
        srv.stop()
        srv.start()
        root = self.user(srv, "root", PW)
        self.assertIn(b"warned for spam", root.command("showcomment alice"))
        log = root.command("adminlog")
        self.assertTrue(log.startswith(b"Admin actions, oldest first:\n\r"), log)
        self.assertRegex(log, rb"\n\r +1 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC root \(#%d\) "
                         rb"addcomment alice: warned for spam\n\r" % self.user_id(srv, "root"))
        self.assertIn(b"addcomment alice: second note", log)
        self.assertNotIn(b"warned", root.command("adminlog 1"))
        # What admins did with the older admin commands is in it too.
        root.command("addnews Club night on Friday")
        self.assertIn(b"root (#%d) addnews: Club night on Friday\n\r" % self.user_id(srv, "root"),
                      root.command("adminlog 1"))
        self.assertEqual(root.command("adminlog 0"), b"adminlog shows 1 to 1000 entries.\n\rfics% ")
        aid = self.user_id(srv, "alice")
        root.command("remplayer alice")
        self.assertEqual(self.log_rows(srv)[-1][2:5], ("remplayer", aid, "alice"))

    def test_announce_reaches_everyone(self):
        srv = self.server()
        root = self.user(srv, "root", PW)
        a = self.user(srv, "alice", PW)
        g = self.guest(srv)
        a.command("set shout 0")
        self.assertEqual(root.command("announce Server maintenance at noon"),
                         b"\n\r(2) **ANNOUNCEMENT** from root: Server maintenance at noon\n\r\n\r"
                         b"fics% ")
        for c in (a, g):
            c.expect(b"\n\r\n\r    **ANNOUNCEMENT** from root: Server maintenance at noon\n\r"
                     b"\n\rfics% ")
        self.assertEqual(self.log_rows(srv)[-1][2:], ("announce", None, "", "Server maintenance "
                                                      "at noon"))


if __name__ == "__main__":
    main()
