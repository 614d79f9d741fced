"""Storage failures for the tournament commands: persist, then reply.

The fault library of fault_shim fails SQLite's writes while its flag file
exists; "EIO 7" lets exactly the first seven writes through.  Each command
that changes what is stored of a tournament (create, join, leave, set,
start with round 1's pairings, withdraw, result, pause, bye) is refused when
its rows cannot be committed:

  - its user reads one line, "The server could not save ...; nothing was
    changed.", and nothing else: no reply, no announcement to the
    participants or to the tournament channel;
  - the tournament is as it was, in `tourney list`, `show`, `pairings` and
    `crosstable`, and in the database as another process reads it;
  - after SIGKILL and a restart it is still as it was;
  - with the disk back, the same command works.

For join and start, every number of writes that may go through is tried:
the command either stands whole (stored as another process reads it) or
is refused whole.
"""
import re

from fault_shim import ShimMixin
from games_harness import FAST, GT, main
from test_tourney import PASSWORD, TourneyTestCase, text

REFUSED = re.compile(rb"The server could not save ([^\n]*); nothing was changed\.\n\r")
# What an announcement of any tournament starts with.
ANNOUNCED = re.compile(rb"Tourney \d+ \(")


class TourneyCommandFaultTest(ShimMixin, TourneyTestCase):

    def server(self, names):
        cfg = dict(FAST)
        # No checkpoints: every write goes to the log, none to the database file.
        cfg["wal_checkpoint_pages"] = 1000000
        # Absent players are not forfeited while the test runs.
        cfg["tourney_forfeit_ms"] = 600000
        srv = self.new_server(config=cfg, tls=False)
        for n in names:
            srv.useradd(n, PASSWORD)
        self.start_faulty(srv)
        return srv

    def watcher(self, srv):
        """A user on the tournament channel: hears every announcement."""
        w = self.login(srv, "watcher")
        self.assertIn(b"[49] added", self.cmd(w, "+channel 49"))
        return w

    def state(self, c, tid):
        """Everything a user can read of the tournaments."""
        lines = ["tourney list"]
        if tid:
            lines += ["tourney show %d" % tid, "tourney pairings %d" % tid,
                      "tourney crosstable %d" % tid]
        return "".join(text(self.cmd(c, line)) for line in lines)

    def rows(self, srv, tid):
        """The tournaments' rows as another process reads them."""
        return (self.query(srv, "SELECT id, state, current_round, tiebreaks, bye_half, "
                                "web_delay_s FROM tourneys ORDER BY id"),
                self.query(srv, "SELECT name, joined, start_no, withdrawn_round, paused FROM "
                                "tourney_players WHERE tourney_id = ? ORDER BY name", tid),
                self.query(srv, "SELECT user_id, round, kind FROM tourney_byes WHERE "
                                "tourney_id = ? ORDER BY user_id, round", tid),
                self.query(srv, "SELECT round, board, white, black, result FROM tourney_pairings "
                                "WHERE tourney_id = ? ORDER BY round, board", tid))

    def seen(self, srv, c, tid):
        return self.state(c, tid), self.rows(srv, tid)

    def first_stored(self, srv, c, line, director, tid, before, what):
        """c sends line with 0, 1, 2, ... writes let through before the disk
        fails: each refusal leaves tourney tid as it was (before, as director
        sees it), and a later try is stored (what names it) after a write went
        through.  Returns that reply."""
        for allowed in range(0, 100):
            self.fail_writes("EIO %d" % allowed)
            out = self.cmd(c, line)
            if not REFUSED.search(out):
                self.assertGreater(allowed, 1, "no refusal came after a write went through")
                return out
            self.assertEqual(self.seen(srv, director, tid), before, allowed)
        self.fail(what + " was never stored")

    def refused(self, srv, c, line, what, quiet, tid, before):
        """Runs line on c, each in a subtest of its own: refused with the one
        line naming what, nobody in quiet hears an announcement (what they
        heard before is read first), and the tournaments are as before."""
        with self.subTest(command=line):
            for q in quiet:
                self.cmd(q, "date")
            out = self.cmd(c, line)
            m = REFUSED.search(out)
            self.assertTrue(m, out)
            self.assertEqual(m.group(1).decode(), what)
            self.assertEqual(out.strip(), m.group(0).strip(), "more than the one line")
            for q in quiet:
                out = self.cmd(q, "date")
                self.assertIsNone(ANNOUNCED.search(out), out)
            self.assertEqual(self.seen(srv, quiet[0], tid), before)

    def restart(self, srv):
        """SIGKILL, then a start with the disk back (still under the fault
        library); the director logs in again."""
        srv.kill()
        self.allow_writes()
        self.start_faulty(srv)
        return self.login(srv, "director")

    def test_refused_create_join_set_and_leave(self):
        srv = self.server(["director", "ann", "ben", "cyd", "watcher"])
        director = self.login(srv, "director")
        watcher = self.watcher(srv)
        ann, ben, cyd = (self.login(srv, n) for n in ("ann", "ben", "cyd"))
        quiet = (director, watcher, ann, ben, cyd)

        nothing = self.seen(srv, director, None)
        self.fail_writes("EIO")
        self.refused(srv, director, "tourney create Club rr 0 5 0 unrated",
                     'the new tourney "Club"', quiet, None, nothing)
        self.assertEqual(self.query(srv, "SELECT count(*) FROM tourneys")[0][0], 0)
        self.assertTrue(srv.running())

        self.allow_writes()
        tid = self.create(director, "Club rr 0 5 0 unrated")
        for c in (ann, ben):
            self.assertIn(b"You join tourney", self.cmd(c, "tourney join %d" % tid))
        before = self.seen(srv, director, tid)
        self.assertIn("  ann\n", before[0])

        self.fail_writes("EIO")
        for c, line, what in (
                (cyd, "join %d", "your entry to tourney %d"),
                (director, "set %d delay 30", "the delay of tourney %d"),
                (director, "set %d byevalue 0.5", "the byevalue of tourney %d"),
                (director, "set %d tiebreaks SB,WIN", "the tiebreaks of tourney %d"),
                (ann, "leave %d", "ann leaving tourney %d")):
            self.refused(srv, c, "tourney " + line % tid, what % tid, quiet, tid, before)

        # However many writes go through, an entry is stored whole or not at all.
        out = self.first_stored(srv, cyd, "tourney join %d" % tid, director, tid, before,
                                "the entry")
        self.assertIn(b"You join tourney %d (Club); 3 players so far." % tid, out)
        self.assertEqual([n for n, *_ in self.rows(srv, tid)[1]], ["ann", "ben", "cyd"])
        self.allow_writes()
        self.assertIn(b"Tourney %d (Club): cyd joins (3 players)." % tid, self.cmd(watcher, "date"))
        self.assertIn(b"cyd left tourney %d." % tid, self.cmd(cyd, "tourney leave %d" % tid))

        director = self.restart(srv)
        self.assertEqual(self.seen(srv, director, tid), before)
        # With the disk back, each command works, and stays done after a restart.
        ann, cyd = self.login(srv, "ann"), self.login(srv, "cyd")
        self.assertIn(b"You join tourney %d" % tid, self.cmd(cyd, "tourney join %d" % tid))
        self.assertIn(b"delay set to 30", self.cmd(director, "tourney set %d delay 30" % tid))
        self.assertIn(b"tiebreaks set to SB,WIN",
                      self.cmd(director, "tourney set %d tiebreaks SB,WIN" % tid))
        self.assertIn(b"ann left tourney %d." % tid, self.cmd(ann, "tourney leave %d" % tid))
        self.assertIn(b"Created tourney", self.cmd(director, "tourney create Club2 swiss 3 5 0"))
        after = self.seen(srv, director, tid)
        self.assertIn("reach the web 30 seconds late", after[0])
        self.assertNotIn("  ann\n", after[0])
        self.assertIn("  cyd\n", after[0])
        self.assertIn("Club2", after[0])
        self.assertEqual(after[1][0][0][3], "SB,WIN")
        director = self.restart(srv)
        self.assertEqual(self.seen(srv, director, tid), after)

    def swiss(self):
        """A Swiss of four whose players are away (the boards wait, nothing is
        played), but for ann; its director and the watcher are here."""
        names = ["ann", "ben", "cyd", "dan"]
        srv = self.server(["director", "watcher"] + names)
        director = self.login(srv, "director")
        watcher = self.watcher(srv)
        tid = self.create(director, "Night swiss 3 5 0 unrated")
        for n in names:
            c = self.login(srv, n)
            self.assertIn(b"You join tourney", self.cmd(c, "tourney join %d" % tid))
            c.close()
        ann = self.login(srv, "ann")
        self.assertIn(b"bye in round 3", self.cmd(ann, "tourney bye %d 3" % tid))
        return srv, tid, director, watcher, ann

    def test_refused_start_and_bye(self):
        srv, tid, director, watcher, ann = self.swiss()
        quiet = (director, watcher, ann)
        before = self.seen(srv, director, tid)
        self.assertIn("has no round 0 paired", before[0])

        self.fail_writes("EIO")
        self.refused(srv, director, "tourney start %d" % tid, "the start of tourney %d" % tid,
                     quiet, tid, before)
        self.refused(srv, ann, "tourney bye %d 2" % tid,
                     "your bye in round 2 of tourney %d" % tid, quiet, tid, before)
        director = self.restart(srv)
        self.assertEqual(self.seen(srv, director, tid), before)
        watcher, ann = self.login(srv, "watcher"), self.login(srv, "ann")

        # However many writes go through, the start and round 1 stand or fall together.
        out = self.first_stored(srv, director, "tourney start %d" % tid, director, tid, before,
                                "the start")
        self.assertIn(b"Tourney %d starts: 4 players, 3 rounds." % tid, out)
        rows = self.rows(srv, tid)
        self.assertEqual(rows[0][0][1:3], ("running", 1))
        self.assertEqual(len(rows[3]), 2, "round 1's two boards")
        self.allow_writes()
        heard = self.cmd(watcher, "date")
        self.assertIn(b"Tourney %d (Night): starts with 4 players, 3 rounds." % tid, heard)
        self.assertIn(b"Tourney %d (Night): round 1 of 3 paired: " % tid, heard)
        self.assertLess(heard.index(b"starts with"), heard.index(b"round 1 of 3"))
        self.assertIn(b"half-point bye in round 2",
                      self.cmd(ann, "tourney bye %d 2" % tid))
        self.assertEqual(self.rows(srv, tid)[2], [(self.query(
            srv, "SELECT id FROM users WHERE name = 'ann'")[0][0], r, "H") for r in (2, 3)])

    def test_refused_withdraw_result_set_and_pause(self):
        srv, tid, director, watcher, ann = self.swiss()
        quiet = (director, watcher, ann)
        self.assertIn(b"starts:", self.cmd(director, "tourney start %d" % tid))
        before = self.seen(srv, director, tid)
        _, boards, _, _ = self.pairings(director, tid)
        self.assertEqual([b["result"] for b in boards], ["*", "*"])
        board = next(b for b in boards if "ann" in (b["white"], b["black"]))

        self.fail_writes("EIO")
        for c, line, what in (
                (director, "withdraw ann %d", "the withdrawal of ann from tourney %d"),
                (ann, "leave %d", "the withdrawal of ann from tourney %d"),
                (director, "result %%d 1 %d 1-0" % board["board"],
                 "the result of round 1 board %d of tourney %%d" % board["board"]),
                (director, "set %d tiebreaks SB,WIN", "the tiebreaks of tourney %d"),
                (director, "pause %d", "the pause of tourney %d"),
                (director, "pause ben %d", "the pause of ben in tourney %d")):
            self.refused(srv, c, "tourney " + line % tid, what % tid, quiet, tid, before)
        self.assertTrue(srv.running())

        director = self.restart(srv)
        self.assertEqual(self.seen(srv, director, tid), before)
        # With the disk back: ann is withdrawn and her waiting game forfeited.
        watcher = self.login(srv, "watcher")
        out = self.cmd(director, "tourney withdraw ann %d" % tid)
        self.assertIn(b"ann is withdrawn from tourney %d from round 2." % tid, out)
        heard = self.cmd(watcher, "date")
        self.assertIn(b"Tourney %d (Night): ann withdraws; not paired from round 2." % tid, heard)
        self.assertIn(b"(forfeit: withdrawn)", heard)
        self.assertIn(b"tiebreaks set to SB,WIN",
                      self.cmd(director, "tourney set %d tiebreaks SB,WIN" % tid))
        self.assertIn(b"ben is paused", self.cmd(director, "tourney pause ben %d" % tid))
        self.assertIn(b"is paused.", self.cmd(director, "tourney pause %d" % tid))
        after = self.seen(srv, director, tid)
        self.assertIn(" (withdrawn)", after[0])
        self.assertIn(" (paused)", after[0])
        self.assertRegex(after[0], r"Rank  No Name +Rtng +Pts +SB +WIN\n")
        self.assertIn("; paused, round 1 of 3.", after[0])
        _, boards, _, _ = self.pairings(director, tid, 1)
        self.assertIn("+-" if board["black"] == "ann" else "-+",
                      [b["result"] for b in boards if b["board"] == board["board"]])
        director = self.restart(srv)
        self.assertEqual(self.seen(srv, director, tid), after)


if __name__ == "__main__":
    main()
