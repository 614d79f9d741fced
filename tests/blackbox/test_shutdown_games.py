"""A graceful stop keeps at least what a crash keeps.

Two games are in progress, one between registered players and one between
guests.  After SIGKILL a restart adjourns both (the crash path); SIGTERM
must do no worse: both are adjourned with every move and both clocks, the
players are told so (and not that the opponent has 60 seconds to return),
and the registered pair resumes the game after the restart with the same
moves and clocks.
"""
import re
import signal
import sqlite3

from games_harness import GT, GamesTestCase, main, parse12

MOVES = ["e4", "e5", "Nf3", "Nc6"]
ADJOURNED_LINE = re.compile(rb"\{Game \d+ \(\w+ vs\. \w+\) Game adjourned when the server shut "
                            rb"down\} \*")


class ShutdownGamesTest(GamesTestCase):

    def stored_games(self, srv):
        """{(white, black): (status, number of moves)} from chess.db."""
        con = sqlite3.connect(srv.db_path)
        try:
            rows = con.execute("SELECT id, white, black, status FROM games").fetchall()
            out = {}
            for gid, white, black, status in rows:
                n = con.execute("SELECT count(*) FROM moves WHERE game_id = ?", (gid,)).fetchone()[0]
                out[(white, black)] = (status, n)
        finally:
            con.close()
        return out

    def play_two_games(self, srv):
        srv.useradd("alice", "apass1")
        srv.useradd("bob", "bpass1")
        alice = self.user_player(srv, "alice", "apass1")
        bob = self.user_player(srv, "bob", "bpass1")
        g1, g2 = self.guest_player(srv), self.guest_player(srv)
        self.start_match(alice, bob, terms="5 0")
        self.start_match(g1, g2, terms="5 0")
        last = self.play_moves(alice, bob, MOVES)
        self.play_moves(g1, g2, MOVES)
        return [alice, bob, g1, g2], last

    def stop_and_restart(self, sig):
        srv = self.game_server()
        clients, last = self.play_two_games(srv)
        names = {c.name for c in clients}
        srv.signal(sig)
        if sig == signal.SIGTERM:
            self.assertEqual(srv.wait_exit(GT), 0, srv.log())
            for c in clients:
                out = c.expect_closed(GT)
                self.assertRegex(out, ADJOURNED_LINE)
                self.assertNotIn(b"seconds to return", out)
                self.assertNotIn(b"aborted", out)
        else:
            srv.wait_exit(GT)
        srv.start()
        stored = self.stored_games(srv)
        self.assertEqual(set(stored), {("alice", "bob"), (clients[2].name, clients[3].name)},
                         names)
        return srv, stored, last

    def test_sigterm_keeps_what_sigkill_keeps(self):
        _, crashed, _ = self.stop_and_restart(signal.SIGKILL)
        _, stopped, _ = self.stop_and_restart(signal.SIGTERM)
        for name, kept in (("SIGKILL", crashed), ("SIGTERM", stopped)):
            for pair, (status, moves) in kept.items():
                self.assertEqual((status, moves), ("adjourned", len(MOVES)), (name, pair))

    def test_game_resumes_after_sigterm_with_moves_and_clocks(self):
        srv, _, last = self.stop_and_restart(signal.SIGTERM)
        alice = self.user_player(srv, "alice", "apass1")
        bob = self.user_player(srv, "bob", "bpass1")
        self.assertIn(b"alice", self.cmd(alice, "stored"))
        self.cmd(alice, "resume bob")
        self.expect_line(bob, re.escape("alice would like to resume your adjourned game."))
        bob.send_line("resume alice")
        for c in (alice, bob):
            c.expect(re.compile(rb"\{Game (\d+) \(alice vs\. bob\) Continuing [^\n]*\n\r\n\r"
                                rb"<12> ([^\n\r]*)\n\r"), GT)
            d = parse12(c.match.group(2))
            self.assertEqual(d["ranks"], last["ranks"], d["raw"])
            for clock in ("wclock", "bclock"):
                # Only the side to move may have been charged the time up to the stop.
                self.assertLessEqual(d[clock], last[clock], (clock, d["raw"], last["raw"]))
                self.assertGreater(d[clock], last[clock] - 10000, (clock, d["raw"], last["raw"]))
        out = self.cmd(alice, "moves").decode()
        for san in MOVES:
            self.assertIn(san, out)


if __name__ == "__main__":
    main()
