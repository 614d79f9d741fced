#!/usr/bin/env python3
"""A bounded, seeded, stateful protocol fuzzer.

Several sessions (accounts, an admin, unregistered names, guests) interleave
real interactions -- logins (also as one-packet scripts), seeks, matches,
accepts, moves, observing, tells, channels, tournaments, registration,
variables, history -- with hostile arguments: huge and negative numbers,
2147483647, overlong words, control bytes, invalid UTF-8, bidi controls.

It fails on any sanitizer report in the server's stderr, on a server that
exits, and on a server that does not log in a fresh guest within
CHESSD_FUZZ_LOGIN_S (2 s; one retry).  Settings from the environment:

  CHESSD_FUZZ_SECONDS   how long to run (60)
  CHESSD_FUZZ_SEED      the seed (random; always printed)
  CHESSD_FUZZ_SESSIONS  how many sessions (6)

The commands sent depend on the seed only (never on the server's answers),
so a seed replays the same command sequence.
"""
import os
import random
import re
import select
import time

from chessd_harness import ChessdTestCase, Client, TIMEOUT, main

SECONDS = float(os.environ.get("CHESSD_FUZZ_SECONDS", "60"))
SEED = int(os.environ.get("CHESSD_FUZZ_SEED") or random.SystemRandom().randrange(1 << 32))
SESSIONS = int(os.environ.get("CHESSD_FUZZ_SESSIONS", "6"))
LOGIN_S = float(os.environ.get("CHESSD_FUZZ_LOGIN_S", "2"))
PROBE_EVERY_S = 2.0
LINE_BYTES = 1024

SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer",
                   "runtime error:", "SUMMARY: ", "ThreadSanitizer")

ACCOUNTS = ["fuzzalpha", "fuzzbravo", "fuzzcharlie", "fuzzdelta"]
ADMIN = "fuzzadmin"
PASSWORD = "fuzzpass1"
UNREGISTERED = ["Fuzzecho", "Fuzzfoxtrot", "Fuzzgolf"]

NUMBERS = [b"0", b"1", b"2", b"3", b"5", b"10", b"99", b"-1", b"-2147483648", b"2147483647",
           b"2147483648", b"4294967295", b"4294967296", b"9223372036854775807",
           b"9223372036854775808", b"-9223372036854775809", b"99999999999999999999999",
           b"1e9", b"0x7fffffff", b"+3", b"--1", b"3.5", b"07", b"", b" "]
HOSTILE = [b"", b"x", b"A" * 200, b"B" * 1000, b"C" * (LINE_BYTES + 10),
           b"\x01\x02\x07\x08\x1b[2J\x1b]0;pwned\x07", b"\x00nul", b"\x7f\x7f",
           b"\xc3\x28", b"\xff\xfe\xfd", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf",
           b"\xe2\x80\xae" b"evil\xe2\x80\xac", b"\xe2\x81\xa6x\xe2\x81\xa9", b"\xc2\x85\xc2\x9b",
           b"\xe2\x80\xa8\xe2\x80\xa9", b"%s%s%n%x", b"'; DROP TABLE users; --", b"\\", b"*",
           b".", b",", b"@", b"#", b"\xe5\x90\x8d\xe5\x89\x8d", b"\t\t", b"\r", b"\xff\xfb\x01",
           b"\xff\xff", b"$$", b"1-0", b"1/2-1/2", b"0-1", b"*"]
MOVES = [b"e4", b"e5", b"d4", b"d5", b"Nf3", b"Nc6", b"Bb5", b"a6", b"Ba4", b"Nf6", b"O-O",
         b"Be7", b"e2e4", b"e7e5", b"g1f3", b"b8c6", b"c4", b"c5", b"Nc3", b"exd5", b"Qxd5",
         b"e7e8=Q", b"a7a8n", b"O-O-O", b"Kxe8", b"h9h1", b"z1", b"Rd1", b"Qh4#", b"P@e4",
         b"e2-e4", b"0-0", b"resign"]
VARS = [b"shout", b"cshout", b"kibitz", b"tell", b"ctell", b"pin", b"gin", b"seek", b"open",
        b"ropen", b"rated", b"bell", b"style", b"width", b"height", b"autoflag", b"private",
        b"time", b"inc", b"interface", b"formula", b"prompt", b"silence", b"echo", b"tzone",
        b"busy", b"kiblevel", b"availmin", b"availmax", b"noescape", b"nosuchvar", b"s"]
IVARS = [b"compressmove", b"defprompt", b"lock", b"startpos", b"block", b"gameinfo", b"pendinfo",
         b"seekinfo", b"seekremove", b"nohighlight", b"showserver", b"ms", b"premove",
         b"smartmove", b"nosuchivar"]
TOURNEY_SUBS = [b"list", b"join", b"leave", b"show", b"pairings", b"crosstable", b"start",
                b"bye", b"result", b"pause", b"resume", b"withdraw", b"set", b"trf", b"pgn",
                b"observe", b"unobserve", b"nosuch"]


class Fuzzer:
    """Chooses the next line for a session; uses its own random source only."""

    def __init__(self, rng, names):
        self.rng = rng
        self.names = names          # every identity a session may have

    def pick(self, seq):
        return self.rng.choice(seq)

    def num(self):
        r = self.rng.random()
        if r < 0.5:
            return str(self.rng.randint(0, 12)).encode()
        return self.pick(NUMBERS)

    def word(self):
        r = self.rng.random()
        if r < 0.4:
            return self.pick(self.names).encode()
        if r < 0.5:
            return self.pick(self.names).upper().encode()[:5]
        return self.pick(HOSTILE)

    def text(self):
        parts = [self.pick(HOSTILE) if self.rng.random() < 0.4 else b"hello"
                 for _ in range(self.rng.randint(1, 4))]
        return b" ".join(parts)

    def target(self):
        r = self.rng.random()
        if r < 0.6:
            return self.pick(self.names).encode()
        if r < 0.8:
            return self.num()
        return self.word()

    def timing(self):
        r = self.rng.random()
        if r < 0.6:
            return b"%d %d" % (self.rng.randint(0, 5), self.rng.randint(0, 5))
        return self.num() + b" " + self.num()

    def seek_terms(self):
        terms = [self.timing()]
        for extra in (b"rated", b"unrated", b"white", b"black", b"r", b"u", b"w", b"b",
                      b"formula", b"manual", b"auto", b"0-9999", b"1500-1400"):
            if self.rng.random() < 0.1:
                terms.append(extra)
        if self.rng.random() < 0.1:
            terms.append(self.word())
        return b" ".join(terms)

    def tourney(self):
        sub = self.pick(TOURNEY_SUBS)
        if sub == b"create" or self.rng.random() < 0.15:
            kind = self.pick([b"rr", b"drr", b"swiss", b"knockout", self.word()])
            return b"tourney create %s %s %s %s %s%s" % (
                self.pick([b"Cup", b"Open", self.word()]), kind, self.num(), self.num(),
                self.num(), self.pick([b"", b" rated", b" unrated", b" x"]))
        args = [self.num()]
        if sub in (b"pause", b"resume", b"withdraw") and self.rng.random() < 0.5:
            args = [self.target(), self.num()]
        if sub in (b"pairings", b"bye"):
            args.append(self.num())
        if sub == b"result":
            args += [self.num(), self.target(), self.pick([b"1-0", b"0-1", b"1/2-1/2", b"*",
                                                         self.word()])]
        if sub == b"set":
            args += [self.pick([b"rounds", b"time", b"inc", b"rated", b"name", self.word()]),
                     self.num()]
        return b"tourney " + sub + b" " + b" ".join(args)

    def command(self):
        r = self.rng.random
        gen = self.pick([
            lambda: b"tell %s %s" % (self.target(), self.text()),
            lambda: b"xtell %s %s" % (self.target(), self.text()),
            lambda: b"tell . %s" % self.text(),
            lambda: b"shout %s" % self.text(),
            lambda: b"say %s" % self.text(),
            lambda: b"kibitz %s" % self.text(),
            lambda: b"whisper %s" % self.text(),
            lambda: b"+channel %s" % self.num(),
            lambda: b"-channel %s" % self.num(),
            lambda: b"=channel",
            lambda: b"inchannel %s" % self.pick([self.num(), self.word()]),
            lambda: b"tell %s %s" % (self.num(), self.text()),
            lambda: b"seek %s" % self.seek_terms(),
            lambda: b"seek %s" % self.seek_terms(),
            lambda: b"sought",
            lambda: b"unseek %s" % self.pick([b"", self.num()]),
            lambda: b"play %s" % self.num(),
            lambda: b"match %s %s" % (self.target(), self.seek_terms()),
            lambda: b"match %s %s" % (self.target(), self.seek_terms()),
            lambda: b"accept %s" % self.pick([b"", self.target(), self.num()]),
            lambda: b"accept %s" % self.pick([b"", self.target()]),
            lambda: b"decline %s" % self.pick([b"", self.target(), self.num()]),
            lambda: b"withdraw %s" % self.pick([b"", self.target(), self.num()]),
            lambda: b"pending",
            lambda: b"rematch",
            lambda: self.pick(MOVES),
            lambda: self.pick(MOVES),
            lambda: self.pick(MOVES),
            lambda: self.pick([b"resign", b"draw", b"abort", b"adjourn", b"flag", b"takeback"]),
            lambda: b"draw %s" % self.pick(MOVES),
            lambda: b"takeback %s" % self.num(),
            lambda: b"moves %s" % self.pick([b"", self.target()]),
            lambda: b"refresh %s" % self.pick([b"", self.target()]),
            lambda: b"pgn %s %s" % (self.target(), self.num()),
            lambda: b"history %s" % self.pick([b"", self.target()]),
            lambda: b"stored %s" % self.pick([b"", self.target()]),
            lambda: b"oldmoves %s %s" % (self.target(), self.num()),
            lambda: b"smoves %s %s" % (self.target(), self.num()),
            lambda: b"resume %s" % self.pick([b"", self.target()]),
            lambda: b"journal %s" % self.pick([b"", self.target()]),
            lambda: b"observe %s" % self.target(),
            lambda: b"unobserve %s" % self.pick([b"", self.target()]),
            lambda: b"follow %s" % self.pick([b"", self.target()]),
            lambda: b"games %s" % self.pick([b"", self.target(), b"/blsur", b"/" + self.word()]),
            lambda: b"allobservers %s" % self.pick([b"", self.target()]),
            lambda: b"finger %s" % self.pick([b"", self.target()]),
            lambda: self.pick([b"who", b"date", b"news", b"uptime", b"showlist", b"gameend",
                               b"=channel", b"pending", b"sought", b"games", b"help"]),
            lambda: b"help %s" % self.pick([b"match", b"seek", b"tourney", self.word()]),
            lambda: b"%s%s %s" % (self.pick([b"+", b"-", b"="]),
                                  self.pick([b"notify", b"gnotify", b"censor", b"noplay", b"ban",
                                             b"muzzle", b"cmuzzle", b"admin", b"computer",
                                             b"td", b"channel", b"n", self.word()]),
                                  self.pick([self.target(), self.word(), self.num()])),
            lambda: self.pick([b"znotify", b"showlist notify", b"sublist censor"]),
            lambda: b"set %s %s" % (self.pick(VARS), self.pick([self.num(), self.word(),
                                                                 b"1", b"0"])),
            lambda: b"iset %s %s" % (self.pick(IVARS), self.pick([b"0", b"1", self.num()])),
            lambda: b"style %s" % self.pick([b"12", b"1", self.num()]),
            lambda: b"variables %s" % self.pick([b"", self.target()]),
            lambda: b"ivariables %s" % self.pick([b"", self.target()]),
            lambda: b"alias %s %s" % (self.pick([b"zz", b"w", b"@", self.word()]),
                                      self.pick([b"who", b"tell $@", b"zz", b"$1 $2 $@",
                                                 self.text()])),
            lambda: b"unalias %s" % self.pick([b"zz", self.word()]),
            lambda: b"zz %s" % self.text(),
            lambda: b"register %s %s" % (self.word(), self.word()),
            # Mostly to the same password, so that the session can log in again.
            lambda: b"passwd %s %s" % (self.pick([PASSWORD.encode(), self.word()]),
                                       PASSWORD.encode() if r() < 0.9 else self.word()),
            lambda: self.tourney(),
            lambda: self.tourney(),
            lambda: b"adjudicate %s %s" % (self.num(), self.pick([b"1-0", b"0-1", b"1/2-1/2",
                                                                  b"abort", self.word()])),
            lambda: b"addnews %s" % self.text(),
            lambda: b"%s %s" % (self.num(), self.pick([b"who", b"finger", self.pick(MOVES)])),
            lambda: bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 80))),
            lambda: b"$" + self.pick([b"who", b"$tell . x", b"finger"]),
            lambda: b"   " + self.pick(MOVES),
        ])
        line = gen().replace(b"\n", b" ")
        if r() < 0.02:
            line = line.replace(b" ", b"\t")
        return line


class Session:
    """One fuzzing identity: how it logs in, its connection, what it sent."""

    def __init__(self, index, srv, kind, name):
        self.index, self.srv, self.kind, self.name = index, srv, kind, name
        self.client = None
        self.logins = 0

    def script(self):
        """The login as one packet (name, password or confirmation)."""
        if self.kind == "guest":
            return b"guest\n\n"
        if self.kind == "unregistered":
            return self.name.encode() + b"\n\n"
        return self.name.encode() + b"\n" + PASSWORD.encode() + b"\n"

    def connect(self, first=b""):
        """Connects (every third session over TLS) and sends the login script,
        after the line first if one is given (read as a login name)."""
        self.close()
        tls = self.index % 3 == 2
        self.client = Client(self.srv.tls_port if tls else self.srv.port, tls=tls,
                             cafile=self.srv.cert_path if tls else None,
                             source="127.0.%d.%d" % (1 + self.index // 200, 1 + self.index % 200))
        self.logins += 1
        self.client.send_raw((first + b"\n" if first else b"") + self.script())

    def alive(self):
        return self.client is not None and not self.client.closed

    def send(self, line):
        try:
            self.client.sock.settimeout(2)
            self.client.sock.sendall(line + b"\n")
        except OSError:
            self.client.closed = True

    def drain(self):
        """Reads what is there; keeps only a little for diagnostics."""
        if not self.alive():
            return
        while self.client._recv(0) not in (None, b""):
            pass
        self.client.buf = self.client.buf[-4096:]
        self.client.seen = self.client.seen[-4096:]

    def close(self):
        if self.client is not None:
            self.client.close()


class ProtocolFuzz(ChessdTestCase):
    def fresh_login(self, srv):
        """A new guest gets a prompt within LOGIN_S; True if so."""
        try:
            c = Client(srv.port, connect_timeout=LOGIN_S)
        except OSError:
            return False
        try:
            c.login_guest(timeout=LOGIN_S)
            return True
        except AssertionError:
            return False
        finally:
            c.close()

    def sanitizer_report(self, srv):
        text = srv.log()
        for mark in SANITIZER_MARKS:
            at = text.find(mark)
            if at >= 0:
                return text[max(0, at - 2000):at + 6000]
        return None

    @staticmethod
    def story(rng, a, b):
        """A few lines between sessions a and b that make something happen:
        a game, a tournament, a seek taken.  Drawn every turn (used or not),
        so that what is drawn never depends on the server."""
        kind = rng.randrange(4)
        minutes, inc = rng.choice([1, 2, 5, 2147483647, 0]), rng.choice([0, 1, 12, -1])
        tid = rng.randint(1, 3)
        colour = rng.choice([b"", b" white", b" black"])
        if kind == 0:
            return [(a, b"match %s %d %d unrated%s" % (b.name.encode(), minutes, inc, colour)),
                    (b, b"accept %s" % a.name.encode())]
        if kind == 1:
            return [(a, b"seek %d %d unrated%s" % (minutes, inc, colour)), (b, b"sought"),
                    (b, b"play %d" % rng.randint(1, 4))]
        if kind == 2:
            return [(a, b"tourney create Cup%d rr 0 %d %d unrated" % (tid, minutes, inc)),
                    (a, b"tourney join %d" % tid), (b, b"tourney join %d" % tid),
                    (a, b"tourney start %d" % tid)]
        return [(a, b"observe %s" % b.name.encode()), (b, b"match %s 3 0" % a.name.encode()),
                (a, b"accept"), (b, b"e4"), (a, b"e5"), (b, b"Nf3"), (a, b"Nc6")]

    def test_pgn_of_the_last_int(self):
        # Found by the fuzzer: the index + 1 of "pgn NAME 2147483647" overflowed.
        srv = self.start_server()
        c = self.guest(srv)
        for index in (b"2147483647", b"-1", b"-2147483648"):
            self.assertEqual(c.command(b"pgn nobody " + index), b"nobody has no such game.\n\rfics% ")
        self.assertIn(b"players displayed", self.guest(srv).command("who"))

    def test_fuzz(self):
        print("protocol fuzz: seed %d, %.0f s, %d sessions (CHESSD_FUZZ_SEED=%d replays it)"
              % (SEED, SECONDS, SESSIONS, SEED), flush=True)
        rng = random.Random(SEED)
        srv = self.start_server(config={
            "commands_per_sec": 100000, "command_burst": 100000,
            "login_free_failures": 1000, "login_tries_per_conn": 1000,
            "clients_per_address": 1000, "reconnect_grace_ms": 1500,
            "tourney_forfeit_ms": 3000, "unauth_idle_ms": 5000, "login_ms": 10000})
        for name in ACCOUNTS:
            srv.useradd(name, PASSWORD)
        srv.useradd(ADMIN, PASSWORD, admin=True)
        kinds = ([("admin", ADMIN)] + [("account", n) for n in ACCOUNTS] +
                 [("unregistered", n) for n in UNREGISTERED] + [("guest", "guest")] * 4)
        kinds = kinds[:max(SESSIONS, 1)]
        sessions = [Session(i, srv, k, n) for i, (k, n) in enumerate(kinds)]
        fuzz = Fuzzer(rng, ACCOUNTS + [ADMIN] + UNREGISTERED + ["Guest", "nobody"])
        recent = []
        sent = 0
        problem = None
        start = time.monotonic()
        next_probe = start + PROBE_EVERY_S
        probes = 0
        try:
            for s in sessions:
                s.connect()
            while time.monotonic() - start < SECONDS:
                # The same draws every turn, whatever the server did: the
                # lines depend on the seed alone.
                s = sessions[rng.randrange(len(sessions))]
                roll, line, with_login = rng.random(), fuzz.command(), rng.random() < 0.5
                first = fuzz.word() if rng.random() < 0.2 else b""
                other = sessions[rng.randrange(len(sessions))]
                story = self.story(rng, s, other)
                if roll < 0.003 or not s.alive():
                    # Drop (or lose) the connection and come back; half the
                    # time the login script carries a command behind it.
                    try:
                        s.connect(first.replace(b"\n", b" "))
                    except OSError as e:
                        problem = "cannot connect: %s" % e
                        break
                    if with_login:
                        s.send(line)
                    recent.append((s.index, b"<reconnect> " + first + b"|" + s.script() +
                                   (line if with_login else b"")))
                elif roll < 0.005:
                    s.send(b"quit")
                    recent.append((s.index, b"quit"))
                elif roll < 0.05 and other is not s and other.alive():
                    # A real interaction between two sessions, hostile or not.
                    for who, text in story:
                        who.send(text)
                        recent.append((who.index, text))
                    sent += len(story) - 1
                else:
                    s.send(line)
                    recent.append((s.index, line))
                sent += 1
                del recent[:-300]
                ready = select.select([x.client.sock for x in sessions if x.alive()], [], [],
                                      0.002)[0]
                for x in sessions:
                    if x.alive() and x.client.sock in ready:
                        x.drain()
                now = time.monotonic()
                if now >= next_probe:
                    next_probe = now + PROBE_EVERY_S
                    probes += 1
                    if not srv.running():
                        problem = "chessd exited (code %r)" % srv.proc.poll()
                    elif self.sanitizer_report(srv):
                        problem = "sanitizer report"
                    elif not self.fresh_login(srv) and not self.fresh_login(srv):
                        problem = "no fresh guest login within %.1f s (twice)" % LOGIN_S
                    if problem:
                        break
            if not problem and not srv.running():
                problem = "chessd exited (code %r)" % srv.proc.poll()
            if not problem and not self.fresh_login(srv) and not self.fresh_login(srv):
                problem = "no fresh guest login within %.1f s (twice)" % LOGIN_S
        finally:
            for s in sessions:
                s.close()
        if not problem:
            # A clean exit: leaks and reports at shutdown count too.
            srv.proc.send_signal(15)
            try:
                rc = srv.proc.wait(max(TIMEOUT, 20))
            except Exception:
                rc = None
            if rc != 0:
                problem = "chessd exited with %r after SIGTERM" % rc
        report = self.sanitizer_report(srv)
        if report:
            # The first thing noticed may be only its consequence.
            problem = "sanitizer report" + (" (then: %s)" % problem if problem and
                                            problem != "sanitizer report" else "")
        log = srv.log()
        reached = ", ".join("%d %s" % (len(re.findall(rx, log)), what) for what, rx in (
            ("logins", r" logged in from "), ("games started", r"\) started: "),
            ("games ended", r"game \d+ \(#\d+\) (?!started|resumed)"),
            ("tourneys created", r"tourney \d+ created"),
            ("tourneys started", r"tourney \d+ started")))
        print("protocol fuzz: seed %d: %d commands in %.0f s, %d liveness probes (%s): %s"
              % (SEED, sent, time.monotonic() - start, probes, reached,
                 problem or "no problem found"), flush=True)
        if problem:
            lines = "\n".join("  [%d] %r" % (i, l) for i, l in recent[-120:])
            self.fail("%s (seed %d, after %d commands)\nlast commands (session, line):\n%s\n"
                      "server report:\n%s" % (problem, SEED, sent, lines,
                                              report or srv.log()[-6000:]))


if __name__ == "__main__":
    main()
