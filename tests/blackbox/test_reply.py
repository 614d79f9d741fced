"""reply: a tell to the last player who told you.  Who that is belongs to an
account or to a guest's session, never to the name: when they leave and
someone else logs in under the name (a guest or unregistered name given
again, an account deleted and registered anew), the reply is refused and
the newcomer hears nothing; the same account logging in again does get it."""
from games_harness import GT, main
from test_attack_identity_guest import PW, NameSessions

NOBODY = b"No one has told you anything.\n\r"


class Reply(NameSessions):

    def test_reply_goes_to_the_last_teller(self):
        srv = self.server("alice", "bob", "carl")
        a = self.user_player(srv, "alice", PW)
        b = self.user_player(srv, "bob", PW)
        c = self.user_player(srv, "carl", PW)
        self.assertEqual(self.ask(a, "reply anyone?"), NOBODY)
        self.assertEqual(self.ask(a, "reply"), b"Usage: reply <message>\n\r")
        # Telling someone is not being told: alice's reply still has no one.
        self.assertEqual(self.ask(a, "tell bob hi bob"), b"(told bob)\n\r")
        self.assertEqual(self.ask(a, "reply hm"), NOBODY)
        self.assertEqual(self.ask(b, "tell alice hi alice"), b"(told alice)\n\r")
        a.expect(b"bob tells you: hi alice", GT)
        self.assertEqual(self.ask(c, "xtell alice from carl"), b"(told alice)\n\r")
        a.expect(b"carl tells you: from carl", GT)
        # The last one who told, carl; and the reply is a tell, so "tell ." is carl now.
        self.assertEqual(self.ask(a, "reply back to you"), b"(told carl)\n\r")
        c.expect(b"alice tells you: back to you", GT)
        self.assertNotIn(b"back to you", b.read_for(0.3))
        self.assertEqual(self.ask(a, "tell . and again"), b"(told carl)\n\r")
        c.expect(b"alice tells you: and again", GT)
        # carl replies to alice, who told him last.
        self.assertEqual(self.ask(c, "reply ok"), b"(told alice)\n\r")
        a.expect(b"carl tells you: ok", GT)

    def test_reply_does_not_reach_a_new_guest_under_the_name(self):
        srv = self.server("alice")
        a = self.user_player(srv, "alice", PW)
        z = self.unregistered(srv, "zed")
        self.assertEqual(self.ask(z, "tell alice whats your pin"), b"(told alice)\n\r")
        a.expect(b"zed(U) tells you: whats your pin", GT)
        self.leave(z, [a])
        self.assertEqual(self.ask(a, "reply 1234"), b"zed, who last told you, is not logged in.\n\r")
        z2 = self.unregistered(srv, "zed")
        self.assertEqual(self.ask(a, "reply it is 1234"),
                         b"zed, who last told you, is not logged in.\n\r")
        self.assertNotIn(b"1234", z2.read_for(0.5))
        # Once the new zed tells alice, the reply is theirs.
        self.ask(z2, "tell alice hello")
        self.assertEqual(self.ask(a, "reply hello new zed"), b"(told zed)\n\r")
        z2.expect(b"alice tells you: hello new zed", GT)

    def test_reply_does_not_reach_a_new_guest_number(self):
        """Guest names come round again; a GuestXXXX is not the one who told."""
        srv = self.server("alice")
        a = self.user_player(srv, "alice", PW)
        g = self.guest_player(srv)
        self.ask(a, "set tell 1")
        self.assertEqual(self.ask(g, "tell alice psst"), b"(told alice)\n\r")
        a.expect(b"%s(U) tells you: psst" % g.name.encode(), GT)
        self.leave(g, [a])
        self.assertEqual(self.ask(a, "reply secret"),
                         b"%s, who last told you, is not logged in.\n\r" % g.name.encode())

    def test_reply_follows_an_account_across_logins(self):
        srv = self.server("alice", "carl")
        a = self.user_player(srv, "alice", PW)
        c = self.user_player(srv, "carl", PW)
        self.ask(c, "tell alice bye for now")
        self.leave(c, [a])
        self.assertEqual(self.ask(a, "reply there?"), b"carl, who last told you, is not logged in.\n\r")
        c = self.user_player(srv, "carl", PW)
        self.assertEqual(self.ask(a, "reply welcome back"), b"(told carl)\n\r")
        c.expect(b"alice tells you: welcome back", GT)

    def test_reply_does_not_reach_a_new_account_under_a_deleted_name(self):
        srv = self.server("root", "alice", "carl", admin=("root",))
        r = self.user_player(srv, "root", PW)
        a = self.user_player(srv, "alice", PW)
        c = self.user_player(srv, "carl", PW)
        self.ask(c, "tell alice call me")
        a.expect(b"carl tells you: call me", GT)
        self.assertIn(b"Account carl deleted.", self.ask(r, "remplayer carl"))
        c.expect_closed(GT)
        srv.useradd("carl", "otherpw1")
        c2 = self.user_player(srv, "carl", "otherpw1")
        self.assertEqual(self.ask(a, "reply my number is 555"),
                         b"carl, who last told you, is not logged in.\n\r")
        self.assertNotIn(b"555", c2.read_for(0.5))

    def test_reply_respects_censor(self):
        srv = self.server("alice", "bob")
        a = self.user_player(srv, "alice", PW)
        b = self.user_player(srv, "bob", PW)
        self.ask(b, "tell alice hi")
        self.assertIn(b"added", self.ask(b, "+censor alice"))
        self.assertEqual(self.ask(a, "reply hi"), b'Player "bob" is censoring you.\n\r')


if __name__ == "__main__":
    main()
