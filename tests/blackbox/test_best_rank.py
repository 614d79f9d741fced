"""best, hbest, rank, hrank: lasker's rating lists over our Glicko-2
ratings.  Ranked is a rating that is no longer provisional (RD below 110);
ties show no place; computers are left out by hbest and hrank; a player
not ranked is shown among the ranked by rating with ---- for a place.
The lists read an index, whatever the number of accounts."""
import time

from chessd_harness import ChessdTestCase, db_rows, main
import sqlite3

PW = "secret1"
WIDTH = 30


def head(*titles):
    out = ""
    for t in titles:
        left = (WIDTH - len(t)) // 2
        out += " " * left + t.ljust(WIDTH - left)
    return out.rstrip() + "\n\r\n\r"


def entry(place, name, rating):
    mark = "%4d." % place if place > 0 else ("----" if place < 0 else "    ")
    if place > 0:
        return "%s %-17s %4s  " % (mark, name, rating)
    return "%s  %-17s %4s  " % (mark, name, rating)


def table(*columns):
    """Lines of entries side by side; a missing entry is blanks."""
    rows = max(len(c) for c in columns)
    out = ""
    for i in range(rows):
        for c in columns:
            out += entry(*c[i]) if i < len(c) else " " * WIDTH
        out += "\n\r"
    return out


# name, computer, {category: (rating, rd)}
PLAYERS = [
    ("alpha", 0, {"blitz": (2100, 50), "standard": (1800, 80)}),
    ("bravo", 0, {"blitz": (2000, 60)}),
    ("charlie", 0, {"blitz": (2000, 70), "lightning": (1500, 90)}),
    ("robot", 1, {"blitz": (2200, 50), "standard": (1900, 40)}),
    ("newcomer", 0, {"blitz": (2300, 200)}),
    ("aLongerNameOfSeven", 0, {}),
]


class RatingLists(ChessdTestCase):

    def tearDown(self):
        self.stop_servers_clean()

    def server(self, config=None, extra=()):
        srv = self.new_server(config=config)
        srv.useradd("viewer", PW)
        con = sqlite3.connect(srv.db_path)
        for name, computer, ratings in PLAYERS + list(extra):
            cur = con.execute("INSERT INTO users (name, password, created, computer) "
                              "VALUES (?, 'scrypt$1$1$1$x$y', 0, ?)", (name, computer))
            for cat, (rating, rd) in ratings.items():
                con.execute("INSERT INTO ratings VALUES (?, ?, ?, ?, 0.06, 5, 3, 2)",
                            (cur.lastrowid, cat, rating, rd))
        con.commit()
        con.close()
        srv.start()
        return srv

    def test_best_and_hbest(self):
        srv = self.server()
        g = self.guest(srv)
        blitz = [(1, "robot", 2200), (2, "alpha", 2100), (3, "bravo", 2000), (0, "charlie", 2000)]
        std = [(1, "robot", 1900), (2, "alpha", 1800)]
        light = [(1, "charlie", 1500)]
        self.assertEqual(g.command("best").decode(),
                         head("Blitz", "Standard", "Lightning") + table(blitz, std, light) +
                         "fics% ")
        self.assertEqual(g.command("best sb").decode(),
                         head("Blitz", "Standard") + table(blitz, std) + "fics% ")
        self.assertEqual(g.command("best l").decode(), head("Lightning") + table(light) + "fics% ")
        hblitz = [(1, "alpha", 2100), (2, "bravo", 2000), (0, "charlie", 2000)]
        self.assertEqual(g.command("hbest bs").decode(),
                         head("Blitz", "Standard") + table(hblitz, [(1, "alpha", 1800)]) + "fics% ")
        self.assertEqual(g.command("best w"), b"Usage: best [b][s][l]\n\rfics% ")
        self.assertEqual(g.command("hbest x"), b"Usage: hbest [b][s][l]\n\rfics% ")
        self.assertEqual(g.command("best b s"), b"Usage: best [b][s][l]\n\rfics% ")
        for topic in ("best", "hbest", "rank", "hrank"):
            self.assertIn(b"no\n\rlonger provisional (RD below 110", g.command("help " + topic))

    def test_rank_of_a_player(self):
        srv = self.server()
        g = self.guest(srv)
        self.assertEqual(g.command("rank bravo b").decode(),
                         head("Blitz") + table([(1, "robot", 2200), (2, "alpha", 2100),
                                                (3, "bravo", 2000), (0, "charlie", 2000)]) + "fics% ")
        # Not ranked (provisional): shown among them by rating, ---- for a place.
        self.assertEqual(g.command("rank newcomer").decode(),
                         head("Blitz") + table([(-1, "newcomer", "2300P"), (1, "robot", 2200),
                                                (2, "alpha", 2100), (3, "bravo", 2000),
                                                (0, "charlie", 2000)]) + "fics% ")
        # hrank leaves robot out; and a computer asked for is shown unranked.
        self.assertEqual(g.command("hrank alpha bs").decode(),
                         head("Blitz", "Standard") +
                         table([(1, "alpha", 2100), (2, "bravo", 2000), (0, "charlie", 2000)],
                               [(1, "alpha", 1800)]) + "fics% ")
        self.assertEqual(g.command("hrank robot s").decode(),
                         head("Standard") + table([(-1, "robot", 1900), (1, "alpha", 1800)]) +
                         "fics% ")
        self.assertEqual(g.command("rank bravo s"), b"No ratings to show.\n\rfics% ")
        self.assertEqual(g.command("rank alongernameofseven"), b"No ratings to show.\n\rfics% ")
        self.assertEqual(g.command("rank"), b"No ratings to show.\n\rfics% ")
        self.assertEqual(g.command("rank nobody"), b"Target nobody not found.\n\rfics% ")
        self.assertEqual(g.command("rank bravo q"),
                         b"Usage: rank [name [b][s][l]] | rank M-N [b][s][l]\n\rfics% ")

    def test_rank_of_places(self):
        srv = self.server(config={"rank_lines": 3})
        g = self.guest(srv)
        self.assertEqual(g.command("rank 2-3 b").decode(),
                         head("Blitz") + table([(2, "alpha", 2100), (3, "bravo", 2000)]) + "fics% ")
        # A tie at the top of the range still shows its place.
        self.assertEqual(g.command("hrank 3-3").decode(),
                         head("Blitz") + table([(3, "charlie", 2000)]) + "fics% ")
        # Cut at rank_lines.
        self.assertEqual(g.command("rank 1-1000 b").decode(),
                         head("Blitz") + table([(1, "robot", 2200), (2, "alpha", 2100),
                                                (3, "bravo", 2000)]) + "fics% ")
        self.assertEqual(g.command("rank 50-60"), b"No ratings to show.\n\rfics% ")
        usage = b"Usage: rank [name [b][s][l]] | rank M-N [b][s][l]\n\rfics% "
        for bad in ("rank 3-2", "rank 5", "rank 1-99999999999999999999", "rank 1-x",
                    "rank 1--2", "rank 0-0", "rank 1-2 z"):
            self.assertEqual(g.command(bad), usage, bad)

    def test_many_accounts_read_by_index(self):
        def name(i):
            return "p" + "".join(chr(97 + (i // 26 ** k) % 26) for k in range(4))
        # Ratings 1000 to 8999, one a player; every other one provisional.
        extra = [(name(i), 0, {"blitz": (1000 + i, 50 if i % 2 else 300)}) for i in range(8000)]
        srv = self.server(extra=extra)
        g = self.guest(srv)
        t = time.monotonic()
        top = [(k + 1, name(7999 - 2 * k), 8999 - 2 * k) for k in range(20)]
        self.assertEqual(g.command("best b").decode(), head("Blitz") + table(top) + "fics% ")
        # Place 1000 is i = 7999 - 2 * 999: ten lines above it, nine below.
        around = [(p, name(7999 - 2 * (p - 1)), 8999 - 2 * (p - 1)) for p in range(990, 1010)]
        self.assertEqual(g.command("rank %s b" % name(7999 - 2 * 999)).decode(),
                         head("Blitz") + table(around) + "fics% ")
        # One not ranked, between places 1000 and 1001.
        lone = 7999 - 2 * 999 - 1
        around = ([(p, name(7999 - 2 * (p - 1)), 8999 - 2 * (p - 1)) for p in range(991, 1001)] +
                  [(-1, name(lone), "%dP" % (1000 + lone))] +
                  [(p, name(7999 - 2 * (p - 1)), 8999 - 2 * (p - 1)) for p in range(1001, 1010)])
        self.assertEqual(g.command("rank %s" % name(lone)).decode(),
                         head("Blitz") + table(around) + "fics% ")
        self.assertLess(time.monotonic() - t, 10)
        con = sqlite3.connect(srv.db_path)
        for sql in ("SELECT r.user_id FROM ratings r JOIN users u ON u.id = r.user_id "
                    "WHERE r.category = 'blitz' AND r.rd < 110 AND (0 = 0 OR u.computer = 0) "
                    "ORDER BY r.rating DESC, r.user_id LIMIT 20 OFFSET 0",
                    "SELECT count(*) FROM ratings r JOIN users u ON u.id = r.user_id "
                    "WHERE r.category = 'blitz' AND r.rd < 110 AND (1 = 0 OR u.computer = 0) "
                    "AND r.rating >= 1500 AND (r.rating > 1500 OR r.user_id < 3)"):
            plan = " ".join(r[3] for r in con.execute("EXPLAIN QUERY PLAN " + sql))
            self.assertIn("INDEX ratings_by_rank (category=?", plan)
            self.assertNotIn("TEMP B-TREE", plan)
        con.close()

if __name__ == "__main__":
    main()
