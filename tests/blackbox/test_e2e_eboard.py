"""End to end with eboard: the Debian eboard under Xvfb connects to a real
chessd, logs in as a guest, and opens its "Games on Server" and "Ads on
Server" windows; a screenshot of the logged-in window goes to
tests/e2e/eboard-login.png.

eboard has no command-line option that connects (only -log, -debug,
-dgtport), but it reads ICS bookmarks from ~/.eboard/eboard.conf
("Host,HOST,PORT,PROTOCOL").  The test points HOME at a temporary directory,
writes one bookmark to a recording TCP proxy in front of chessd, and picks it
with the keyboard through the menu mnemonics (Alt+P, B, Return:
Peer > ICS Bookmarks > first entry).  Keys go through XTEST to the window that
has the X input focus (xdotool windowfocus, then key/type without --window:
GTK ignores keys sent to a window with XSendEvent).  Every step is confirmed
from the proxy's capture (a new connection, the line eboard sent) and
retried only when eboard sent nothing, so a slow start or a lost key cannot
send anything twice.

Checked from the server's side: its log has the guest's "logged in from",
a second client finds the name in "who", and every line eboard sent after
login (its "set interface"/"iset" block, "games", "sough") got the expected
answer and nothing in the session looks like an error ("Command not found",
"Usage:", ...).  Missing programs fail the test with the package to install.
Set E2E_TRANSCRIPTS=DIR to keep the proxy capture and eboard's own log.
"""
import os
import re
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import chessd_harness as H  # noqa: E402
import e2e_x11 as X  # noqa: E402

T = max(float(os.environ.get("CHESSD_TEST_TIMEOUT", "0") or 0), 60.0)
STEP = 10.0     # wait for one GUI action to show on the wire before retrying it
PROMPT = b"fics% "
ERROR_RE = re.compile(rb"Command not found|Ambiguous command|No such (?:i?variable|command)|"
                      rb"Bad value given|Ambiguous variable|Usage: |[Uu]nknown (?:command|variable)|"
                      rb"not (?:a )?valid|Invalid ")

# What eboard sends by itself (proto_fics.cc sendInitialization, queryGameList,
# queryAdList) and what a FICS server answers to each.
EXPECTED = [
    (re.compile(r"set interface eboard .+"), rb"interface set to eboard"),
    (re.compile(r"iset startpos 1"), rb"startpos set\."),
    (re.compile(r"iset defprompt 1"), rb"defprompt set\."),
    (re.compile(r"iset ms 1"), rb"ms set\."),
    (re.compile(r"iset premove [01]"), rb"premove (?:un)?set\."),
    (re.compile(r"iset seekinfo 1"), rb"seekinfo set\."),
    (re.compile(r"iset seekremove 1"), rb"seekremove set\."),
    (re.compile(r"iset lock 1"), rb"lock set\."),
    (re.compile(r"style 12"), rb"Style 12 set\."),
    (re.compile(r"games"), rb"\d+ games? displayed"),
    (re.compile(r"sough"), rb"\d+ ads? displayed"),
]


class Proxy:
    """A TCP relay on a free loopback port to chessd that keeps both directions."""

    def __init__(self, port):
        self.target = port
        self.c2s = bytearray()      # eboard -> chessd
        self.s2c = bytearray()      # chessd -> eboard
        self.connections = 0
        self.cond = threading.Condition()
        self.socks = []
        self.closed = False
        self.lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen(4)
        self.port = self.lsock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                down, _ = self.lsock.accept()
                up = socket.create_connection(("127.0.0.1", self.target), timeout=10)
                up.settimeout(None)
            except OSError:
                return
            with self.cond:
                self.socks += [down, up]
                self.connections += 1
                self.cond.notify_all()
            threading.Thread(target=self._pump, args=(down, up, self.c2s), daemon=True).start()
            threading.Thread(target=self._pump, args=(up, down, self.s2c), daemon=True).start()

    def _pump(self, src, dst, buf):
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            with self.cond:
                buf += data
                self.cond.notify_all()
            try:
                dst.sendall(data)
            except OSError:
                return

    def wait(self, cond, timeout):
        """Waits until cond() (called under the lock) is true; returns its value or None."""
        with self.cond:
            return self.cond.wait_for(cond, timeout) or None

    def wait_re(self, buf, pattern, timeout, start=0):
        rx = re.compile(pattern)
        return self.wait(lambda: rx.search(bytes(buf), start), timeout)

    def close(self):
        self.closed = True
        for s in [self.lsock] + self.socks:
            try:
                s.close()
            except OSError:
                pass


class EboardTest(H.ChessdTestCase):
    def xdo(self, *args, check=True):
        return subprocess.run([self.xdotool] + list(args), env=self.display.env(),
                              capture_output=True, text=True, timeout=30, check=check)

    def wait_window(self, name, timeout=T):
        """The id of a visible window whose name matches the regex name."""
        deadline = time.monotonic() + timeout
        while True:
            ids = self.xdo("search", "--onlyvisible", "--name", name, check=False).stdout.split()
            if ids:
                return ids[0]
            if self.proc.poll() is not None:
                self.fail("eboard exited with %r before a window %r appeared%s" % (
                    self.proc.returncode, name, self.diagnostics()))
            if time.monotonic() > deadline:
                self.fail("no window named %r appeared%s" % (name, self.diagnostics()))
            time.sleep(0.2)

    def keys(self, *keys):
        """Focuses eboard's main window, then presses keys through XTEST."""
        self.xdo("windowfocus", "--sync", self.main, check=False)
        self.xdo("key", "--delay", "150", *keys)

    def type_line(self, text):
        self.xdo("windowfocus", "--sync", self.main, check=False)
        if text:
            self.xdo("type", "--delay", "30", text)
        self.xdo("key", "Return")

    def diagnostics(self):
        out = "\n---- chessd -> eboard (tail) ----\n%s\n---- eboard -> chessd ----\n%s" % (
            bytes(self.proxy.s2c[-3000:]).decode("latin-1"),
            bytes(self.proxy.c2s[-3000:]).decode("latin-1"))
        try:
            with open(self.eboard_err, encoding="latin-1") as f:
                out += "\n---- eboard stderr ----\n" + f.read()[-3000:]
        except OSError:
            pass
        return out

    def step(self, what, action, done, tries=3):
        """Runs action until done(timeout) is true; action is retried only while
        done says eboard has not acted at all."""
        for _ in range(tries):
            action()
            if done(STEP):
                return
            self.xdo("key", "Escape", "Escape", "Escape", check=False)
            if done(0.5):
                return
        self.fail("eboard did not %s%s" % (what, self.diagnostics()))

    def sent_any(self, mark):
        """done() for step: eboard sent a whole line after mark."""
        return lambda t: self.proxy.wait(lambda: b"\n" in self.proxy.c2s[mark:], t)

    def sent_since(self, mark, line, timeout):
        return self.proxy.wait_re(self.proxy.c2s, rb"(?:^|\n)%s\r?\n" % re.escape(line.encode()),
                                  timeout, start=max(mark - 1, 0))

    def test_guest_login(self):
        eboard, self.xdotool = X.need(self, "eboard", "xdotool")
        X.need(self, "import", "convert")
        srv = self.start_server(tls=False)      # eboard speaks plain telnet (or timeseal)
        self.proxy = proxy = Proxy(srv.port)
        self.addCleanup(proxy.close)
        self.display = X.Display(self)
        self.addCleanup(self.display.stop)

        # A private HOME: the bookmark, and ~/.eboard existing already keeps
        # eboard's first-run "Getting Started" window away.
        home = os.path.join(srv.workdir, "home")
        os.makedirs(os.path.join(home, ".eboard", "scripts"))
        with open(os.path.join(home, ".eboard", "eboard.conf"), "w") as f:
            f.write("Host,127.0.0.1,%d,FICS without timeseal\n" % proxy.port)
            f.write("FicsAutoLogin::0\nEnableSounds::0\nPopupSecondaryGames::0\n")
        env = dict(self.display.env(), HOME=home, LC_ALL="C.UTF-8", LANG="C.UTF-8")
        for k in ("LANGUAGE", "LC_MESSAGES"):
            env.pop(k, None)
        self.eboard_err = os.path.join(srv.workdir, "eboard.stderr")
        with open(self.eboard_err, "wb") as err:
            self.proc = proc = subprocess.Popen([eboard, "-log"], stdin=subprocess.DEVNULL,
                                                stdout=err, stderr=err, cwd=home, env=env)

        def stop():
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.addCleanup(stop)
        self.addCleanup(self.keep_transcripts, home)

        self.main = self.wait_window("^eboard$")

        # Peer > ICS Bookmarks > "1. Connect to 127.0.0.1:PORT (FICS without timeseal)".
        self.step("connect from its ICS Bookmarks menu",
                  lambda: self.keys("alt+p", "b", "Return"),
                  lambda t: proxy.wait(lambda: proxy.connections > 0, t))
        self.assertEqual(proxy.connections, 1)
        self.assertTrue(proxy.wait_re(proxy.s2c, rb"login: ", T), "no login prompt" + self.diagnostics())

        # Log in as a guest in eboard's command line.
        mark = len(proxy.c2s)
        self.step("send the login name", lambda: self.type_line("guest"), self.sent_any(mark))
        self.assertTrue(self.sent_since(mark, "guest", T), "eboard sent %r" % proxy.c2s[mark:])
        m = proxy.wait_re(proxy.s2c, rb'Press return to enter the server as "(Guest[A-Z]{4})":', T)
        self.assertTrue(m, "no guest name offered" + self.diagnostics())
        name = m.group(1).decode()
        mark = len(proxy.c2s)
        self.step("confirm the guest name", lambda: self.type_line(""), self.sent_any(mark))
        start = proxy.wait_re(proxy.s2c, rb"\*\*\*\* Starting FICS session as %s\(U\) \*\*\*\*" %
                              name.encode(), T)
        self.assertTrue(start, "the session did not start" + self.diagnostics())
        # eboard's own lines start after the empty line that confirmed the name.
        session_at, login_c2s = start.end(), proxy.c2s.index(b"\n", mark) + 1

        # eboard answers the session start with its ivars and style 12.
        self.assertTrue(proxy.wait_re(proxy.s2c, rb"Style 12 set\.", T, session_at),
                        "eboard's login settings were not all answered" + self.diagnostics())
        srv.wait_log("%s(U) logged in from 127.0.0.1" % name, timeout=T)

        # The screenshot: the console with the login and the answers.
        time.sleep(1.0)     # let eboard draw what it just read
        shot = self.display.screenshot(self, os.path.join(X.SHOTS, "eboard-login.png"), width=640)
        self.assertLess(os.path.getsize(shot), 120 * 1024)

        # Windows > Games on Server... ("games") and Windows > Ads on Server... ("sough").
        mark = len(proxy.c2s)
        self.step("ask for the game list", lambda: self.keys("alt+w", "Return"), self.sent_any(mark))
        self.assertTrue(self.sent_since(mark, "games", T), "eboard sent %r" % proxy.c2s[mark:])
        self.wait_window("^Game List")
        mark = len(proxy.c2s)
        self.step("ask for the ad list", lambda: self.keys("alt+w", "Down", "Return"),
                  self.sent_any(mark))
        self.assertTrue(self.sent_since(mark, "sough", T), "eboard sent %r" % proxy.c2s[mark:])
        self.wait_window("^Ad List")
        self.assertTrue(proxy.wait_re(proxy.s2c, rb"\d+ ads? displayed", T, session_at),
                        "no answer to sough" + self.diagnostics())

        # The server knows the session: "who" from another client.
        watcher = self.guest(srv)
        watcher.send_line("who")
        out = watcher.expect(re.compile(rb"players displayed"), T)
        self.assertIn(name.encode(), out)

        # Every line eboard sent after login got its answer, and no error.
        self.check_answers(login_c2s, session_at)

    def exchanges(self, c2s_from, s2c_from):
        """eboard's lines after login, each with the server output up to the
        prompt that ends its answer (FICS answers commands in order)."""
        lines = bytes(self.proxy.c2s[c2s_from:]).replace(b"\r", b"").split(b"\n")[:-1]
        chunks = bytes(self.proxy.s2c[s2c_from:]).split(PROMPT)
        # chunks[0] is the welcome text before the first prompt.
        return [(l.decode("latin-1"), chunks[i + 1] if i + 1 < len(chunks) else b"")
                for i, l in enumerate(lines)]

    def check_answers(self, c2s_from, s2c_from):
        pairs = self.exchanges(c2s_from, s2c_from)
        self.pairs = pairs
        listing = "\n".join("  %-45r -> %r" % (l, a.strip()[:160]) for l, a in pairs)
        after = bytes(self.proxy.s2c[s2c_from:])
        bad = [(l, a) for l, a in pairs if ERROR_RE.search(a)]
        self.assertFalse(bad or ERROR_RE.search(after),
                         "the server answered eboard with an error:\n%s" % listing)
        sent = [l for l, _ in pairs if l.strip()]
        pos = 0
        for rx, answer in EXPECTED:
            hits = [l for l in sent if rx.fullmatch(l)]
            self.assertTrue(hits, "eboard never sent %s; it sent:\n%s" % (rx.pattern, listing))
            m = re.compile(answer).search(after, pos)
            self.assertTrue(m, "no %r after eboard's %r:\n%s" % (answer, hits[0], listing))
            pos = m.end()

    def keep_transcripts(self, home):
        keep = os.environ.get("E2E_TRANSCRIPTS")
        if not keep:
            return
        os.makedirs(keep, exist_ok=True)
        with open(os.path.join(keep, "eboard-proxy.txt"), "w", encoding="latin-1") as f:
            f.write("==== eboard -> chessd ====\n%s\n==== chessd -> eboard ====\n%s\n" % (
                bytes(self.proxy.c2s).decode("latin-1"), bytes(self.proxy.s2c).decode("latin-1")))
            for l, a in getattr(self, "pairs", []):
                f.write("%r -> %r\n" % (l, a))
        try:
            with open(os.path.join(home, "LOG.eboard"), encoding="latin-1") as src, \
                    open(os.path.join(keep, "eboard-LOG.txt"), "w", encoding="latin-1") as dst:
                dst.write(src.read())
        except OSError:
            pass


if __name__ == "__main__":
    H.main()
