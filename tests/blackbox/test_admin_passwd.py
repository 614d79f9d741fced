#!/usr/bin/env python3
"""asetpasswd: an admin sets a player's password, typed on the next line,
which is not echoed (telnet), not shown back, not logged nor stored but as
its hash; the player, if online, is told; it is the account asked for, by
id, that changes."""
import sqlite3

import chessd_harness as H
import test_admin
from chessd_harness import ChessdTestCase, main
from test_admin import PW


class Asetpasswd(ChessdTestCase):
    server = test_admin.Admin.server
    log_rows = test_admin.Admin.log_rows
    user_id = test_admin.Admin.user_id

    def test_asetpasswd_reads_the_next_line_unechoed_and_never_logs_it(self):
        srv = self.server()
        root = self.user(srv, "root", PW)
        b = self.user(srv, "bob", PW)
        root.send_line("asetpasswd bob")
        root.expect(b"New password for bob: ")
        self.assertIn(H.IAC_WILL_ECHO, root.seen)
        secret = "Zq9newSecretPw"
        root.send_line(secret)
        root.expect(b"Password of bob changed.\n\r")
        root.expect_prompt()
        self.assertIn(H.IAC_WONT_ECHO, root.seen)
        self.assertNotIn(secret.encode(), root.seen)
        b.expect(b"CHESSD: root has changed your password.")
        b.close()
        self.assertIn(b"bob", self.connect(srv).login("bob", secret))
        bad = self.connect(srv)
        bad.expect(b"login: ")
        bad.send_line("bob")
        bad.expect(b"password: ")
        bad.send_line(PW)
        bad.expect(b"**** Invalid password! ****")
        # Too short: refused, the old one stays.
        root.send_line("asetpasswd alice")
        root.expect(b"New password for alice: ")
        root.send_line("ab")
        self.assertIn(b"Password not changed.", root.expect_prompt())
        self.connect(srv).login("alice", PW)
        srv.stop()
        self.assertNotIn(secret, srv.all_logs())
        con = sqlite3.connect(srv.db_path)
        dump = "\n".join(con.iterdump())
        con.close()
        self.assertNotIn(secret, dump)
        self.assertIn(("asetpasswd", self.user_id(srv, "bob"), "bob", ""),
                      [r[2:] for r in self.log_rows(srv)])


    def test_asetpasswd_is_for_the_account_asked_for(self):
        srv = self.server()
        root = self.user(srv, "root", PW)
        root.send_line("asetpasswd bob")
        root.expect(b"New password for bob: ")
        # bob is deleted and the name registered again before the line comes.
        self.assertEqual(H.run_admin(srv.data_dir, "userdel", "bob").returncode, 0)
        srv.useradd("bob", "bobsnewpw1")
        root.send_line("Zq9newSecretPw")
        root.expect(b"Password not changed: the account bob is gone.\n\r")
        self.connect(srv).login("bob", "bobsnewpw1")



if __name__ == "__main__":
    main()
