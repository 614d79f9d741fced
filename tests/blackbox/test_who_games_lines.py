"""`who` and `games`, black box, byte for byte against FICS's formats.

Both lists are written by hand-made formatters (they are asked for often,
with every user or game on them), so each field is checked here against the
printf format lasker uses: who "%4s%c%s%s" (rating, mark, name, flags) and
games "%3d %4s %-11.11s %4s %-10.10s [%c%c%c%3d %3d] %6s -%6s (%2d-%2d) %c:
%2d", or "(Exam. ...)" for an examined board.  The awkward cases: guests'
++++, provisional P ratings, three-digit ratings, ----, the idle '.', '^' in
a game, the admin's (*), a private game, an examined and a set-up board, a
17-letter name cut to 11 and 10, hour-long clocks, no games and one game.

Five minutes of idleness are not waited for: a small library preloaded into
chessd moves its monotonic clock ahead when the test says so.
"""
import os
import sqlite3
import textwrap
import time

from chessd_harness import build_preload, main, start_preloaded
from games_harness import FAST, GT, GamesTestCase

PW = "secret-pass-1"
LONG = "Abcdefghijklmnopq"	# 17 letters, the longest name

CLOCK_SHIM = textwrap.dedent(r"""
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <fcntl.h>
    #include <stdlib.h>
    #include <time.h>
    #include <unistd.h>

    /* CLOCK_MONOTONIC, moved ahead by the milliseconds in $CHESSD_CLOCK_AHEAD's file. */
    int clock_gettime(clockid_t id, struct timespec *ts)
    {
        static int (*real)(clockid_t, struct timespec *);
        if (!real)
            real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
        int r = real(id, ts);
        const char *path = getenv("CHESSD_CLOCK_AHEAD");
        if (r || id != CLOCK_MONOTONIC || !path)
            return r;
        char text[32];
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            return r;
        ssize_t n = read(fd, text, sizeof text - 1);
        close(fd);
        text[n > 0 ? n : 0] = '\0';
        long long ms = atoll(text);
        ts->tv_sec += ms / 1000;
        ts->tv_nsec += ms % 1000 * 1000000;
        if (ts->tv_nsec >= 1000000000) {
            ts->tv_sec++;
            ts->tv_nsec -= 1000000000;
        }
        return r;
    }
""")


def who_line(rating, mark, name, flags):
    return "%4s%c%s%s" % (rating, mark, name, flags)


def clock_text(s):
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60) if s >= 3600 else \
        "%d:%02d" % (s // 60, s % 60)


def games_line(number, wr, wn, br, bn, private, cat, rated, mins, inc, wc, bc, side="W",
               move=1, wm=39, bm=39):
    return "%3d %4s %-11.11s %4s %-10.10s [%c%c%c%3d %3d] %6s -%6s (%2d-%2d) %c: %2d" % (
        number, wr, wn, br, bn, "p" if private else " ", cat, "r" if rated else "u", mins,
        inc, clock_text(wc), clock_text(bc), wm, bm, side, move)


def exam_line(number, what, wr, wn, br, bn, side="W", move=1):
    return "%3d (%s %4s %-11.11s %4s %-10.10s) [ uu  0   0] %c: %2d" % (
        number, what, wr, wn, br, bn, side, move)


class WhoGamesLines(GamesTestCase):

    def setUp(self):
        super().setUp()
        self.lib, work = build_preload(self, CLOCK_SHIM, "clock")
        self.ahead = os.path.join(work, "ahead")

    def clock_ahead(self, ms):
        with open(self.ahead, "w") as f:
            f.write("%d" % ms)

    def start_shifted(self, srv):
        start_preloaded(srv, self.lib, {"CHESSD_CLOCK_AHEAD": self.ahead})

    def server(self):
        srv = self.start_server(config=dict(FAST), tls=False, start=False)
        srv.useradd("Zadmin", PW, admin=True)
        for n in ("alice", "bob", LONG):
            srv.useradd(n, PW)
        srv.start()
        srv.stop()
        con = sqlite3.connect(srv.db_path)
        for name, cat, r, rd in (("alice", "blitz", 1517.2, 200), ("alice", "standard", 1600, 50),
                                 ("bob", "blitz", 987, 40), ("bob", "standard", 1450, 150)):
            con.execute("INSERT INTO ratings (user_id, category, rating, rd, volatility, wins,"
                        " losses, draws) SELECT id, ?, ?, ?, 0.06, 3, 2, 1 FROM users "
                        "WHERE name = ?", (cat, r, rd, name))
        con.commit()
        con.close()
        self.start_shifted(srv)
        return srv

    def assert_who(self, q, rows):
        """rows: name -> (rating, mark, flags); the whole reply, in name order."""
        names = sorted(rows, key=str.lower)
        want = "".join(who_line(rows[n][0], rows[n][1], n, rows[n][2]) + "\n\r" for n in names)
        want += ("\n\r%d players displayed (of %d). (*) indicates system administrator.\n\r"
                 % (len(rows), len(rows)))
        self.assertEqual(self.cmd(q, "who").decode(), want)

    def assert_games(self, q, choices):
        """choices: one list per line, in game order, of the texts it may have
        (a clock that ticks is one of a few seconds)."""
        out = self.cmd(q, "games").decode()
        lines = out.split("\n\r")
        self.assertEqual(lines[len(choices):], ["", "  %d games displayed." % len(choices), ""],
                         out)
        for got, allowed in zip(lines, choices):
            self.assertIn(got, allowed, out)

    def test_who_and_games_byte_for_byte(self):
        srv = self.server()
        adm = self.user_player(srv, "Zadmin", PW)
        alice = self.user_player(srv, "alice", PW)
        bob = self.user_player(srv, "bob", PW)
        long_ = self.user_player(srv, LONG, PW)
        g1, g2, g3 = (self.guest_player(srv) for _ in range(3))

        # No games yet: the plain count eboard waits for.
        self.assertEqual(self.cmd(adm, "games"), b"\n\r  0 games displayed.\n\r")
        rows = {"Zadmin": ("----", " ", "(*)"), "alice": ("1517P", " ", ""),
                "bob": (" 987", " ", ""), LONG: ("----", " ", ""),
                g1.name: ("++++", " ", "(U)"), g2.name: ("++++", " ", "(U)"),
                g3.name: ("++++", " ", "(U)")}
        self.assert_who(adm, rows)

        # One game: hour-long clocks as h:mm:ss, the long name cut to 10 as Black.
        n1, _ = self.start_match(alice, long_, "90 0 r")

        def first(ahead_s=0):
            ticking = [games_line(n1, "1600", "alice", "----", LONG, False, "s", True, 90, 0,
                                  5400 - ahead_s - t, 5400) for t in range(0, 60)]
            return ticking
        self.assert_games(adm, [first()])

        # A private lightning game of a three-digit player and a guest, the long
        # name cut to 11 as White, an examined board and one being set up.
        self.assertIn(b"Your games will be private.", self.cmd(bob, "set private 1"))
        n2, _ = self.start_match(bob, g1, "1 0 u")
        self.assertIn(b"Starting a game in examine (scratch) mode.", self.cmd(g2, "examine"))
        self.assertIn(b"Starting a game in examine (setup) mode.", self.cmd(g3, "examine setup"))
        numbers = sorted([n1, n2])
        self.assertEqual(numbers, [n1, n2])
        second = [games_line(n2, "----", "bob", "++++", g1.name, True, "l", False, 1, 0,
                             60 - t, 60) for t in range(0, 60)]
        self.assert_games(adm, [first(), second,
                                [exam_line(n2 + 1, "Exam.", "++++", g2.name, "++++", g2.name)],
                                [exam_line(n2 + 2, "Setup", "++++", g3.name, "++++", g3.name)]])
        for name in ("alice", "bob", LONG, g1.name):
            rows[name] = (rows[name][0], "^", rows[name][2])
        self.assert_who(adm, rows)

        # Seven minutes later: idle users marked '.', but a player stays '^';
        # the one asking is not idle.
        bob.send_line("abort")
        self.end_line(bob)
        self.end_line(g1)
        self.clock_ahead(7 * 60 * 1000)
        for name in rows:
            if name not in ("Zadmin", "alice", LONG):
                rows[name] = (rows[name][0], ".", rows[name][2])
        self.assert_who(adm, rows)
        self.assert_games(adm, [first(7 * 60),
                                [exam_line(n2 + 1, "Exam.", "++++", g2.name, "++++", g2.name)],
                                [exam_line(n2 + 2, "Setup", "++++", g3.name, "++++", g3.name)]])
        for c in (adm, alice, bob, long_, g1, g2, g3):
            c.close()
        srv.stop()
        self.assert_no_sanitizer_report(srv)

    def test_who_keeps_name_order_through_logins_and_logouts(self):
        srv = self.game_server()
        q = self.guest_player(srv)
        users = {q.name: q}
        for _ in range(7):
            c = self.guest_player(srv)
            users[c.name] = c
        ordered = sorted(users, key=str.lower)
        self.assertIn(b"8 players displayed", self.cmd(q, "who"))
        # Out of the first, a middle and the last place; then more come in.
        for name in (ordered[0], ordered[3], ordered[-1]):
            if name != q.name:
                users.pop(name).close()
        for _ in range(3):
            c = self.guest_player(srv)
            users[c.name] = c
        want = "".join(who_line("++++", " ", n, "(U)") + "\n\r"
                       for n in sorted(users, key=str.lower))
        want += ("\n\r%d players displayed (of %d). (*) indicates system administrator.\n\r"
                 % (len(users), len(users)))
        deadline = time.time() + GT
        while True:
            got = self.cmd(q, "who").decode()
            if got == want or time.time() > deadline:
                break
            time.sleep(0.1)	# a closed connection's logout may not have been seen yet
        self.assertEqual(got, want)
        for c in users.values():
            c.close()
        srv.stop()
        self.assert_no_sanitizer_report(srv)


if __name__ == "__main__":
    main()
