"""Identity: a seat, a name and an account belong to whoever holds them, not
to whoever types the name.

- A guest (or an unregistered name) that loses contact in a game keeps its
  seat for the grace period; only the session that sat down, through the
  reconnect key it was given at the start, gets it back.  Another login
  typing the same name is refused the name and never sees the board.
- A stored (adjourned) game is resumed only by the accounts that played it.
- `register` refuses a name that an online session uses; a login replaces
  an old session only when both are the same account.
"""
import re
import time

from games_harness import FAST, GT, LS, GamesTestCase, main, parse12

KEY_RE = re.compile(rb"Your reconnect key is ([0-9a-f]{32}): if you lose contact, log in as "
                    rb"(\w+) and give it as the password\.\n\r")
HELD = b'is held for a player who lost contact during a game.'


class IdentityCase(GamesTestCase):

    def start_keyed(self, white, black, terms="5 0 unrated"):
        """white challenges, black accepts; returns the game number and the
        reconnect key each guest side was given (None for accounts)."""
        self.assertIn(b"Issuing: ", self.cmd(white, "match %s %s white" % (black.name, terms)))
        black.expect(b'You can "accept" or "decline", or propose different parameters.', GT)
        black.send_line("accept")
        keys, number = {}, None
        for who, c in (("white", white), ("black", black)):
            out = c.expect(re.compile(LS + rb"Creating: [^\n]*\n\r\{Game (\d+) [^\n]*\}\n\r\n\r"),
                           GT)
            number = int(c.match.group(1))
            m = KEY_RE.search(out)
            keys[who] = m.group(1).decode() if m else None
            if m:
                self.assertEqual(m.group(2).decode(), c.name)
            self.expect12(c)
        return number, keys

    def lose_contact(self, leaver, stayer, n):
        leaver.close()
        self.expect_line(stayer, re.escape("Your opponent, %s, has lost contact or quit." % leaver.name) + ".*")

    def attacker_refused(self, srv, name, key=""):
        """A new connection types name (and key as the password): refused."""
        c = self.connect(srv)
        c.expect(b"login: ", GT)
        c.send_line(name)
        out = c.expect(b"password: ", GT)
        self.assertIn(b'"%s" ' % name.encode() + HELD, out)
        c.send_line(key)
        out = c.expect(b"login: ", GT)
        self.assertIn(b"Sorry, %s is held for a player who lost contact.  Try another name." %
                      name.encode(), out)
        if key:
            self.assertIn(b"**** Invalid reconnect key! ****", out)
        self.assertNotIn(b"Starting FICS session", out)
        self.assertNotIn(b"<12>", c.read_for(0.3))
        return c

    def reclaim(self, srv, name, key):
        c = self.connect(srv)
        c.expect(b"login: ", GT)
        c.send_line(name)
        c.expect(b"password: ", GT)
        c.send_line(key)
        c.expect(b"**** Starting FICS session as %s(U) ****" % name.encode(), GT)
        c.expect(re.compile(LS + rb"Creating: [^\n]*\n\r\{Game \d+ [^\n]*Continuing[^\n]*\}"), GT)
        c.name = name
        return c


class IdentityTest(IdentityCase):

    def test_guest_seat_needs_the_reconnect_key(self):
        srv = self.game_server()
        a = self.guest_player(srv)
        b = self.guest_player(srv)
        n, keys = self.start_keyed(a, b)
        self.assertIsNotNone(keys["white"])
        self.assertIsNotNone(keys["black"])
        self.assertNotEqual(keys["white"], keys["black"])
        self.play_moves(a, b, ["e4", "e5"])
        name = a.name
        self.lose_contact(a, b, n)
        # The attacker types the name: no key, a wrong key, the opponent's key.
        self.attacker_refused(srv, name)
        self.attacker_refused(srv, name, "0" * 32)
        self.attacker_refused(srv, name, keys["black"])
        # Nor does the name come back as "guest" hands out names.
        out = self.cmd(b, "games")
        self.assertIn(name.encode(), out)
        # The real player, with the key, gets the seat, board and clock back.
        a2 = self.reclaim(srv, name, keys["white"])
        self.expect_line(b, re.escape("%s has returned; the game continues." % name))
        self.assertEqual(self.expect12(b)["san"], "e5")
        a2.expect(b"Black moves : e5", GT)         # a new session: style 1 until set
        self.setup_client(a2)
        self.move(a2, b, "Nf3")
        # The key still works after the return: it stays the seat's.
        self.lose_contact(a2, b, n)
        self.reclaim(srv, name, keys["white"])

    def test_unregistered_name_seat_held(self):
        srv = self.game_server()
        a = self.connect(srv)
        a.login_unregistered("carol")
        self.setup_client(a)
        b = self.guest_player(srv)
        n, keys = self.start_keyed(a, b)
        self.assertIsNotNone(keys["white"])
        self.play_moves(a, b, ["d4", "d5"])
        self.lose_contact(a, b, n)
        self.attacker_refused(srv, "carol", "f" * 32)
        # A case variant is the same name.
        self.attacker_refused(srv, "CAROL")
        self.reclaim(srv, "carol", keys["white"])

    def test_confirmed_name_lost_meanwhile_is_refused(self):
        """Typed while free, confirmed after its owner lost contact: refused."""
        srv = self.game_server()
        c = self.connect(srv)
        c.expect(b"login: ", GT)
        c.send_line("dave")
        c.expect(b'Press return to enter the server as "dave":', GT)
        a = self.connect(srv)
        a.login_unregistered("dave")
        self.setup_client(a)
        b = self.guest_player(srv)
        n, _ = self.start_keyed(a, b)
        self.play_moves(a, b, ["e4", "e5"])
        self.lose_contact(a, b, n)
        c.send_line("")
        out = c.expect(b"login: ", GT)
        self.assertIn(b"Sorry, dave is held for a player who lost contact.", out)
        self.assertNotIn(b"Starting FICS session", out)

    def test_guest_adjourned_game_not_resumed_by_name(self):
        srv = self.game_server()
        a = self.connect(srv)
        a.login_unregistered("frank")
        self.setup_client(a)
        b = self.connect(srv)
        b.login_unregistered("grace")
        self.setup_client(b)
        n, _ = self.start_keyed(a, b)
        self.play_moves(a, b, ["e4", "e5"])
        self.cmd(a, "adjourn")
        b.send_line("adjourn")
        self.end_line(a)
        a.close()
        # Someone else logs in as frank and asks to resume with grace.
        x = self.connect(srv)
        x.login_unregistered("frank")
        self.setup_client(x)
        self.cmd(x, "resume grace")
        out = self.cmd(b, "resume frank")
        self.assertIn(b"Only the accounts that played a stored game can resume it.", out)
        out += b.read_for(0.5) + x.read_for(0.5)
        self.assertNotIn(b"Creating", out)
        self.assertNotIn(b"Continuing", out)
        self.assertNotIn(b"<12>", out)


class AccountNameTest(IdentityCase):

    def test_register_refuses_online_name(self):
        srv = self.game_server()
        victim = self.connect(srv)
        victim.login_unregistered("henry")
        g = self.guest_player(srv)
        out = self.cmd(g, "register henry henrypw1")
        self.assertIn(b'Sorry, "henry" is in use by someone online.', out)
        self.assertNotIn(b"Registering", out)
        self.assertIn(b"henry", self.cmd(victim, "finger"))

    def test_register_then_login_does_not_evict_unregistered(self):
        """The old attack: register the name of an unregistered player in a
        game, log in with it, take the game.  Account made from outside
        (useradd) to get past register's own check."""
        srv = self.game_server()
        victim = self.connect(srv)
        victim.login_unregistered("ivan")
        self.setup_client(victim)
        b = self.guest_player(srv)
        n, _ = self.start_keyed(victim, b)
        self.play_moves(victim, b, ["e4", "e5"])
        srv.useradd("ivan", "ivanpw11")
        x = self.connect(srv)
        x.expect(b"login: ", GT)
        x.send_line("ivan")
        x.expect(b"password: ", GT)
        x.send_line("ivanpw11")
        out = x.expect(b"login: ", GT)
        self.assertIn(b"Sorry, ivan is already logged in.", out)
        self.assertNotIn(b"Starting FICS session", out)
        self.assertNotIn(b"closing this one", victim.read_for(0.5))
        self.move(victim, b, "Nf3")

    def test_same_account_replaces_session(self):
        srv = self.new_server(config=FAST, tls=False)
        srv.useradd("judy", "judypw11")
        srv.start()
        a = self.user_player(srv, "judy", "judypw11")
        a2 = self.user_player(srv, "judy", "judypw11")
        a.expect(b"**** judy has arrived - you can't both be logged in. ****", GT)
        a.expect_closed(GT)
        self.assertIn(b"judy", self.cmd(a2, "finger"))


if __name__ == "__main__":
    main()
