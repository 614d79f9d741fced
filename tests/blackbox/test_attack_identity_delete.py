"""Attacking identity across account removal: an admin removes bob (or
`chessd userdel` does, beside the running server), someone registers "bob"
again, and the new account must inherit nothing of the old one: not its
adjourned game, history, stored games, ratings, notes, comments, messages,
lists, channels, variables, aliases or tournament seat.  Nor do other
people's entries about the old bob start applying to the new one (alice
censored the person, not the name).  Stored games keep the old name only."""
import re

import chessd_harness as H
from chessd_harness import db_rows as rows
from games_harness import FAST, GT, GamesTestCase, main
from web_harness import get

PW = "secret1"
NEWPW = "newpw123"


class DeletedAccount(GamesTestCase):

    def tearDown(self):
        self.stop_servers_clean()

    def server(self, http=False):
        srv = self.new_server(config=FAST, tls=False, http=http)
        srv.useradd("root", PW, admin=True)
        srv.useradd("alice", PW)
        srv.useradd("bob", PW)
        srv.start()
        return srv

    def old_bob_leaves_traces(self, srv, r, a):
        """bob loses a rated game, adjourns another, and leaves every kind
        of stored trace; alice lists him everywhere."""
        b = self.user_player(srv, "bob", PW)
        self.start_match(a, b, "5 0 rated")
        self.play_moves(a, b, ["e4", "e5"])
        self.cmd(b, "resign")
        self.end_line(a)
        self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["d4", "d5"])
        self.assertIn(b"Adjourn request sent.", self.cmd(a, "adjourn"))
        b.send_line("adjourn")
        for c in (a, b):
            self.assertEqual(self.end_line(c)[3:], ("Game adjourned by mutual agreement", "*"))
        self.assertIn(b"alice", self.cmd(b, "stored"))
        for c, line in ((a, "message bob hi old bob"), (b, "+channel 77"),
                        (b, "alias zz tell alice"), (b, "set 1 old note"), (b, "set shout 0"),
                        (r, "addcomment bob cheater"), (a, "+censor bob"), (a, "+notify bob"),
                        (a, "+gnotify bob"), (b, "+notify alice"), (b, "+censor alice"),
                        (a, "tourney create T rr 1 5 0 unrated"), (b, "tourney join 1")):
            self.cmd(c, line)
        self.assertIn(b"1: old note", self.cmd(b, "finger"))
        b.close()
        return b

    def ask(self, c, line):
        """The reply to line alone, without notifications queued before it."""
        return self.cmd(c, line).split(b"fics% ")[-1]

    def new_bob(self, srv):
        g = self.guest_player(srv)
        self.assertIn(b"You are now registered as bob.", self.cmd(g, "register bob " + NEWPW))
        g.close()
        return self.user_player(srv, "bob", NEWPW)

    def test_new_account_inherits_nothing(self):
        srv = self.server()
        r = self.user_player(srv, "root", PW)
        a = self.user_player(srv, "alice", PW)
        self.old_bob_leaves_traces(srv, r, a)
        self.assertIn(b"Account bob deleted.", self.cmd(r, "remplayer bob"))
        b = self.new_bob(srv)
        # The old adjourned game is not the new bob's to see or resume.
        self.assertEqual(self.ask(b, "stored"), b"bob has no adjourned games.\n\r")
        self.assertEqual(self.ask(b, "resume"), b"You have no adjourned games.\n\r")
        out = self.cmd(b, "match alice")
        self.assertNotIn(b"resume", out)
        self.assertIn(b"Issuing: bob (----) alice", out)
        self.assertIn(b"Challenge: bob", a.expect(b"decline", GT))
        self.cmd(b, "withdraw")
        self.assertEqual(self.ask(b, "smoves bob alice"),
                         b"bob has no adjourned game with alice.\n\r")
        self.assertIn(b"There is no adjourned game between bob and alice.",
                      self.cmd(b, "examine bob alice"))
        # Nor are the old finished games the new bob's record.
        self.assertEqual(self.ask(b, "history"), b"bob has no history games.\n\r")
        self.assertEqual(self.ask(a, "history bob"), b"bob has no history games.\n\r")
        for line in ("pgn bob 0", "smoves bob 0", "oldmoves bob", "examine bob 0"):
            self.assertEqual(self.ask(b, line), b"bob has no such game.\n\r", line)
        # Account data keyed by id went with the old account.
        finger = self.cmd(a, "finger bob")
        self.assertIn(b"has not played any rated games.", finger)
        self.assertNotIn(b"old note", finger)
        self.assertNotIn(b"77", finger)
        self.assertIn(b"shout=1", self.cmd(b, "vars"))
        self.assertEqual(self.ask(b, "alias"), b"Aliases:\n\r")
        self.assertIn(b"(none)", self.cmd(b, "=channel"))
        self.assertEqual(self.ask(b, "messages"), b"You have no messages.\n\r")
        self.assertEqual(self.ask(r, "showcomment bob"),
                         b"There are no comments to show for bob.\n\r")
        self.assertIn(b"Players (0):", self.cmd(b, "tourney show 1"))
        for lst in ("notify", "censor"):
            self.assertIn(b"0 names", self.cmd(b, "=" + lst))
        # alice's entries named the person, not the name.
        for lst in ("notify", "censor", "gnotify"):
            self.assertIn(b"0 names", self.cmd(a, "=" + lst))
        self.assertIn(b"(told alice)", self.cmd(b, "tell alice hello"))
        a.expect(b"bob tells you: hello", GT)

    def test_adjourned_game_ends_with_the_account(self):
        """alice's game with the old bob can never be resumed: removing the
        account ends it as a live game would end, a forfeit rating nobody,
        so her `stored` and `resume` do not offer it to the new bob."""
        srv = self.server()
        r = self.user_player(srv, "root", PW)
        a = self.user_player(srv, "alice", PW)
        self.old_bob_leaves_traces(srv, r, a)
        ratings = rows(srv.db_path, "SELECT * FROM ratings ORDER BY user_id")
        self.assertIn(b"Account bob deleted.", self.cmd(r, "remplayer bob"))
        self.assertEqual(self.ask(a, "stored"), b"alice has no adjourned games.\n\r")
        b = self.new_bob(srv)
        self.assertEqual(self.ask(a, "resume bob"), b"You have no adjourned game with bob.\n\r")
        self.assertNotIn(b"resume", b.read_for(0.3))
        self.assertEqual(rows(srv.db_path, "SELECT status, result, reason, termination FROM games "
                                           "ORDER BY id"),
                         [("finished", "1-0", "bob resigns", "normal"),
                          ("finished", "1-0", "bob forfeits: the account was deleted",
                           "abandoned")])
        # Ratings: the old bob's went with him, alice's did not move.
        self.assertEqual(rows(srv.db_path, "SELECT * FROM ratings ORDER BY user_id"),
                         [x for x in ratings if x[0] != 3])
        hist = self.ask(a, "history").decode()
        self.assertRegex(hist, r" 1: \+ +\d+ W +\d+ bob +\[ bu +5 +0\] --- \?\?\? ")

    def test_adjourned_before_move_two_leaves_no_row(self):
        """As a live game aborted before both sides moved, it is not kept."""
        srv = self.server()
        r = self.user_player(srv, "root", PW)
        a = self.user_player(srv, "alice", PW)
        b = self.user_player(srv, "bob", PW)
        self.start_match(a, b, "5 0 unrated")
        self.move(a, b, "e4")
        self.cmd(a, "adjourn")
        b.send_line("adjourn")
        self.assertEqual(self.end_line(a)[3:], ("Game adjourned by mutual agreement", "*"))
        self.assertEqual(rows(srv.db_path, "SELECT status FROM games"), [("adjourned",)])
        self.assertIn(b"Account bob deleted.", self.ask(r, "remplayer bob"))
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM games"), [(0,)])
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM moves"), [(0,)])
        self.assertEqual(self.ask(a, "stored"), b"alice has no adjourned games.\n\r")

    def test_userdel_beside_the_server_ends_adjourned_game(self):
        srv = self.server()
        r = self.user_player(srv, "root", PW)
        a = self.user_player(srv, "alice", PW)
        self.old_bob_leaves_traces(srv, r, a)
        res = H.run_admin(srv.data_dir, "userdel", "bob")
        self.assertEqual(res.returncode, 0, res.stderr)
        srv.wait_log(re.compile(r"account \d+ deleted"))
        self.assertEqual(self.ask(a, "stored"), b"alice has no adjourned games.\n\r")
        b = self.new_bob(srv)
        self.assertEqual(self.ask(b, "stored"), b"bob has no adjourned games.\n\r")
        self.assertEqual(self.ask(b, "history"), b"bob has no history games.\n\r")

    def test_userdel_after_a_crash_ends_the_game_left_active(self):
        """A crash leaves bob's game active in the database; deleted before the
        restart, it is not adjourned at the start for nobody to resume."""
        srv = self.server()
        a = self.user_player(srv, "alice", PW)
        b = self.user_player(srv, "bob", PW)
        self.start_match(a, b, "5 0 unrated")
        self.play_moves(a, b, ["e4", "e5", "Nf3"])
        srv.kill()
        self.assertEqual(rows(srv.db_path, "SELECT status FROM games"), [("active",)])
        res = H.run_admin(srv.data_dir, "userdel", "bob")
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(rows(srv.db_path, "SELECT status, result, reason FROM games"),
                         [("finished", "1-0", "bob forfeits: the account was deleted")])
        srv.start()
        a = self.user_player(srv, "alice", PW)
        self.assertEqual(self.ask(a, "stored"), b"alice has no adjourned games.\n\r")

    def test_new_account_record_is_its_own(self):
        """The new bob's own games are his record, the old ones are not in it."""
        srv = self.server(http=True)
        r = self.user_player(srv, "root", PW)
        a = self.user_player(srv, "alice", PW)
        self.old_bob_leaves_traces(srv, r, a)
        self.cmd(r, "remplayer bob")
        b = self.new_bob(srv)
        self.start_match(b, a, "3 0 unrated")
        self.play_moves(b, a, ["c4", "c5"])
        self.cmd(a, "resign")
        self.end_line(b)
        hist = self.ask(b, "history").decode()
        self.assertEqual(len(re.findall(r"\r ?\d+: ", hist)), 1, hist)
        self.assertRegex(hist, r" 0: \+ +\d+ W +\d+ alice +\[ bu +3 +0\] --- Res ")
        self.assertIn(b"c4", self.cmd(a, "smoves bob -1"))
        self.assertIn(b'[White "bob"]', self.cmd(a, "pgn bob 0"))
        # The web's list of a player's games is the same record.
        for name, games in (("bob", 1), ("alice", 3)):
            status, _, body = get(srv.http_port, "/api/games/user/" + name)
            self.assertEqual(status, 200)
            self.assertEqual(body.count(b"[Event "), games, body)
        self.assertIn(b"1. c4", get(srv.http_port, "/api/games/user/bob")[2])
        # alice's own history keeps all three games under the names they had.
        self.assertEqual(len(re.findall(r"\r ?\d+: ", self.cmd(a, "history").decode())), 3)


if __name__ == "__main__":
    main()
