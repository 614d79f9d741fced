"""What clients and people set changes what they get: board styles, the
interface variables xboard and pychess set at login (lock, pin, allresults,
gameinfo, seekremove), the unobserve variable, ratings and flags in who and
finger, and computer accounts."""
import re

import chessd_harness as H

BOARD12 = re.compile(rb"<12> [^\n\r]*\n\r")


class Ivars(H.ChessdTestCase):

    def start(self):
        return self.start_server(tls_port=0)

    def game(self, a, b, terms="5 0 unrated"):
        """a challenges b with a's terms; returns the game number."""
        a.command("match %s %s white" % (b.name, terms))
        b.expect(b"Challenge: ")
        b.expect_prompt()
        b.send_line("accept")
        b.expect(re.compile(rb"\{Game (\d+) \("))
        number = int(b.match.group(1))
        b.expect_prompt()
        a.expect(b"{Game %d (" % number)
        a.expect_prompt()
        return number

    def test_default_board_is_drawn_for_people_and_style12_for_clients(self):
        srv = self.start()
        alice, bob = self.guest(srv), self.guest(srv)
        self.assertIn(b"Style 12 set.", bob.command("style 12"))
        n = self.game(alice, bob)
        alice.send_line("e4")
        out = alice.expect(b"         a   b   c   d   e   f   g   h")
        self.assertIn(b"Game %d (%s vs. %s)" % (n, alice.name.encode(), bob.name.encode()), out)
        self.assertIn(b"    4  |   |   |   |   | P |   |   |   |     White Clock : ", out)
        self.assertIn(b"    8  | *R| *N| *B| *Q| *K| *B| *N| *R|     Move # : 1 (Black)", out)
        self.assertIn(b"White moves : e4 (0:", out)
        self.assertNotIn(b"<12>", out)
        out = bob.expect(BOARD12)
        bob.expect_prompt()
        self.assertNotIn(b"Move # :", out)
        # Black sees the board from Black's side.
        self.assertIn(b"Style 1 set.", bob.command("style 1"))
        bob.send_line("e5")
        out = bob.expect(b"         h   g   f   e   d   c   b   a")
        self.assertIn(b"    1  | R | N | B | K | Q | B | N | R |", out)

    def test_lock_freezes_interface_variables(self):
        srv = self.start()
        c = self.guest(srv)
        self.assertIn(b"lock set.", c.command("iset lock 1"))
        self.assertIn(b"Cannot alter: Interface setting locked.", c.command("iset ms 1"))
        self.assertIn(b"Cannot alter: Interface setting locked.", c.command("iset lock 0"))
        self.assertIn(b"ms=0", c.command("ivariables"))

    def test_pin_announces_arrivals_and_departures(self):
        srv = self.start()
        watcher, human = self.guest(srv), self.guest(srv)
        watcher.command("iset pin 1")
        human.command("set pin 1")
        third = self.guest(srv)
        watcher.expect(b"<wa> %s\n\r" % third.name.encode())
        human.expect(b"[%s has connected.]\n\r" % third.name.encode())
        third.send_line("quit")
        watcher.expect(b"<wd> %s\n\r" % third.name.encode())
        human.expect(b"[%s has disconnected.]\n\r" % third.name.encode())

    def test_allresults_and_gameinfo(self):
        srv = self.start()
        fan, alice, bob = self.guest(srv), self.guest(srv), self.guest(srv)
        fan.command("iset allresults 1")
        alice.command("iset gameinfo 1")
        alice.send_line("match %s 3 0 unrated white" % bob.name)
        alice.expect_prompt()
        bob.expect(b"Challenge: ")
        bob.command("accept")
        out = alice.expect(b"Creating: ")
        self.assertRegex(out, rb"<g1> \d+ p=0 t=blitz r=0 u=1,1 it=180,180 i=0,0 pt=0 "
                              rb"rt=\+\+\+\+,\+\+\+\+ ts=0,0 m=2 n=0\n\r")
        bob.command("resign")
        fan.expect(re.compile(rb"\{Game \d+ \(%s vs\. %s\) %s resigns\} 1-0" % (
            alice.name.encode(), bob.name.encode(), bob.name.encode())))

    def test_seekremove_decides_who_gets_sr(self):
        srv = self.start()
        both, only_info, seeker = self.guest(srv), self.guest(srv), self.guest(srv)
        for c, removals in ((both, 1), (only_info, 0)):
            c.command("iset seekinfo 1")
            c.command("iset seekremove %d" % removals)
        seeker.command("seek 5 0 unrated")
        both.expect(re.compile(rb"<s> (\d+) w=%s " % seeker.name.encode()))
        number = both.match.group(1)
        only_info.expect(b"<s> %s w=" % number)
        seeker.command("unseek")
        both.expect(b"<sr> %s\n\r" % number)
        self.assertNotIn(b"<sr>", only_info.read_for(0.5))

    def test_unobserve_when_starting_a_game(self):
        srv = self.start()
        a, b, c, d = (self.guest(srv) for _ in range(4))
        n = self.game(a, b)
        c.command("set unobserve 1")
        self.assertIn(b"You are now observing game %d." % n, c.command("observe %d" % n))
        self.game(c, d)
        self.assertIn(b"You are not observing any games.", c.command("unobserve"))

    def test_who_shows_ratings_and_playing_and_computer_accounts(self):
        srv = self.new_server(tls_port=0)
        srv.useradd("Fish", "fishpw1")
        srv.useradd("alice", "alicepw1")
        r = srv.admin_cmd("computer", "Fish", "on")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(b"Fish is now a computer account", r.stdout if isinstance(r.stdout, bytes)
                      else r.stdout.encode())
        srv.start()
        fish = self.connect(srv)
        fish.expect(b"login: ")
        fish.send_line("Fish")
        fish.expect(b"password: ")
        fish.send_line("fishpw1")
        fish.expect(b"**** Starting FICS session as Fish(C) ****")
        fish.expect_prompt()
        fish.name = "Fish"
        alice = self.user(srv, "alice", "alicepw1")
        self.game(alice, fish, "3 0 rated")
        out = alice.command("who")
        self.assertRegex(out, rb"\n\r----\^Fish\(C\)\n\r")
        self.assertRegex(out, rb"----\^alice\n\r")
        fish.command("resign")
        alice.expect(b"Your blitz rating: ---- -> ")
        alice.expect_prompt()
        out = alice.command("who")
        self.assertRegex(out, rb"\d{4}P alice\n\r")
        self.assertRegex(out, rb"\d{4}P Fish\(C\)\n\r")
        self.assertIn(b"Computer account.", alice.command("finger Fish"))


if __name__ == "__main__":
    H.main()
