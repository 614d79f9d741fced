"""Attacking identity through names given again: a guest (or an unregistered
name) leaves and someone else logs in under the same name; an account
logs out and back in.  What belonged to the first session (offers, seeks,
observing, following, list entries, the target of `tell .`) must not pass
to the second; what belongs to an account follows the account."""
import re
import time

from games_harness import FAST, GT, GamesTestCase, main

PW = "secret1"


class NameSessions(GamesTestCase):
    """Servers with accounts, unregistered logins and leaving, for the
    tests of names given again (here, in test_attack_identity_seeks and in
    test_reply)."""

    def tearDown(self):
        self.stop_servers_clean()

    def server(self, *names, admin=()):
        srv = self.new_server(config=FAST, tls=False)
        for n in names:
            srv.useradd(n, PW, admin=n in admin)
        srv.start()
        return srv

    def unregistered(self, srv, name):
        c = self.connect(srv)
        c.login_unregistered(name, GT)
        return self.setup_client(c)

    def ask(self, c, line):
        """The reply to line alone, without notifications queued before it."""
        return self.cmd(c, line).split(b"fics% ")[-1]

    def leave(self, c, others):
        c.send_line("quit")
        c.expect_closed(GT)
        deadline = time.monotonic() + GT
        for o in others:
            while re.search(rb"\b%s\b" % c.name.encode(), self.ask(o, "who")):
                self.assertLess(time.monotonic(), deadline, "%s still online" % c.name)
                time.sleep(0.05)


class NameGivenAgain(NameSessions):

    def test_tell_dot_reaches_the_person_told_not_the_name(self):
        srv = self.server("alice")
        a = self.user_player(srv, "alice", PW)
        z = self.unregistered(srv, "zed")
        self.assertEqual(self.ask(a, "tell zed my phone is 555"), b"(told zed)\n\r")
        z.expect(b"alice tells you: my phone is 555", GT)
        self.assertEqual(self.ask(a, "tell . still you?"), b"(told zed)\n\r")
        self.leave(z, [a])
        z2 = self.unregistered(srv, "zed")
        self.assertEqual(self.ask(a, "tell . and my pin is 1234"),
                         b"zed, whom you last told, is not logged in.\n\r")
        self.assertNotIn(b"pin", z2.read_for(0.5))
        # Naming the new zed is a new conversation, and `.` then means it.
        self.assertEqual(self.ask(a, "tell zed hello stranger"), b"(told zed)\n\r")
        self.assertEqual(self.ask(a, "tell . again"), b"(told zed)\n\r")
        z2.expect(b"alice tells you: again", GT)

    def test_tell_dot_follows_an_account_across_logins(self):
        srv = self.server("alice", "carl")
        a = self.user_player(srv, "alice", PW)
        c = self.user_player(srv, "carl", PW)
        self.ask(a, "tell carl hi")
        self.leave(c, [a])
        self.assertEqual(self.ask(a, "tell . there?"),
                         b"carl, whom you last told, is not logged in.\n\r")
        c = self.user_player(srv, "carl", PW)
        self.assertEqual(self.ask(a, "tell . welcome back"), b"(told carl)\n\r")
        c.expect(b"alice tells you: welcome back", GT)

    def test_tell_dot_does_not_reach_a_new_account_under_a_deleted_name(self):
        srv = self.new_server(config=FAST, tls=False)
        srv.useradd("root", PW, admin=True)
        srv.useradd("alice", PW)
        srv.useradd("carl", PW)
        srv.start()
        r = self.user_player(srv, "root", PW)
        a = self.user_player(srv, "alice", PW)
        c = self.user_player(srv, "carl", PW)
        self.ask(a, "tell carl hi")
        self.assertIn(b"Account carl deleted.", self.ask(r, "remplayer carl"))
        c.expect_closed(GT)
        srv.useradd("carl", "otherpw1")
        c2 = self.user_player(srv, "carl", "otherpw1")
        self.assertEqual(self.ask(a, "tell . secret"),
                         b"carl, whom you last told, is not logged in.\n\r")
        self.assertNotIn(b"secret", c2.read_for(0.5))

    def test_nothing_of_a_guest_passes_to_the_next_under_its_name(self):
        """Already right: offers, seeks, observing, following and list entries
        belong to the session; a new zed starts with none of them."""
        srv = self.server("alice", "carl", "dora")
        a = self.user_player(srv, "alice", PW)
        c = self.user_player(srv, "carl", PW)
        d = self.user_player(srv, "dora", PW)
        z = self.unregistered(srv, "zed")
        n, _ = self.start_match(c, d, "5 0 unrated")
        self.assertIn(b"Issuing:", self.ask(a, "match zed 5 0"))
        z.expect(b"decline", GT)
        self.assertIn(b"Your seek has been posted", self.ask(z, "seek 7 0"))
        self.assertIn(b"Issuing:", self.ask(z, "match alice 3 0"))
        self.assertIn(b"You are now observing game %d." % n, self.ask(z, "observe %d" % n))
        self.assertIn(b"following carl", self.ask(z, "follow carl"))
        for line in ("+censor alice", "+noplay alice"):
            self.assertIn(b"added", self.ask(z, line))
        self.assertIn(b"added", self.ask(a, "+censor zed"))
        self.assertIn(b"Created tourney 1", self.ask(a, "tourney create T rr 1 5 0 unrated"))
        self.assertEqual(self.ask(z, "tourney join 1"),
                         b"Only registered players can play in tournaments.\n\r")
        self.leave(z, [a])
        z2 = self.unregistered(srv, "zed")
        self.assertEqual(self.ask(z2, "pending"),
                         b"There are no offers pending TO other players.\n\r\n\r"
                         b"There are no offers pending FROM other players.\n\r")
        self.assertEqual(self.ask(a, "pending"),
                         b"There are no offers pending TO other players.\n\r\n\r"
                         b"There are no offers pending FROM other players.\n\r")
        self.assertEqual(self.ask(z2, "accept"), b"You have no offers to accept.\n\r")
        self.assertEqual(self.ask(a, "accept zed"), b"You have no offers to accept.\n\r")
        self.assertNotIn(b"zed", self.ask(a, "sought"))
        self.assertEqual(self.ask(z2, "follow"), b"You are not following any player's games.\n\r")
        self.assertNotIn(b"zed", self.ask(c, "allobservers %d" % n))
        for lst in ("censor", "noplay"):
            self.assertIn(b"0 names", self.ask(z2, "=" + lst))
        # alice censored the first zed, not the name.
        self.assertEqual(self.ask(z2, "tell alice hi"), b"(told alice)\n\r")
        a.expect(b"zed(U) tells you: hi", GT)
        # The old follow and observe do not carry carl's moves to the new zed.
        self.move(c, d, "e4")
        self.assertNotIn(b"<12>", z2.read_for(0.5))

    def test_a_guest_gone_is_on_no_ones_list(self):
        """alice's lists named the first zed; once it has left they do not
        show "zed", as if the next zed were censored or awaited."""
        srv = self.server("alice")
        a = self.user_player(srv, "alice", PW)
        z = self.unregistered(srv, "zed")
        g = self.guest_player(srv)
        for lst in ("censor", "notify", "gnotify", "noplay"):
            self.assertIn(b"[zed] added", self.ask(a, "+%s zed" % lst))
            self.assertIn(b"[%s] added" % g.name.encode(), self.ask(a, "+%s %s" % (lst, g.name)))
        self.leave(z, [a])
        for lst in ("censor", "notify", "gnotify", "noplay"):
            self.assertEqual(self.ask(a, "=" + lst),
                             b"-- %s list: 1 name --\n\r%s\n\r" % (lst.encode(), g.name.encode()))
        z2 = self.unregistered(srv, "zed")
        self.assertEqual(self.ask(z2, "tell alice hi"), b"(told alice)\n\r")
        self.assertIn(b"Issuing:", self.ask(z2, "match alice 5 0"))
        # The guest still here is still on them, and still censored.
        self.assertEqual(self.ask(g, "tell alice hi"), b'Player "alice" is censoring you.\n\r')

    def test_a_guests_adjourned_game_is_offered_to_no_one(self):
        """alice adjourned a game with the guest zed; a later zed is asked to
        resume nothing, and a bare `match zed` is an ordinary challenge."""
        srv = self.server("alice")
        a = self.user_player(srv, "alice", PW)
        z = self.unregistered(srv, "zed")
        self.start_match(a, z, "5 0 unrated")
        self.play_moves(a, z, ["e4", "e5"])
        self.cmd(a, "adjourn")
        z.send_line("adjourn")
        self.assertEqual(self.end_line(a)[3:], ("Game adjourned by mutual agreement", "*"))
        self.leave(z, [a])
        z2 = self.unregistered(srv, "zed")
        self.assertEqual(self.ask(a, "resume zed"),
                         b"Only the accounts that played a stored game can resume it.\n\r")
        # The game is not even the later zed's to find.
        self.assertEqual(self.ask(z2, "resume alice"),
                         b"You have no adjourned game with alice.\n\r")
        out = self.ask(a, "match zed")
        self.assertIn(b"Issuing: alice (----) zed (++++) unrated", out)
        out = z2.expect(b"decline", GT)
        self.assertNotIn(b"resume", out)
        self.assertIn(b"Challenge: alice", out)

    def test_adjudication_ruling_is_told_to_the_players_not_the_names(self):
        srv = self.new_server(config=dict(FAST, reconnect_grace_ms=500), tls=False)
        srv.useradd("alice", PW)
        srv.useradd("judge", PW, admin=True)
        srv.start()
        a = self.user_player(srv, "alice", PW)
        z = self.unregistered(srv, "zed")
        self.start_match(a, z, "5 0 unrated")
        self.play_moves(a, z, ["e4", "e5", "Nf3"])
        z.close()
        self.expect_line(a, r"zed has not come back\..*", GT)
        a.send_line("adjudicate")
        self.assertEqual(self.end_line(a)[3:], ("Game adjourned for adjudication", "*"))
        z2 = self.unregistered(srv, "zed")
        judge = self.user_player(srv, "judge", PW)
        gid = re.search(rb"\s(\d+): alice vs\. zed", self.ask(judge, "adjudicate")).group(1)
        self.assertIn(b"(alice vs. zed): 1-0.", self.ask(judge, "adjudicate %s 1-0" % gid.decode()))
        self.expect_line(a, re.escape("Your game alice vs. zed was adjudicated by judge: 1-0."))
        self.assertNotIn(b"adjudicated", z2.read_for(0.5))

    def test_name_case_is_one_identity_in_every_lookup(self):
        """Bob, bob and BOB are one account: login, match, tell, lists, tourney."""
        srv = self.server("alice", "Bob")
        a = self.user_player(srv, "alice", PW)
        c = self.connect(srv)
        c.login("BOB", PW, timeout=GT)
        self.setup_client(c)
        self.assertIn(b"Bob", self.ask(a, "who"))
        self.assertEqual(self.ask(a, "tell bOB hi"), b"(told Bob)\n\r")
        c.expect(b"alice tells you: hi", GT)
        self.assertIn(b"[Bob] added", self.ask(a, "+censor bob"))
        self.assertIn(b"is already on your censor list", self.ask(a, "+censor BOB"))
        self.assertEqual(self.ask(c, "tell alice x"), b'Player "alice" is censoring you.\n\r')
        self.assertIn(b"removed from your censor list", self.ask(a, "-censor BOB"))
        self.assertIn(b"0 names", self.ask(a, "=censor"))
        self.assertEqual(self.ask(c, "tell ALICE y"), b"(told alice)\n\r")
        # An unregistered login may not take the account's name in any case.
        u = self.connect(srv)
        u.expect(b"login: ", GT)
        u.send_line("bob")
        self.assertIn(b"password: ", u.expect(b"password: ", GT))
        u.close()
        out = self.ask(a, "tourney create Cup rr 1 5 0 unrated")
        tid = int(re.search(rb"Created tourney (\d+)", out).group(1))
        self.ask(c, "tourney join %d" % tid)
        self.assertIn(b"already", self.ask(c, "tourney join %d" % tid))
        self.assertIn(b"Issuing: alice", self.ask(a, "match BOB 5 0"))
        c.expect(b"decline", GT)
        c.send_line("accept")
        self.expect12(a)
        self.assertIn(b"Bob", self.ask(a, "finger bOb"))


if __name__ == "__main__":
    main()
