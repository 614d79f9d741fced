"""Deleting an account (`chessd userdel` beside a running server, or the
admin command `remplayer`): ids are never handed out again (sql/0006), the
account's session ends, its live game is lost by forfeit and rates nobody
(no half-applied rating), and a tournament treats it as withdrawn; its
director rights go with it."""
import os
import re
import sqlite3
import time

import chessd_harness as H
from chessd_harness import db_rows as rows
from games_harness import FAST, GT, GamesTestCase, main

PASSWORD = "secret1"
ROOT = H.ROOT


class AccountDelete(GamesTestCase):

    def server(self, names, admin=(), **settings):
        cfg = dict(FAST)
        cfg.update(settings)
        srv = self.new_server(config=cfg, tls=False)
        for n in names:
            srv.useradd(n, PASSWORD, admin=n in admin)
        srv.start()
        return srv

    def login(self, srv, name):
        return self.user_player(srv, name, PASSWORD)

    def userdel(self, srv, name):
        r = H.run_admin(srv.data_dir, "userdel", name)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_ids_not_reused(self):
        srv = self.server(["alice", "bob"])
        (bob_id,), = rows(srv.db_path, "SELECT id FROM users WHERE name = 'bob'")
        self.userdel(srv, "bob")
        srv.useradd("carol", PASSWORD)
        (carol_id,), = rows(srv.db_path, "SELECT id FROM users WHERE name = 'carol'")
        self.assertGreater(carol_id, bob_id)

    def test_userdel_beside_running_server_ends_session(self):
        srv = self.server(["alice", "bob"])
        a = self.login(srv, "alice")
        b = self.login(srv, "bob")
        self.userdel(srv, "alice")
        a.expect(b"**** Your account has been deleted; goodbye. ****", GT)
        a.expect_closed(GT)
        self.assertNotIn(b"alice", self.cmd(b, "who"))
        # Nor can anyone log in with it again.
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line("alice")
        self.assertIn(b'"alice" is not a registered name.', c.expect(b"Press return", GT))

    def test_deleted_during_password_check(self):
        srv = self.server(["alice"])
        c = self.connect(srv)
        c.expect(b"login: ")
        c.send_line("alice")
        c.expect(b"password: ")
        self.userdel(srv, "alice")
        c.send_line(PASSWORD)
        out = c.expect(b"login: ", GT)
        self.assertIn(b"Sorry, the account alice no longer exists.", out)
        self.assertNotIn(b"Starting FICS session", out)

    def test_remplayer_ends_game_without_rating(self):
        srv = self.server(["root", "alice", "bob"], admin=("root",))
        root = self.login(srv, "root")
        a = self.login(srv, "alice")
        b = self.login(srv, "bob")
        n, _ = self.start_match(a, b, "5 0 rated")
        self.play_moves(a, b, ["e4", "e5"])
        self.assertIn(b"Account bob deleted.", self.cmd(root, "remplayer bob"))
        self.assertEqual(self.end_line(a)[3:], ("bob forfeits: the account was deleted", "1-0"))
        b.expect_closed(GT)
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM ratings"), [(0,)])
        self.assertEqual(rows(srv.db_path, "SELECT white_id IS NOT NULL, black_id FROM games"),
                         [(1, None)])
        # Not an admin: no such command.
        self.assertIn(b"remplayer: Command not found.", self.cmd(a, "remplayer root"))

    def test_tournament_director_and_entry_not_inherited(self):
        """The newest account directs a tournament and plays in it;
        deleted, the next registration must inherit neither."""
        srv = self.server(["alice", "bob", "mallory"])
        m = self.login(srv, "mallory")
        out = self.cmd(m, "tourney create Club rr 1 5 0 unrated")
        tid = int(re.search(rb"Created tourney (\d+)", out).group(1))
        self.cmd(m, "tourney join %d" % tid)
        m.close()
        self.userdel(srv, "mallory")
        # The next account, made from outside too.
        srv.useradd("trudy", PASSWORD)
        t = self.login(srv, "trudy")
        out = self.cmd(t, "tourney start %d" % tid)
        self.assertIn(b"Only the director (mallory) or an admin can start tourney %d." % tid, out)
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM tourney_players"), [(0,)])
        self.assertEqual(rows(srv.db_path, "SELECT director_id FROM tourneys"), [(None,)])

    def boards(self, c, tid):
        out = self.cmd(c, "tourney pairings %d" % tid).decode().replace("\r", "")
        m = re.search(r"Tourney \d+ round (\d+):", out)
        found = re.findall(r"(?m)^\s*Board +\d+: (\w+) +\(\d+\) - (\w+) +\(\d+\) (\S+)", out)
        return (int(m.group(1)) if m else 0), found

    def test_rated_tournament_participant_deleted(self):
        names = ["alice", "bob", "carol"]
        srv = self.server(["director"] + names, tourney_forfeit_ms=60000)
        d = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        out = self.cmd(d, "tourney create Rated rr 3 5 0 rated")
        tid = int(re.search(rb"Created tourney (\d+)", out).group(1))
        for n in names:
            self.cmd(clients[n], "tourney join %d" % tid)
        self.cmd(d, "tourney start %d" % tid)
        deadline = time.monotonic() + GT
        while True:
            rnd, boards = self.boards(d, tid)
            if rnd == 1 and boards:
                break
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.1)
        white, black, _ = boards[0]
        w, k = clients[white], clients[black]
        self.expect12(w)
        self.expect12(k)
        self.play_moves(w, k, ["e4", "e5"])
        self.userdel(srv, black)
        end = self.end_line(w, GT)
        self.assertEqual(end[3:], ("%s forfeits: the account was deleted" % black, "1-0"))
        # Neither rating moved: not the winner's alone.
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM ratings"), [(0,)])
        # The next round is paired, and the deleted player's board there is a
        # forfeit at once: nothing waits for (or keeps restarting) it.
        deadline = time.monotonic() + GT
        while True:
            rnd, boards = self.boards(d, tid)
            if rnd == 2:
                break
            self.assertLess(time.monotonic(), deadline, srv.log())
            time.sleep(0.2)
        mine = [b for b in boards if black in b[:2]]
        for b in mine:
            self.assertIn(b[2], ("+-", "-+"), boards)
        self.assertEqual(rows(srv.db_path, "SELECT withdrawn_round FROM tourney_players "
                                           "WHERE name = ?", black), [(2,)])
        self.assertNotIn("cannot", srv.log())

class Migration(GamesTestCase):

    def test_migration_keeps_data_and_stops_reuse(self):
        """A database made by the schema before 0006: every row kept, and the
        sequence starts past ids only tourney_players still names."""
        srv = self.new_server(config=FAST, tls=False)
        os.makedirs(srv.data_dir, exist_ok=True)
        con = sqlite3.connect(srv.db_path)
        con.execute("PRAGMA foreign_keys=ON")
        for i in range(1, 6):
            name = sorted(f for f in os.listdir(os.path.join(ROOT, "sql"))
                          if f.startswith("%04d-" % i))[0]
            with open(os.path.join(ROOT, "sql", name)) as f:
                con.executescript(f.read())
        con.execute("PRAGMA user_version = 5")
        for i, n in enumerate(["alice", "bob", "carol"], 1):
            con.execute("INSERT INTO users (id, name, password, created) VALUES (?, ?, 'x', 0)",
                        (i, n))
        con.execute("INSERT INTO user_vars VALUES (2, 'shout', '0')")
        con.execute("INSERT INTO ratings VALUES (2, 'blitz', 1600, 100, 0.06, 3, 1, 0)")
        con.execute("INSERT INTO tourneys (id, name, kind, rounds, time_control, rated, director_id,"
                    " director, state, tiebreaks, created) VALUES (1, 'T', 'rr', 1, '5 0', 0, 3,"
                    " 'carol', 'created', '', 0)")
        con.execute("INSERT INTO tourney_players (tourney_id, user_id, name, joined) "
                    "VALUES (1, 3, 'carol', 1)")
        con.execute("DELETE FROM users WHERE id = 3")
        con.commit()
        con.close()
        srv.start()
        # Every migration ran (later ones may follow 0006).
        sql = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sql")
        latest = max(int(f[:4]) for f in os.listdir(sql) if re.match(r"\d{4}-.*\.sql$", f))
        self.assertGreaterEqual(latest, 6)
        self.assertEqual(rows(srv.db_path, "PRAGMA user_version"), [(latest,)])
        self.assertEqual(rows(srv.db_path, "SELECT id, name FROM users ORDER BY id"),
                         [(1, "alice"), (2, "bob")])
        self.assertEqual(rows(srv.db_path, "SELECT * FROM user_vars"), [(2, "shout", "0")])
        self.assertEqual(rows(srv.db_path, "SELECT user_id, wins FROM ratings"), [(2, 3)])
        srv.stop()
        srv.useradd("dave", PASSWORD)
        self.assertEqual(rows(srv.db_path, "SELECT id FROM users WHERE name = 'dave'"), [(4,)])
        # Foreign keys still hold: deleting bob takes his settings and ratings.
        r = H.run_admin(srv.data_dir, "userdel", "bob")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM user_vars"), [(0,)])
        self.assertEqual(rows(srv.db_path, "SELECT count(*) FROM ratings"), [(0,)])


if __name__ == "__main__":
    main()
