"""The number `history` shows names the same game in smoves, oldmoves and pgn.

FICS users read N in `history NAME` and type `smoves NAME N`.  Aborted
games, which history leaves out, are played between the finished ones
here, and more games are played than history lists, so that a count that
skips differently, or numbers from the wrong end, shows.
"""
import re

from games_harness import GT, GamesTestCase, main

# The first move of each finished game: it tells the games apart.
FIRST_MOVES = ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4"]
HISTORY_RE = re.compile(r"^\s*(\d+): ([-+=]) .*?(\w+)\s+\[", re.M)


class RecordNumbersTest(GamesTestCase):

    def play_finished(self, a, b, first, loser):
        self.start_match(a, b, "5 0 unrated")
        self.move(a, b, first)
        self.move(b, a, "h6")
        loser.send_line("resign")
        self.end_line(a)
        self.end_line(b)
        self.cmd(a, "date")
        self.cmd(b, "date")

    def play_aborted(self, a, b, first):
        self.start_match(a, b, "5 0 unrated")
        self.move(a, b, first)
        a.send_line("abort")
        self.end_line(a)
        self.end_line(b)
        self.cmd(a, "date")

    def first_move_of(self, out):
        m = re.search(r"^\s*1\.\s+(\S+)", out, re.M)
        return m and m.group(1)

    def test_history_numbers_name_the_same_game_everywhere(self):
        srv = self.new_server(config={"commands_per_sec": 1000, "command_burst": 1000,
                                      "games_per_minute": 1000},
                              tls=False)
        srv.useradd("alice", "apass1")
        srv.useradd("bob", "bpass1")
        srv.start()
        a = self.user_player(srv, "alice", "apass1")
        b = self.user_player(srv, "bob", "bpass1")
        a.name, b.name = "alice", "bob"
        results = []
        for i, first in enumerate(FIRST_MOVES):
            if i % 3 == 1:
                self.play_aborted(a, b, "e4")      # history omits it
            loser = a if i % 2 else b
            self.play_finished(a, b, first, loser)
            results.append("-" if loser is a else "+")
        self.play_aborted(a, b, "e4")              # the newest game of all

        out = self.cmd(a, "history alice").decode()
        rows = HISTORY_RE.findall(out)
        # The last ten finished games, numbered by their place among all of them.
        self.assertEqual([int(r[0]) for r in rows], list(range(2, 12)), out)
        for number, mark, opponent in rows:
            self.assertEqual(mark, results[int(number)], out)
            self.assertEqual(opponent, "bob", out)
        for n in list(range(12)) + [-1, -12]:
            want = FIRST_MOVES[n]
            for command in ("smoves", "oldmoves"):
                got = self.cmd(b, "%s alice %d" % (command, n)).decode()
                self.assertEqual(self.first_move_of(got), want, "%s alice %d:\n%s" % (
                    command, n, got))
            pgn = self.cmd(b, "pgn alice %d" % n).decode()
            self.assertRegex(pgn, r"(?m)^\r?1\. %s \{[^}]*\} 1\.\.\. h6 " % re.escape(want),
                             "pgn alice %d:\n%s" % (n, pgn))
        # Both players number the same games alike.
        self.assertEqual(self.first_move_of(self.cmd(a, "smoves bob 5").decode()),
                         FIRST_MOVES[5])
        for bad in ("12", "-13", "100"):
            self.assertRegex(self.cmd(b, "smoves alice %s" % bad),
                             rb"alice has no such game\.|is not a game number")
        # Without a number: the latest game kept (the aborted one is not).
        self.assertEqual(self.first_move_of(self.cmd(b, "smoves alice").decode()),
                         FIRST_MOVES[-1])


if __name__ == "__main__":
    main()
