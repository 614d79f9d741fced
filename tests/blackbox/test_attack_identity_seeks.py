"""Attacking the identity of seeks and offers: each belongs to the session
that made it, never to the name typed.  A guest's seek dies with the guest,
and the next guest under that name can neither remove nor be given it; an
offer made to a name whose holder left does not reach the next holder; a
second login of an account (which replaces the first session) inherits
none of the first session's seeks or offers, and the other parties are
told as lasker tells them of a player leaving."""
import re

from games_harness import GT, main
from test_attack_identity_guest import PW, NameSessions


class SeekIdentity(NameSessions):

    def test_a_guests_seek_is_not_the_next_guests(self):
        srv = self.server("alice")
        a = self.user_player(srv, "alice", PW)
        for v in ("seekinfo", "seekremove"):
            self.ask(a, "iset %s 1" % v)
        z = self.unregistered(srv, "zed")
        n = int(re.search(rb"posted with index (\d+)\.", self.ask(z, "seek 7 0")).group(1))
        a.expect(re.compile(rb"<s> %d w=zed " % n), GT)
        self.leave(z, [a])
        self.assertRegex(a.seen, rb"<sr> %d\n\r" % n)
        z2 = self.unregistered(srv, "zed")
        self.assertEqual(self.ask(z2, "unseek %d" % n), b"You have no seek %d.\n\r" % n)
        self.assertEqual(self.ask(z2, "unseek"), b"You have no active seeks.\n\r")
        self.assertEqual(self.ask(z2, "sought all"), b"0 ads displayed.\n\r")
        self.assertEqual(self.ask(a, "play %d" % n),
                         b"ERROR: Either that game has already started or it is no longer "
                         b"available.\n\r")
        # The same terms from the new zed are a new seek, not a match with the old one.
        self.assertIn(b"Your seek has been posted", self.ask(z2, "seek 7 0"))
        # Nor can anyone else remove a seek that is not theirs.
        m = int(re.search(rb"<s> (\d+) w=zed ", a.expect(re.compile(rb"<s> \d+ w=zed [^\n]*\n\r"),
                                                          GT)).group(1))
        self.assertEqual(self.ask(a, "unseek %d" % m), b"You have no seek %d.\n\r" % m)
        self.assertIn(b"1 ad displayed.", self.ask(a, "sought"))

    def test_an_offer_to_a_name_does_not_reach_its_next_holder(self):
        srv = self.server("alice")
        a = self.user_player(srv, "alice", PW)
        z = self.unregistered(srv, "zed")
        self.assertIn(b"Issuing: alice", self.ask(a, "match zed 5 0"))
        z.expect(b"Challenge: alice", GT)
        self.leave(z, [a])
        self.assertIn(b"zed declines the match offer.", a.seen)
        z2 = self.unregistered(srv, "zed")
        self.assertEqual(self.ask(a, "withdraw zed"),
                         b"You have no pending offers to other players.\n\r")
        self.assertEqual(self.ask(z2, "accept alice"), b"You have no offers to accept.\n\r")
        self.assertEqual(self.ask(z2, "decline"), b"You have no pending offers from other players.\n\r")
        self.assertNotIn(b"Challenge:", z2.seen)
        # The new zed, challenged anew, gets that offer and only that one.
        self.assertIn(b"Issuing: alice", self.ask(a, "match zed 3 0"))
        z2.expect(b"Challenge: alice (----) zed (++++) unrated blitz 3 0.", GT)

    def test_a_second_login_inherits_no_seek_or_offer(self):
        srv = self.server("alice", "bob", "carl")
        a = self.user_player(srv, "alice", PW)
        b = self.user_player(srv, "bob", PW)
        c = self.user_player(srv, "carl", PW)
        n = int(re.search(rb"posted with index (\d+)\.", self.ask(a, "seek 7 0 u")).group(1))
        self.assertIn(b"Issuing: bob", self.ask(b, "match alice 5 0 u"))
        self.assertIn(b"Issuing: alice", self.ask(a, "match carl 3 0 u"))
        a2 = self.user_player(srv, "alice", PW)
        a.expect_closed(GT)
        self.expect_line(b, re.escape("alice declines the match offer."))
        self.expect_line(c, re.escape("alice withdraws the match offer."))
        self.assertEqual(self.ask(a2, "pending"),
                         b"There are no offers pending TO other players.\n\r\n\r"
                         b"There are no offers pending FROM other players.\n\r")
        self.assertEqual(self.ask(a2, "unseek"), b"You have no active seeks.\n\r")
        self.assertEqual(self.ask(b, "play %d" % n),
                         b"ERROR: Either that game has already started or it is no longer "
                         b"available.\n\r")
        self.assertEqual(self.ask(b, "withdraw"), b"You have no pending offers to other players.\n\r")
        self.assertEqual(self.ask(c, "accept"), b"You have no offers to accept.\n\r")


if __name__ == "__main__":
    main()
