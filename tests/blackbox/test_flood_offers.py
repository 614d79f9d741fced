"""A challenge flood: a few hundred guests from several loopback addresses
that `match` each other as fast as they may.  While it runs, a fresh login
gets its prompt and completes within a second, and SIGTERM stops the server
within its shutdown bound.

Each test bounds itself to well under a minute, however the server behaves.
The flood runs in a child process (its own interpreter lock), so that the
latencies measured here are the server's, not Python's.  Figures go to
stderr: fresh-login latency, the server's RSS, SIGTERM-to-exit time.
"""
import multiprocessing
import os
import re
import selectors
import signal
import socket
import sys
import time

from chessd_harness import ChessdTestCase, GUEST_RE, main

GUESTS = int(os.environ.get("FLOOD_GUESTS", "300"))
SOURCES = ["127.0.0.%d" % i for i in range(2, 5)]
FLOOD_SECONDS = float(os.environ.get("FLOOD_SECONDS", "12"))
PROBE_EVERY = 0.5
LOGIN_BOUND = 1.0            # what a fresh login may take, prompt to prompt
PROBE_GIVE_UP = 4.0          # a probe slower than this counts as failed
SHUTDOWN_BOUND = 5.0 + 1.5   # the server's drain bound, and room to exit
LINES_PER_SEC = 25           # per guest: above the default command rate


def _flood(port, ready, stop):
    """Child process: logs GUESTS guests in, then has them match each other."""
    sel = selectors.DefaultSelector()
    clients = []
    seen = {"issued": 0, "refused": 0}
    for i in range(GUESTS):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((SOURCES[i % len(SOURCES)], 0))
        s.settimeout(10)
        s.connect(("127.0.0.1", port))
        s.setblocking(False)
        c = {"sock": s, "buf": b"", "state": "login", "name": None, "out": b""}
        clients.append(c)
        sel.register(s, selectors.EVENT_READ, c)

    def pump(timeout):
        """Reads what came; counts the challenges made and refused."""
        for key, _ in sel.select(timeout):
            c = key.data
            try:
                data = c["sock"].recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                data = b""
            if not data:
                sel.unregister(c["sock"])
                c["state"] = "gone"
                continue
            if c["state"] != "online":
                c["buf"] += data
            else:
                seen["issued"] += data.count(b"Issuing: ")
                seen["refused"] += data.count(b"pending offers; withdraw one first.")

    def send(c, data):
        c["out"] += data
        try:
            n = c["sock"].send(c["out"])
            c["out"] = c["out"][n:]
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            c["state"] = "gone"
        if len(c["out"]) > 1 << 20:
            c["out"] = b""      # the server is not reading: keep no more

    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        pump(0.05)
        pending = 0
        for c in clients:
            if c["state"] == "login" and b"login: " in c["buf"]:
                c["buf"] = b""
                send(c, b"guest\n")
                c["state"] = "name"
            elif c["state"] == "name" and b"Press return" in c["buf"]:
                c["name"] = GUEST_RE.search(c["buf"]).group(1)
                c["buf"] = b""
                send(c, b"\n")
                c["state"] = "start"
            elif c["state"] == "start" and b"Starting FICS session" in c["buf"]:
                c["buf"] = b""
                c["state"] = "online"
            pending += c["state"] not in ("online", "gone")
        if not pending:
            break
    online = [c for c in clients if c["state"] == "online"]
    ready.send(len(online))
    names = [c["name"] for c in online]
    step = 0
    last = time.monotonic()
    while not stop.poll(0):
        pump(0.02)
        now = time.monotonic()
        lines = int((now - last) * LINES_PER_SEC)
        if lines < 1:
            continue
        last = now
        for i, c in enumerate(online):
            if c["state"] != "online":
                continue
            out = b"".join(b"match %s 5 0\n" % names[(i + 1 + (step + k) % (len(names) - 1))
                                                         % len(names)]
                           for k in range(lines))
            send(c, out)
        step += lines
    for c in clients:
        c["sock"].close()
    ready.send(seen)


def rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            m = re.search(r"VmRSS:\s+(\d+) kB", f.read())
            return int(m.group(1)) if m else 0
    except OSError:
        return 0


class FloodTest(ChessdTestCase):

    def probe(self, srv):
        """One fresh guest login: seconds to the login prompt and to the shell
        prompt, or None for a part that did not come within PROBE_GIVE_UP."""
        start = time.monotonic()
        try:
            c = srv.connect(source="127.0.0.1", connect_timeout=PROBE_GIVE_UP)
        except OSError:
            return None, None
        try:
            c.expect(b"login: ", PROBE_GIVE_UP)
            prompt = time.monotonic() - start
        except AssertionError:
            c.close()
            return None, None
        try:
            left = lambda: max(0.01, PROBE_GIVE_UP - (time.monotonic() - start))
            c.send_line("guest")
            c.expect(b"Press return", left())
            c.send_line("")
            c.expect(b"Starting FICS session", left())
            c.expect_prompt(left())
            done = time.monotonic() - start
        except AssertionError:
            done = None
        c.close()
        return prompt, done

    def flood(self, config, what):
        """Runs the flood against a server with this config; asserts the bounds."""
        srv = self.start_server(config=config)
        pid = srv.proc.pid
        ctx = multiprocessing.get_context("fork")
        ready_r, ready_w = ctx.Pipe(False)
        stop_r, stop_w = ctx.Pipe(False)
        flood = ctx.Process(target=_flood, args=(srv.port, ready_w, stop_r), daemon=True)
        flood.start()
        self.addCleanup(lambda: flood.is_alive() and flood.kill())
        self.assertTrue(ready_r.poll(20), "the flood's guests did not log in")
        online = ready_r.recv()
        self.assertGreater(online, GUESTS * 0.9, "only %d flood guests logged in" % online)
        base_rss = rss_kb(pid)

        probes, rss = [], []
        end = time.monotonic() + FLOOD_SECONDS
        while time.monotonic() < end:
            t = time.monotonic()
            probes.append(self.probe(srv))
            rss.append(rss_kb(pid))
            time.sleep(max(0.0, PROBE_EVERY - (time.monotonic() - t)))

        start = time.monotonic()
        srv.signal(signal.SIGTERM)
        try:
            srv.proc.wait(SHUTDOWN_BOUND + 3)
            exit_s = time.monotonic() - start
        except Exception:
            exit_s = None
        stop_w.send(True)
        seen = ready_r.recv() if ready_r.poll(5) else {"issued": 0, "refused": 0}
        flood.join(5)

        done = [d for _, d in probes]
        worst_prompt = max((p if p is not None else float("inf")) for p, _ in probes)
        worst = max((d if d is not None else float("inf")) for d in done)
        ok = sorted(d for d in done if d is not None)
        sys.stderr.write(
            "\nflood %s: %d guests from %d addresses, %d probes over %.0f s; "
            "%d challenges made, %d refused at the cap\n"
            "  fresh login: worst prompt %.3f s, worst complete %.3f s, median %.3f s, "
            "%d failed (> %.0f s)\n"
            "  chessd RSS: %d kB before the flood, peak %d kB\n"
            "  SIGTERM to exit: %s\n" % (
                what, online, len(SOURCES), len(probes), FLOOD_SECONDS, seen["issued"],
                seen["refused"], worst_prompt, worst,
                ok[len(ok) // 2] if ok else float("inf"), done.count(None), PROBE_GIVE_UP,
                base_rss, max(rss), "%.2f s" % exit_s if exit_s is not None else
                "none within %.1f s" % (SHUTDOWN_BOUND + 3)))
        # The flood did what it is for: every guest kept making challenges.
        self.assertGreater(seen["issued"], online * 10, seen)
        self.assertLessEqual(worst, LOGIN_BOUND, "a fresh login took too long: %r" % probes)
        self.assertIsNotNone(exit_s, "chessd ignored SIGTERM under the flood")
        self.assertLessEqual(exit_s, SHUTDOWN_BOUND)
        self.assertEqual(srv.proc.returncode, 0, srv.log()[-3000:])

        return seen

    def test_flood_at_the_caps(self):
        # Each guest soon has offers_per_user challenges out; the rest of
        # its matches are refused with one line each.
        seen = self.flood({}, "at the caps")
        self.assertGreater(seen["refused"], 0, seen)

    def test_flood_under_raised_caps(self):
        # Every challenge stays pending (tens of thousands of them): each
        # match, replacement and logout must still cost O(1).
        seen = self.flood({"offers_per_user": 10000, "offers_total": 50000}, "with raised caps")
        self.assertEqual(seen["refused"], 0, seen)
        self.assertGreater(seen["issued"], 20000, seen)


if __name__ == "__main__":
    main()
