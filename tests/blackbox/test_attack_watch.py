#!/usr/bin/env python3
"""Ways into watching a game, tried by someone who should not get in: a
private game ("set private 1", as lasker) refuses observe by number and by
name, follow (at once and when the game begins) and tourney observe alike,
as do moves, refresh and pgn, allobservers keeps its watchers to admins and
games marks it "p";
tourney observe belongs to the account or guest session that asked, not to
a later guest under the same name; an observer of an examined
board cannot step, revert, set up or end the examiner's board, and an
examiner hears no kibitz from one it censors; a second login of an account
inherits none of the first session's observing, following or examining."""
import re

from games_harness import GamesTestCase, parse12, main, GT, FAST  # noqa: E402

PW = "secret1"


class WatchCase(GamesTestCase):
    def stop_clean(self, srv):
        """Stops srv; under ASan/UBSan a report in its stderr fails the test."""
        srv.stop()
        logs = srv.all_logs()
        for word in ("AddressSanitizer", "runtime error:", "LeakSanitizer"):
            self.assertNotIn(word, logs, logs[-6000:])


class PrivateGames(WatchCase):
    def setUp(self):
        super().setUp()
        cfg = dict(FAST)
        self.srv = self.start_server(config=cfg, tls=False, start=False)
        self.srv.useradd("root", PW, admin=True)
        self.srv.start()
        self.a = self.guest_player(self.srv)
        self.b = self.guest_player(self.srv)
        self.spy = self.guest_player(self.srv)

    def test_every_way_in_is_refused(self):
        a, b, spy = self.a, self.b, self.spy
        self.assertIn(b"Your games will be private.", self.cmd(a, "set private 1"))
        # A follower from before the game begins is not let in when it does.
        self.assertIn(("You will now be following %s's games." % a.name).encode(),
                      self.cmd(spy, "follow %s" % a.name))
        n, _ = self.start_match(a, b)
        sorry = ("Sorry, game %d is a private game." % n).encode()
        self.assertIn(b"You are not observing any games.", self.cmd(spy, "unobserve"))
        self.assertIn(sorry, self.cmd(spy, "observe %d" % n))
        self.assertIn(sorry, self.cmd(spy, "observe %s" % b.name))
        out = self.cmd(spy, "follow %s" % b.name)
        self.assertIn(sorry, out)
        self.assertNotIn(b"<12>", out)
        self.assertIn(b"You are not observing any games.", self.cmd(spy, "unobserve"))
        # The spy never sees a move.
        self.move(a, b, "e4")
        games = self.cmd(spy, "games")
        self.assertNotIn(b"<12>", games)
        # games lists it, marked "p" where pychess reads it (lasker's column).
        self.assertRegex(games, rb"(?m)^ *%d \+\+\+\+ %s +\+\+\+\+ %s +\[plu  1   0\]"
                         % (n, a.name.encode(), b.name.encode()))
        # Nor its moves nor its board by another way.
        for line in ("moves %d" % n, "refresh %d" % n, "pgn %d" % n, "moves %s" % a.name):
            out = self.cmd(spy, line)
            self.assertIn(b"Sorry, that is a private game.", out, line)
            self.assertNotIn(b"e4", out, line)
        self.assertIn(b"Movelist for game %d:" % n, self.cmd(b, "moves"))
        # Who watches it is not listed, not even by number.
        self.assertNotIn(b"Observing", self.cmd(spy, "allobservers"))
        self.assertNotIn(b"Observing", self.cmd(spy, "allobservers %d" % n))
        # Its players still cannot observe it, as any game they play.
        self.assertIn(b"You cannot observe a game that you are playing.", self.cmd(b, "observe %d" % n))
        # An admin may watch, and sees it in allobservers.
        root = self.user_player(self.srv, "root", PW)
        self.assertIn(("You are now observing game %d." % n).encode(),
                      self.cmd(root, "observe %d" % n))
        self.assertIn(("Observing  %d [%s vs. %s]: root" % (n, a.name, b.name)).encode(),
                      self.cmd(root, "allobservers"))
        self.stop_clean(self.srv)

    def test_a_game_without_private_is_open(self):
        a, b, spy = self.a, self.b, self.spy
        n, _ = self.start_match(a, b)
        self.assertIn(("You are now observing game %d." % n).encode(),
                      self.cmd(spy, "observe %d" % n))
        self.assertIn(b"[ lu  1   0]", self.cmd(spy, "games"))
        self.assertIn(("Observing  %d [%s vs. %s]: %s(U) (1 user)"
                       % (n, a.name, b.name, spy.name)).encode(), self.cmd(a, "allobservers"))
        self.stop_clean(self.srv)


class PrivateTourneyBoards(WatchCase):
    def test_tourney_observe_skips_a_private_board(self):
        names = ("pra", "prb", "prc", "prd")
        srv = self.start_server(config=dict(FAST), tls=False, start=False)
        for n in ("director",) + names:
            srv.useradd(n, PW)
        srv.start()
        director = self.user_player(srv, "director", PW)
        players = [self.user_player(srv, n, PW) for n in names]
        watcher = self.guest_player(srv)
        self.assertIn(b"Your games will be private.", self.cmd(players[0], "set private 1"))
        out = self.cmd(director, "tourney create Club rr 0 5 0 unrated")
        tid = int(re.search(rb"Created tourney (\d+)", out).group(1))
        for c in players:
            self.assertIn(b"You join tourney", self.cmd(c, "tourney join %d" % tid))
        self.assertIn(b"You follow tourney", self.cmd(watcher, "tourney observe %d" % tid))
        self.assertIn(b"starts: 4 players", self.cmd(director, "tourney start %d" % tid))
        # Every player has a board: the followers were seen to as the games began.
        boards = {c.name: self.expect12(c)["game"] for c in players}
        private = boards["pra"]
        open_game = [g for g in set(boards.values()) if g != private]
        self.assertEqual(len(open_game), 1)
        out = self.cmd(watcher, "unobserve")
        self.assertEqual(re.findall(rb"Removing game (\d+) from observation list\.", out),
                         [str(open_game[0]).encode()])
        self.stop_clean(srv)


    def test_tourney_observe_belongs_to_the_session_not_the_name(self):
        names = ("tta", "ttb", "ttc")
        srv = self.start_server(config=dict(FAST), tls=False, start=False)
        for n in ("director", "fan") + names:
            srv.useradd(n, PW)
        srv.start()
        director = self.user_player(srv, "director", PW)
        out = self.cmd(director, "tourney create Club rr 0 5 0 unrated")
        tid = int(re.search(rb"Created tourney (\d+)", out).group(1))
        # A guest under a chosen name follows, then leaves; another takes the name.
        first = self.connect(srv)
        first.login_unregistered("bobby")
        self.assertIn(b"You follow tourney", self.cmd(first, "tourney observe %d" % tid))
        first.close()
        srv.wait_log("bobby logged out", GT)
        # An account follows, then logs in again: it still follows.
        fan = self.user_player(srv, "fan", PW)
        self.assertIn(b"You follow tourney", self.cmd(fan, "tourney observe %d" % tid))
        fan.close()
        fan = self.user_player(srv, "fan", PW)
        later = self.connect(srv)
        later.login_unregistered("bobby")
        self.setup_client(later)
        players = [self.user_player(srv, n, PW) for n in names]
        for c in players:
            self.assertIn(b"You join tourney", self.cmd(c, "tourney join %d" % tid))
        self.assertIn(b"starts: 3 players", self.cmd(director, "tourney start %d" % tid))
        n = self.expect12(fan)["game"]
        self.assertIn(("Removing game %d from observation list." % n).encode(),
                      self.cmd(fan, "unobserve"))
        self.assertIn(b"You are not observing any games.", self.cmd(later, "unobserve"))
        self.assertIn(("You are not following tourney %d." % tid).encode(),
                      self.cmd(later, "tourney unobserve %d" % tid))
        self.stop_clean(srv)


class ExaminedBoards(WatchCase):
    def test_an_observer_cannot_drive_the_board(self):
        srv = self.game_server()
        coach, spy = self.guest_player(srv), self.guest_player(srv)
        out = self.cmd(coach, "examine")
        n = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["game"]
        self.cmd(coach, "e4")
        self.assertIn(("You are now observing game %d." % n).encode(),
                      self.cmd(spy, "observe %d" % n))
        for line in ("forward", "backward", "revert", "unexamine", "commit", "wname x",
                     "tomove black", "mexamine %s" % spy.name):
            self.assertIn(b"You are not examining any games.", self.cmd(spy, line), line)
        self.assertNotIn(b"<12>", self.cmd(spy, "e5"))
        # The examiner's board is as the examiner left it.
        out = self.cmd(coach, "backward")
        self.assertEqual(parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["verbose"], "none")
        self.assertIn(("Examining  %d (scratch): #%s(U) %s(U) (1 user)"
                       % (n, coach.name, spy.name)).encode(), self.cmd(spy, "allobservers"))
        self.stop_clean(srv)

    def test_an_examiner_hears_no_kibitz_it_censors(self):
        srv = self.game_server(start=False)
        for name in ("pest", "pupil"):     # a guest may not kibitz into others' boards
            srv.useradd(name, PW)
        srv.start()
        coach = self.guest_player(srv)
        pest, pupil = (self.user_player(srv, name, PW) for name in ("pest", "pupil"))
        out = self.cmd(coach, "examine")
        n = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["game"]
        for c in (pest, pupil):
            self.assertIn(("You are now observing game %d." % n).encode(),
                          self.cmd(c, "observe %d" % n))
        self.assertIn(("[%s] added to your censor list." % pest.name).encode(),
                      self.cmd(coach, "+censor %s" % pest.name))
        self.assertIn(b"kibitzed to 1.", self.cmd(pest, "kibitz spam"))
        self.expect_line(pupil, re.escape("pest(----)[%d] kibitzes: spam" % n))
        # The pupil is still heard; the pest was not, before or with it.
        self.assertIn(b"kibitzed to 2.", self.cmd(pupil, "kibitz a question"))
        out = coach.expect(re.compile(rb"kibitzes: a question\n\r"), GT)
        self.assertNotIn(b"spam", out)
        self.stop_clean(srv)



class Relogin(WatchCase):
    def test_a_second_login_inherits_no_watching(self):
        srv = self.start_server(config=dict(FAST), tls=False, start=False)
        for n in ("alice", "waa", "wbb"):
            srv.useradd(n, PW)
        srv.start()
        wa, wb = self.user_player(srv, "waa", PW), self.user_player(srv, "wbb", PW)
        n, _ = self.start_match(wa, wb)
        first = self.user_player(srv, "alice", PW)
        self.assertIn(("You are now observing game %d." % n).encode(),
                      self.cmd(first, "observe %d" % n))
        self.cmd(first, "follow waa")
        out = self.cmd(first, "examine")
        self.assertIn(b"Removing game %d from observation list." % n, out)
        e = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["game"]
        pupil = self.guest_player(srv)
        self.cmd(pupil, "observe %d" % e)
        self.cmd(first, "unexamine")
        self.cmd(first, "observe %d" % n)
        out = self.cmd(first, "examine")
        e = parse12(re.search(rb"<12> ([^\n\r]*)", out).group(1))["game"]
        self.cmd(pupil, "observe %d" % e)
        # The same account again: the first session goes, and all it watched with it.
        second = self.user_player(srv, "alice", PW)
        first.expect(b"**** alice has arrived - you can't both be logged in. ****", GT)
        self.expect_line(pupil, re.escape("alice stopped examining game %d." % e))
        for line, text in (("unobserve", "You are not observing any games."),
                           ("follow", "You are not following any player's games."),
                           ("forward", "You are not examining any games.")):
            self.assertIn(text.encode(), self.cmd(second, line), line)
        self.assertNotIn(b"alice", self.cmd(pupil, "allobservers"))
        self.move(wa, wb, "e4")
        self.assertNotIn(b"<12>", self.cmd(second, "games"))
        self.stop_clean(srv)


if __name__ == "__main__":
    main()
