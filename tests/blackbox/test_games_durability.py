"""Kill-and-restart durability of live games.

Two registered players play random legal moves as fast as they can; chessd
is killed with SIGKILL at a random moment, restarted on the same data
directory, and then:
  - the game is adjourned ("stored" lists it),
  - the moves the server kept start with every move a client saw
    acknowledged (a style 12 board for it reached either player); at most
    the one move in flight when the server died may be missing or present,
  - chess.db's moves table says the same,
  - "resume" by both players continues it ("Creating" and "Continuing" lines, the same
    board, "moves" lists the same moves) with both clocks as the last
    acknowledged board showed them (the clocks are saved only at takebacks
    and game ends; the moves' times bring them up to date),
and the game goes on to the next kill.  Several rounds with different kill
timings (a timer at a random delay, or right after a move was sent); every
third round starts with a takeback, whose clocks the moves cannot give.

The random seed is printed; set CHESSD_DURABILITY_SEED to replay one.
"""
import os
import random
import re
import signal
import sqlite3
import sys
import threading
import time

from games_harness import (FAST, GT, LS, START_FEN, GamesTestCase, legal_moves, main, parse12,
                           rules)

ROUNDS = int(os.environ.get("CHESSD_DURABILITY_ROUNDS", "8"))


def ply_of(d):
    return (d["moveno"] - 1) * 2 + (1 if d["side"] == "B" else 0)


def status(moves):
    """(fen, termination) after the moves from the start."""
    out = rules("status", START_FEN, *moves).stdout
    fen = re.search(r"^fen: (.*)$", out, re.M).group(1)
    term = re.search(r"^termination: (.*)$", out, re.M).group(1)
    return fen, term


class DurabilityTest(GamesTestCase):

    def setUp(self):
        super().setUp()
        seed = os.environ.get("CHESSD_DURABILITY_SEED")
        self.seed = int(seed) if seed else random.randrange(1 << 30)
        sys.stderr.write("\n[durability seed %d]\n" % self.seed)
        self.rng = random.Random(self.seed)

    def pick_move(self, moves):
        """A random legal move (UCI) that does not end the game."""
        fen, _ = status(moves)
        cands = legal_moves(fen)
        self.rng.shuffle(cands)
        for mv in cands:
            if status(moves + [mv])[1] == "none":
                return mv
        self.fail("no move keeps the game going after %s" % " ".join(moves))

    def db_state(self, srv, game_id=None):
        con = sqlite3.connect(srv.db_path)
        try:
            if game_id is None:
                game_id = con.execute("SELECT max(id) FROM games").fetchone()[0]
            st = con.execute("SELECT status, reason FROM games WHERE id = ?", (game_id,)).fetchone()
            mv = con.execute("SELECT ply, uci, san FROM moves WHERE game_id = ? ORDER BY ply",
                             (game_id,)).fetchall()
        finally:
            con.close()
        return game_id, st, mv

    @staticmethod
    def last_boards(clients):
        """The last board each client was shown.  The last, not the highest
        ply: a takeback goes back, and an older board for a ply may show a
        move that was taken back."""
        out = []
        for c in clients:
            boards = re.findall(rb"<12> ([^\n\r]*)\n\r", c.seen)
            if boards:
                out.append(parse12(boards[-1]))
        return out

    def seen_plies(self, clients):
        """The plies acknowledged: the ply of the later of the clients' last
        boards (only one game is ever live for these two)."""
        return max([ply_of(d) for d in self.last_boards(clients)], default=0)

    def board_at(self, clients, ply):
        """A client's last board, if it is for ply; else None."""
        return next((d for d in self.last_boards(clients) if ply_of(d) == ply), None)

    def wait_board(self, c, ply, timeout=GT):
        deadline = time.monotonic() + timeout
        while True:
            d = self.expect12(c, max(0.1, deadline - time.monotonic()))
            if ply_of(d) == ply:
                return d

    def login_both(self, srv):
        a = self.user_player(srv, "alice", "apass1")
        b = self.user_player(srv, "bob", "bpass1")
        return a, b

    def resume(self, a, b, moves):
        """Both players resume; checks the Continuing lines and the board."""
        self.cmd(a, "resume bob")
        self.expect_line(b, re.escape("alice would like to resume your adjourned game."))
        b.send_line("resume alice")
        n = None
        boards = []
        fen, _ = status(moves)
        placement = fen.split()[0]
        for c in (a, b):
            c.expect(re.compile(LS + rb"Creating: alice \(----\) bob \(----\) unrated standard "
                                rb"60 0\n\r\{Game (\d+) \(alice vs\. bob\) Continuing unrated "
                                rb"standard match\.\}\n\r\n\r<12> ([^\n\r]*)\n\r"), GT)
            n = int(c.match.group(1))
            d = parse12(c.match.group(2))
            self.assertEqual(ply_of(d), len(moves), d["raw"])
            from games_harness import board_fen_part
            self.assertEqual(board_fen_part(d), placement, d["raw"])
            boards.append(d)
        return n, boards

    def server_moves(self, c):
        out = self.cmd(c, "moves").decode().replace("\r", "")
        body = out.split("---------------------\n", 1)[1]
        sans = []
        for m in re.finditer(r"(?m)^ *\d+\.  (\S+) +\(\S+\)(?: +(\S+) +\(\S+\))?", body):
            sans += [x for x in m.groups() if x]
        return sans

    def takeback_one(self, a, b, moves):
        """Two moves, the second taken back by agreement; the clocks stay as
        they were (FICS does not give the time back)."""
        for _ in range(2):
            mover = a if len(moves) % 2 == 0 else b
            mv = self.pick_move(moves)
            time.sleep(0.05)        # so that the move visibly costs time
            mover.send_line(mv)
            self.wait_board(mover, len(moves) + 1)
            moves.append(mv)
        asker, other = (b, a) if len(moves) % 2 == 0 else (a, b)
        self.assertIn(b"Takeback request sent.", self.cmd(asker, "takeback 1"))
        self.expect_line(other, re.escape('%s would like to take back 1 half move(s); type "takeback 1" '
                                             'to accept.' % asker.name))
        other.send_line("takeback 1")
        moves.pop()
        self.wait_board(other, len(moves))
        self.wait_board(asker, len(moves))

    def test_kill_restart_rounds(self):
        srv = self.new_server(config=dict(FAST), tls=False)
        srv.useradd("alice", "apass1")
        srv.useradd("bob", "bpass1")
        srv.start()
        a, b = self.login_both(srv)
        game_no, _ = self.start_match(a, b, "60 0 unrated")
        moves = []          # UCI, as the server has them
        game_id = None
        for rnd in range(ROUNDS):
            mode = ("timer", "after-send")[rnd % 2]
            if rnd % 3 == 2:
                self.takeback_one(a, b, moves)
            inflight = None
            round_start = len(moves)
            kill_at_ply = len(moves) + self.rng.randrange(1, 12)
            delay = self.rng.uniform(0.05, 1.2)
            timer = None
            if mode == "timer":
                timer = threading.Timer(delay, lambda: srv.proc.send_signal(signal.SIGKILL))
                timer.start()
            try:
                while True:
                    mover = a if len(moves) % 2 == 0 else b
                    mv = self.pick_move(moves)
                    inflight = mv
                    mover.send_line(mv)
                    if mode == "after-send" and len(moves) + 1 >= kill_at_ply:
                        time.sleep(self.rng.choice([0, 0, 0.0005, 0.001, 0.003, 0.01]))
                        srv.proc.send_signal(signal.SIGKILL)
                    self.wait_board(mover, len(moves) + 1)
                    moves.append(mv)
                    inflight = None
                    if len(moves) - round_start > 400:
                        self.fail("the kill never came")
            except (AssertionError, OSError) as e:
                srv.proc.wait(GT)
                if srv.proc.returncode != -signal.SIGKILL:
                    raise AssertionError("chessd stopped by itself (%r) in round %d: %s" % (
                        srv.proc.returncode, rnd, e))
            finally:
                if timer:
                    timer.cancel()
            srv.kill()
            for c in (a, b):
                try:
                    c.read_for(0.05)
                except OSError:
                    pass
            acked_plies = self.seen_plies([a, b])
            old_clients = (a, b)
            if acked_plies == len(moves) + 1 and inflight:
                moves.append(inflight)      # the opponent saw it, the mover did not
                inflight = None
            self.assertGreaterEqual(len(moves), acked_plies)
            acked = moves[:acked_plies]
            # The database, read directly.
            game_id, row, dbmoves = self.db_state(srv, game_id)
            db_uci = [m[1] for m in dbmoves]
            self.assertEqual([m[0] for m in dbmoves], list(range(1, len(dbmoves) + 1)))
            self.assertEqual(db_uci[:len(acked)], acked,
                             "round %d (%s): acknowledged moves lost: acked %s, db %s" % (
                                 rnd, mode, acked, db_uci))
            self.assertLessEqual(len(db_uci), len(acked) + 1,
                                 "round %d: db has moves nobody sent: %s vs %s" % (rnd, db_uci, acked))
            if len(db_uci) == len(acked) + 1:
                self.assertEqual(db_uci[-1], inflight if inflight else moves[len(acked)])
            self.assertIn(row[0], ("active", "adjourned"), row)
            sys.stderr.write("[round %d %s: %d plies acknowledged, in flight %s, db has %d]\n" % (
                rnd, mode, len(acked), inflight, len(db_uci)))
            moves = db_uci
            self.assertEqual([m[2] for m in dbmoves],
                             rules("san", START_FEN, *moves).stdout.split() if moves else [])
            # Restart: the game is adjourned, stored, and resumes.
            a.close()
            b.close()
            srv.start()
            game_id2, row, _ = self.db_state(srv, game_id)
            self.assertEqual(row, ("adjourned", "Game adjourned when the server stopped"))
            a, b = self.login_both(srv)
            out = self.cmd(a, "stored")
            self.assertIn(b"Stored games for alice:", out)
            self.assertRegex(out, rb" 1: W bob +Y +\[ su 60   0\]")
            self.assertRegex(self.cmd(b, "stored"), rb" 1: B alice +Y +\[ su 60   0\]")
            game_no, boards = self.resume(a, b, moves)
            shown = self.board_at(old_clients, len(moves))
            if shown:
                # The mover's clock as the move left it; the side to move's as
                # its turn began (both boards shown a moment after it began).
                moved = "bclock" if shown["side"] == "W" else "wclock"
                to_move = "wclock" if moved == "bclock" else "bclock"
                for d in boards:
                    self.assertEqual(d[moved], shown[moved], (d["raw"], shown["raw"]))
                    self.assertLessEqual(abs(d[to_move] - shown[to_move]), 50,
                                         (d["raw"], shown["raw"]))
            self.assertEqual(self.server_moves(a), [m[2] for m in dbmoves])
            self.assertEqual(self.server_moves(b), [m[2] for m in dbmoves])
            self.assertIn(b"alice has no adjourned games.", self.cmd(a, "stored"))
        # One last move after the last resume, then the game ends normally.
        mover = a if len(moves) % 2 == 0 else b
        mv = self.pick_move(moves)
        mover.send_line(mv)
        self.wait_board(mover, len(moves) + 1)
        moves.append(mv)
        a.send_line("resign")
        self.assertEqual(self.end_line(b)[3:], ("alice resigns", "0-1"))
        _, row, dbmoves = self.db_state(srv, game_id)
        self.assertEqual(row, ("finished", "alice resigns"))
        self.assertEqual([m[1] for m in dbmoves], moves)

    def test_game_adjourned_before_clock_ply(self):
        """A game adjourned by a chessd that saved the clocks with every move
        (schema version 4) resumes with those clocks: migration 0005 marks
        them as standing after the last move, so no move's time counts twice."""
        srv = self.new_server(config=dict(FAST), tls=False)
        os.makedirs(srv.data_dir, exist_ok=True)
        sql_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sql")
        con = sqlite3.connect(srv.db_path)
        for name in sorted(os.listdir(sql_dir)):
            if name.endswith(".sql") and int(name[:4]) <= 4:
                with open(os.path.join(sql_dir, name)) as f:
                    con.executescript(f.read())
        con.execute("PRAGMA user_version = 4")
        con.execute("INSERT INTO games (id, white, black, white_rating, black_rating, rated, "
                    "category, time_control, started, status, reason, white_clock, black_clock) "
                    "VALUES (7, 'alice', 'bob', '----', '----', 0, 'standard', '60+0', 0, "
                    "'adjourned', 'Game adjourned when the server stopped', '3595000:1:0:1', "
                    "'3590000:1:0:1')")
        con.executemany("INSERT INTO moves VALUES (7, ?, ?, ?, ?, ?)",
                        [(1, "e2e4", "e4", 5000, 3595000), (2, "e7e5", "e5", 10000, 3590000)])
        con.commit()
        con.close()
        srv.useradd("alice", "apass1")      # migrates the database
        srv.useradd("bob", "bpass1")
        con = sqlite3.connect(srv.db_path)
        self.assertEqual(con.execute("SELECT clock_ply FROM games WHERE id = 7").fetchone(), (2,))
        # A stored game resumes only between the accounts that played it.
        con.execute("UPDATE games SET white_id = 1, black_id = 2 WHERE id = 7")
        con.commit()
        con.close()
        srv.start()
        a, b = self.login_both(srv)
        _, boards = self.resume(a, b, ["e2e4", "e7e5"])
        for d in boards:
            self.assertEqual(d["bclock"], 3590000, d["raw"])
            self.assertLessEqual(abs(d["wclock"] - 3595000), 50, d["raw"])

    def test_wal_checkpoint_pages(self):
        """wal_checkpoint_pages bounds the database log: once it holds that
        many pages, the syncer thread copies it into chess.db itself (the
        loop's connection never checkpoints)."""
        limit = 5
        cfg = dict(FAST)
        cfg["wal_checkpoint_pages"] = limit
        srv = self.new_server(config=cfg, tls=False)
        srv.start()
        w = self.guest_player(srv)
        b = self.guest_player(srv)
        # The log as the migrations left it: its size is a high-water mark.
        before = os.path.getsize(srv.db_path + "-wal")
        copied, page = 0, 4096
        self.start_match(w, b, "5 0")
        moves = []          # 48 commits, one page or more each
        while len(moves) < 48:
            mover = w if len(moves) % 2 == 0 else b
            mv = self.pick_move(moves)
            mover.send_line(mv)
            self.wait_board(mover, len(moves) + 1)
            moves.append(mv)
        # Every commit wrote a frame or more.  Copied into chess.db, nearly
        # all of them are in a copy of chess.db without its log (copied once
        # the last checkpoint is done), and the log never grew far.
        copy = os.path.join(srv.data_dir, "copy.db")
        for attempt in range(20):
            time.sleep(0.2)
            with open(srv.db_path, "rb") as src, open(copy, "wb") as dst:
                dst.write(src.read())
            con = sqlite3.connect(copy)
            try:
                page = con.execute("PRAGMA page_size").fetchone()[0]
                copied = con.execute("SELECT count(*) FROM moves").fetchone()[0]
            except sqlite3.DatabaseError:
                continue            # caught between a checkpoint's writes
            finally:
                con.close()
            if copied >= len(moves) - 2 * limit:
                break
        self.assertGreaterEqual(copied, len(moves) - 2 * limit)
        grown = (os.path.getsize(srv.db_path + "-wal") - before) // (page + 24)
        self.assertLess(grown, 4 * limit, "the log grew by %d frames" % grown)

if __name__ == "__main__":
    main()
