"""Attacking the lists across account removal: everyone lists the old bob
everywhere (alice's notify, gnotify, censor and noplay, a guest's notify,
the admin's muzzle, cmuzzle, td, computer, admin and ban lists) and he
directs a tournament; his account is removed (by `remplayer` while alice
is online, or by `chessd userdel` beside the server while she is away),
and a new account takes the name.  No entry applies to the newcomer: each
is checked by what it does, not only by what the list shows."""
import re

import chessd_harness as H
from games_harness import FAST, GT, GamesTestCase, main

PW = "secret1"
NEWPW = "newpw123"
PERSONAL = ("notify", "gnotify", "censor", "noplay")
PUBLIC = ("muzzle", "cmuzzle", "td", "computer", "ban", "admin")


class DeletedListMember(GamesTestCase):

    def tearDown(self):
        self.stop_servers_clean()

    def server(self):
        srv = self.new_server(config=FAST, tls=False)
        srv.useradd("root", PW, admin=True)
        for n in ("alice", "bob", "carol"):
            srv.useradd(n, PW)
        srv.start()
        return srv

    def ask(self, c, line):
        """The reply to line alone, without notifications queued before it."""
        return self.cmd(c, line).split(b"fics% ")[-1]

    def list_old_bob(self, srv, r, a, g):
        b = self.user_player(srv, "bob", PW)
        self.assertIn(b"Created tourney 1", self.cmd(b, "tourney create Old swiss 3 5 0 unrated"))
        for kind in PERSONAL:
            self.assertIn(b"[bob] added to your %s list." % kind.encode(),
                          self.cmd(a, "+%s bob" % kind))
        self.assertIn(b"[bob] added to your notify list.", self.cmd(g, "+notify bob"))
        for owner in (a, g):
            self.assertIn(b"You will now be following bob's games.", self.cmd(owner, "follow bob"))
        for kind in PUBLIC:
            self.assertIn(b"[bob] added to the %s list." % kind.encode(),
                          self.cmd(r, "+%s bob" % kind))
        b.close()
        for kind in PUBLIC:
            self.assertIn(b"bob", self.ask(r, "=" + kind))

    def new_bob(self, srv):
        guest = self.guest_player(srv)
        self.assertIn(b"You are now registered as bob.", self.cmd(guest, "register bob " + NEWPW))
        guest.close()
        return self.user_player(srv, "bob", NEWPW)

    def check_nothing_applies(self, srv, r, a, g, b):
        for kind in PERSONAL:
            self.assertEqual(self.ask(a, "=" + kind),
                             b"-- %s list: 0 names --\n\r" % kind.encode())
        self.assertEqual(self.ask(g, "=notify"), b"-- notify list: 0 names --\n\r")
        for kind in PUBLIC:
            self.assertNotIn(b"bob", self.ask(r, "=" + kind), kind)
        self.assertIn(b"No one logged in has you on their notify list.", self.cmd(b, "znotify"))
        # censor: his tells reach alice.
        self.assertIn(b"(told alice)", self.cmd(b, "tell alice hello"))
        a.expect(b"bob tells you: hello", GT)
        # muzzle, cmuzzle: he may shout and talk in a channel.
        self.assertIn(b"bob shouts: hi all", self.cmd(b, "shout hi all"))
        self.cmd(b, "+channel 5")
        self.cmd(a, "+channel 5")
        self.assertNotIn(b"muzzled", self.cmd(b, "tell 5 hi channel"))
        a.expect(b"bob(5): hi channel", GT)
        # admin: not his rights; computer: not marked (C).
        self.assertIn(b"insufficient rights", self.cmd(b, "+muzzle carol"))
        self.assertNotIn(b"bob(C)", self.cmd(r, "who"))
        # director: not his tournament.
        self.assertIn(b"Only the director (bob) or an admin can",
                      self.cmd(b, "tourney start 1"))
        # noplay and censor: alice can be challenged; gnotify: his game is
        # nobody's news.
        out = self.cmd(b, "match alice 5 0")
        self.assertIn(b"Issuing: bob", out)
        a.expect(b"Challenge: bob", GT)
        self.cmd(b, "withdraw")
        c = self.user_player(srv, "carol", PW)
        self.start_match(b, c, "5 0 unrated")
        for owner in (a, g):
            seen = owner.read_for(0.5)
            self.assertNotIn(b"Game notification", seen)
            self.assertNotIn(b"observing", seen)

    def test_remplayer_with_the_owners_online(self):
        srv = self.server()
        r = self.user_player(srv, "root", PW)
        a = self.user_player(srv, "alice", PW)
        g = self.guest_player(srv)
        self.list_old_bob(srv, r, a, g)
        self.assertIn(b"Account bob deleted.", self.cmd(r, "remplayer bob"))
        b = self.new_bob(srv)
        # notify: nobody is told the newcomer arrived.
        for owner in (a, g):
            self.assertNotIn(b"Notification: bob has arrived", owner.read_for(0.3))
        self.check_nothing_applies(srv, r, a, g, b)

    def test_a_guest_under_the_name(self):
        """The name is free for a guest after the removal; a guest is not the
        account either."""
        srv = self.server()
        r = self.user_player(srv, "root", PW)
        a = self.user_player(srv, "alice", PW)
        g = self.guest_player(srv)
        self.list_old_bob(srv, r, a, g)
        self.assertIn(b"Account bob deleted.", self.cmd(r, "remplayer bob"))
        b = self.connect(srv)
        b.login_unregistered("bob")
        self.setup_client(b)
        for kind in PERSONAL:
            self.assertEqual(self.ask(a, "=" + kind),
                             b"-- %s list: 0 names --\n\r" % kind.encode())
        self.assertIn(b"(told alice)", self.cmd(b, "tell alice hello"))
        a.expect(b"bob(U) tells you: hello", GT)
        self.assertIn(b"Issuing: bob", self.cmd(b, "match alice 5 0 unrated"))
        a.expect(b"Challenge: bob", GT)
        self.cmd(b, "withdraw")
        c = self.user_player(srv, "carol", PW)
        self.start_match(b, c, "5 0 unrated")
        for owner in (a, g):
            seen = owner.read_for(0.5)
            self.assertNotIn(b"Game notification", seen)
            self.assertNotIn(b"observing", seen)

    def test_userdel_beside_the_server_with_the_owner_away(self):
        srv = self.server()
        r = self.user_player(srv, "root", PW)
        a = self.user_player(srv, "alice", PW)
        g = self.guest_player(srv)
        self.list_old_bob(srv, r, a, g)
        a.close()
        res = H.run_admin(srv.data_dir, "userdel", "bob")
        self.assertEqual(res.returncode, 0, res.stderr)
        srv.wait_log(re.compile(r"account \d+ deleted"))
        b = self.new_bob(srv)
        self.assertNotIn(b"Notification: bob has arrived", g.read_for(0.3))
        a = self.connect(srv)
        out = a.login("alice", PW, timeout=GT)
        self.assertNotIn(b"Present company includes", out)
        self.setup_client(a)
        self.check_nothing_applies(srv, r, a, g, b)


if __name__ == "__main__":
    main()
