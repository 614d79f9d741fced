#!/usr/bin/env python3
"""Public lists and admin levels: muzzle, cmuzzle and ban act against a
player, so (as nuke) only on lower levels; the role lists (admin, td,
computer) may not touch a higher level.  Every change is in the admin log."""
import sqlite3

from chessd_harness import ChessdTestCase, main

PW = "secret1"


class ListLevels(ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.new_server(tls=False)
        for name in ("root", "peer", "head"):
            self.srv.useradd(name, PW, admin=True)
        self.srv.useradd("alice", PW)
        r = self.srv.admin_cmd("admin", "head", "5")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.srv.start()
        self.root = self.user(self.srv, "root", PW)
        self.head = self.user(self.srv, "head", PW)

    def test_levels_guard_public_lists(self):
        root, head = self.root, self.head
        for lst in ("muzzle", "cmuzzle", "ban"):
            self.assertEqual(root.command("+%s peer" % lst),
                             b"You need a higher adminlevel to change peer's place on the " +
                             lst.encode() + b" list.\n\rfics% ")
            self.assertEqual(root.command("+%s head" % lst),
                             b"You need a higher adminlevel to change head's place on the " +
                             lst.encode() + b" list.\n\rfics% ")
        self.assertEqual(root.command("-admin head"),
                         b"You need a higher adminlevel to change head's place on the admin "
                         b"list.\n\rfics% ")
        # The same level may share a role; a higher one may act against it.
        self.assertEqual(root.command("+td peer"), b"[peer] added to the td list.\n\rfics% ")
        self.assertEqual(head.command("+muzzle peer"),
                         b"[peer] added to the muzzle list.\n\rfics% ")
        self.assertEqual(root.command("+muzzle alice"),
                         b"[alice] added to the muzzle list.\n\rfics% ")
        self.assertEqual(self.guest(self.srv).command("=muzzle"),
                         b"-- muzzle list: 2 names --\n\ralice peer\n\rfics% ")
        con = sqlite3.connect(self.srv.db_path)
        rows = con.execute("SELECT action, target, detail FROM admin_log ORDER BY id").fetchall()
        con.close()
        self.assertEqual(rows, [("addlist", "peer", "td"), ("addlist", "peer", "muzzle"),
                                ("addlist", "alice", "muzzle")])


if __name__ == "__main__":
    main()
