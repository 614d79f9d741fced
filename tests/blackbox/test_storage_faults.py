"""Storage failures during play: a full disk must never cost a move.

The data directory sits on a small tmpfs of its own (we run as root; the
test fails, never skips, when the mount is refused).  Two players play; the
test fills the file system with a file of zeros, and then:
  - a move made while the disk is full is not played: the mover gets one
    line saying so, the opponent sees nothing, the server stays up;
  - a setting that cannot be stored is refused and does not stop it;
  - a game cannot start when its record cannot be written;
  - once the file is removed, the same move is played and the game goes on;
and after SIGKILL and a restart, the moves stored are exactly the moves
acknowledged (every board a player saw, nothing else).

A second test injects I/O errors and read-only-file-system errors under
SQLite with the fault library of fault_shim, which fails pwrite() with the
errno named in a flag file while that file exists.
"""
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile

from fault_shim import ShimMixin
from games_harness import FAST, GT, GamesTestCase, main

NOT_SAVED = re.compile(rb"The server could not save your move \(([^)]*)\); it was not played\.  "
                       rb"Please try again\.\n\r")
# Moves the knights out and back: no pawn move, no capture, no repetition
# that ends the game within the few moves played here.
MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6",
         "b1d2", "a7a6", "a2a4", "h7h6", "h2h3", "b7b6"]

class FaultTestCase(GamesTestCase):
    """What both fault tests check: a move is either seen by both players or
    refused with one line, and the stored moves are the acknowledged ones."""

    def stored_moves(self, srv, game_id):
        con = sqlite3.connect(srv.db_path)
        try:
            return [r[0] for r in con.execute(
                "SELECT uci FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
        finally:
            con.close()

    def try_move(self, mover, opp, mv):
        """Sends mv; returns True if both players saw its board, False when
        the mover was told it was not saved (and the opponent saw nothing)."""
        mover.send_line(mv)
        mover.expect(re.compile(rb"<12> [^\n]*\n\r|" + NOT_SAVED.pattern), GT)
        if mover.match.group(0).startswith(b"<12>"):
            self.expect12(opp)
            return True
        self.assertEqual(mover.match.group(1).decode(), mv)
        # The opponent must not see the move: a board would arrive with the sync.
        out = self.cmd(opp, "date")
        self.assertNotIn(b"<12>", out, "the opponent saw a move that was not saved")
        # And the mover gets nothing but that one line.
        out = self.cmd(mover, "date")
        self.assertNotIn(b"<12>", out)
        return False



class StorageFaultTest(FaultTestCase):

    def setUp(self):
        super().setUp()
        self.mnt = tempfile.mkdtemp(prefix="chessd-fault-")
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", self.mnt],
                           capture_output=True, text=True)
        if r.returncode != 0:
            shutil.rmtree(self.mnt, ignore_errors=True)
            self.fail("cannot mount a tmpfs for the fault test (needs root): %s" % r.stderr)
        self.addCleanup(self._unmount)
        self.fill_path = os.path.join(self.mnt, "fill")

    def _unmount(self):
        # Cleanups run last-added first: kill the servers before unmounting.
        for srv in self._servers:
            srv.kill()
        subprocess.run(["umount", self.mnt], capture_output=True)
        shutil.rmtree(self.mnt, ignore_errors=True)

    def fill_disk(self):
        """Writes zeros until the file system is full."""
        chunk = b"\0" * 65536
        with open(self.fill_path, "wb", buffering=0) as f:
            while True:
                try:
                    f.write(chunk)
                except OSError:
                    break
            # The last few bytes, so that not even a page is left.
            for size in (4096, 512, 1):
                while True:
                    try:
                        f.write(b"\0" * size)
                    except OSError:
                        break
        st = os.statvfs(self.mnt)
        self.assertEqual(st.f_bavail, 0, "the tmpfs is not full")

    def free_disk(self):
        os.unlink(self.fill_path)

    def test_disk_full_during_a_game(self):
        cfg = dict(FAST)
        # The log only grows: each commit needs new blocks, as on a busy server.
        cfg["wal_checkpoint_pages"] = 1000000
        srv = self.new_server(config=cfg, tls=False,
                              data_dir=os.path.join(self.mnt, "data"))
        srv.useradd("alice", "apass1")
        srv.useradd("bob", "bpass1")
        srv.start()
        a = self.user_player(srv, "alice", "apass1")
        b = self.user_player(srv, "bob", "bpass1")
        a.name, b.name = "alice", "bob"
        number, _ = self.start_match(a, b, "5 0")
        players = [a, b]
        acked = []
        for mv in MOVES[:4]:
            self.assertTrue(self.try_move(players[len(acked) % 2], players[1 - len(acked) % 2],
                                          mv))
            acked.append(mv)

        self.fill_disk()
        refused = 0
        attempts = 0
        while refused < 2:
            attempts += 1
            self.assertLess(attempts, 10, "moves kept being saved on a full disk")
            mv = MOVES[len(acked)]
            mover, opp = players[len(acked) % 2], players[1 - len(acked) % 2]
            if self.try_move(mover, opp, mv):
                acked.append(mv)     # there was room for it after all: it is stored
            else:
                refused += 1
        self.assertTrue(srv.running(), "chessd stopped on a full disk")
        # A setting is refused as a move is, and the server stays up.
        self.assertIn(b"The server could not save bell; it keeps its old value.",
                      self.cmd(a, "set bell 1"))
        self.assertTrue(srv.running(), "chessd stopped when a commit failed")
        # "moves" shows only what was played.
        out = self.cmd(a, "moves").decode()
        self.assertEqual(len(re.findall(r"^\s*\d+\.", out, re.M)), (len(acked) + 1) // 2, out)
        # No game starts without its record: two guests' match is refused.
        c = self.guest_player(srv)
        d = self.guest_player(srv)
        self.assertIn(b"Issuing: ", self.cmd(c, "match %s 5 0 unrated" % d.name))
        d.expect(b'You can "accept" or "decline", or propose different parameters.', GT)
        out = self.cmd(d, "accept")
        self.assertIn(b"The server could not save the game; it was not started.", out)
        self.assertNotIn(b"Creating:", out)
        out = self.cmd(c, "date")
        self.assertIn(b"The server could not save the game; it was not started.", out)
        self.assertNotIn(b"Creating:", out)
        self.assertTrue(srv.running())

        self.free_disk()
        mv = MOVES[len(acked)]
        self.assertTrue(self.try_move(players[len(acked) % 2], players[1 - len(acked) % 2], mv),
                        "the move was refused after the disk had room again")
        acked.append(mv)
        for mv in MOVES[len(acked):len(acked) + 3]:
            self.assertTrue(self.try_move(players[len(acked) % 2],
                                          players[1 - len(acked) % 2], mv))
            acked.append(mv)

        con = sqlite3.connect(srv.db_path)
        game_id = con.execute("SELECT max(id) FROM games").fetchone()[0]
        con.close()
        srv.kill()
        srv.start()
        self.assertEqual(self.stored_moves(srv, game_id), acked)


class InjectedFaultTest(ShimMixin, FaultTestCase):

    def test_io_error_and_read_only(self):
        srv = self.new_server(config=dict(FAST), tls=False)
        srv.useradd("alice", "apass1")
        srv.useradd("bob", "bpass1")
        self.start_faulty(srv)
        a = self.user_player(srv, "alice", "apass1")
        b = self.user_player(srv, "bob", "bpass1")
        a.name, b.name = "alice", "bob"
        self.start_match(a, b, "5 0")
        players = [a, b]
        acked = []

        def turn():
            return players[len(acked) % 2], players[1 - len(acked) % 2]

        for mv in MOVES[:2]:
            self.assertTrue(self.try_move(*turn(), mv))
            acked.append(mv)
        for errno_name in ("EIO", "EROFS", "ENOSPC"):
            self.fail_writes(errno_name)
            mv = MOVES[len(acked)]
            self.assertFalse(self.try_move(*turn(), mv), "played despite %s" % errno_name)
            self.assertFalse(self.try_move(*turn(), mv), "played despite %s" % errno_name)
            self.assertTrue(srv.running(), "chessd stopped on %s" % errno_name)
            self.allow_writes()
            self.assertTrue(self.try_move(*turn(), mv), "refused after %s cleared" % errno_name)
            acked.append(mv)
        # A takeback the database refuses is not made either.
        not_saved = b"The server could not save the takeback; the game goes on without it."
        self.fail_writes("EIO")
        self.takeback(a, b)
        for c in (a, b):
            c.expect(not_saved, GT)
            self.assertNotIn(b"<12>", self.cmd(c, "date"))
        self.allow_writes()
        self.takeback(a, b)
        for c in (a, b):
            d = self.expect12(c)
            # The board is back one half-move: the side and move number say so.
            self.assertEqual((d["moveno"] - 1) * 2 + (d["side"] == "B"), len(acked) - 1, d["raw"])
        acked.pop()
        self.assertTrue(self.try_move(*turn(), MOVES[len(acked)]))
        acked.append(MOVES[len(acked)])
        game_id = self.query(srv, "SELECT max(id) FROM games")[0][0]
        srv.kill()
        srv.start()
        self.assertEqual(self.stored_moves(srv, game_id), acked)

    def takeback(self, a, b):
        """a asks to take back one half-move; b accepts."""
        a.send_line("takeback 1")
        b.expect(b'type "takeback 1" to accept.', GT)
        b.send_line("takeback 1")


if __name__ == "__main__":
    main()
