"""The web pages in a real browser: Debian's chromium, headless, driven over
the DevTools protocol on a pipe (Python standard library only).  A game
played over telnet shows on its page move by move, with ticking clocks; the
lobby lists it; the tournament page shows the standings and pairings."""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from games_harness import GT, main
from web_harness import WebTestCase

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# E2E_SHOTS=tests/e2e refreshes the screenshot the README shows.
SHOTS = os.environ.get("E2E_SHOTS", os.getcwd())


class Browser:
    """One headless chromium with one page, spoken to over --remote-debugging-pipe."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="chessd-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def fds():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)
        if not CHROMIUM:
            raise RuntimeError("chromium is not installed: the browser tests need it")
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False)   # Python's own descriptors close on exec
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.next_id = 0
        self.buf = b""
        self.session = None

    def call(self, method, params=None, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self.buf:
                chunk = os.read(self.from_browser, 65536)
                if not chunk:
                    raise AssertionError("chromium went away")
                self.buf += chunk
            raw, self.buf = self.buf.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise AssertionError("%s: %r" % (method, reply["error"]))
                return reply.get("result", {})

    def open(self, url):
        target = self.call("Target.createTarget", {"url": url}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]

    def js(self, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return r.get("result", {}).get("value")

    def wait_js(self, expression, want, timeout=GT):
        """Polls expression until it returns want (or a predicate on it holds)."""
        deadline = time.monotonic() + timeout
        got = None
        while time.monotonic() < deadline:
            got = self.js(expression)
            if (want(got) if callable(want) else got == want):
                return got
            time.sleep(0.1)
        raise AssertionError("%s: %r, not %r" % (expression, got, want))

    def screenshot(self, path, width=480, height=720):
        """A PNG of the page at a phone's width."""
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                         "deviceScaleFactor": 1, "mobile": True})
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except (AssertionError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)


class BrowserTest(WebTestCase):

    def browser(self):
        b = Browser()
        self.addCleanup(b.close)
        return b

    def test_game_page_follows_a_game_played_over_telnet(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv, "2 0")
        page = self.browser()
        page.open("http://127.0.0.1:%d/game/%d" % (srv.http_port, number))
        page.wait_js("document.getElementById('white').textContent", lambda t: t and a.name in t)
        self.assertIn(b.name, page.js("document.getElementById('black').textContent"))
        # the server's SVG board: 64 squares, each with its piece slot
        page.wait_js("document.querySelectorAll('#board svg rect.chessd-sq').length", 64)
        self.assertEqual(page.js("document.querySelectorAll('#board svg use[data-square]').length"),
                         64)
        moves = ["e4", "e5", "Nf3", "Nc6"]
        shown = ["1. e4", "1. e4 e5", "1. e4 e5 2. Nf3", "1. e4 e5 2. Nf3 Nc6"]
        for i, mv in enumerate(moves):
            self.move([a, b][i % 2], [b, a][i % 2], mv)
            page.wait_js("document.getElementById('moves').textContent", shown[i])
        # the last move is marked, and the knight stands on f3
        self.assertEqual(page.js("[...document.querySelectorAll('#board rect.chessd-last')]"
                                 ".map(e => e.dataset.square).sort().join(' ')"), "b8 c6")
        self.assertEqual(page.js("document.querySelector('#board use[data-square=f3]')"
                                 ".getAttribute('href')"), "#chessd-wN")
        self.assertEqual(page.js("document.querySelector('#board use[data-square=g1]')"
                                 ".getAttribute('href')"), "#chessd-none")
        shot = page.screenshot(os.path.join(SHOTS, "web-game.png"))
        with open(shot, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertLess(os.path.getsize(shot), 200 * 1024)
        # white's clock ticks on the page while white thinks
        first = page.js("document.getElementById('wclock').textContent")
        page.wait_js("document.getElementById('wclock').textContent", lambda t: t != first,
                     timeout=5)
        self.assertIn("running", page.js("document.getElementById('wclock').className"))
        b.send_line("resign")
        page.wait_js("document.getElementById('result').textContent", "resign, white wins")

    def test_spanish_piece_letters(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        self.play_moves(a, b, ["Nf3", "Nf6"])
        page = self.browser()
        page.open("http://127.0.0.1:%d/game/%d?lang=es" % (srv.http_port, number))
        page.wait_js("document.getElementById('moves').textContent", "1. Cf3 Cf6")

    def test_lobby_lists_live_games(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        page = self.browser()
        page.open("http://127.0.0.1:%d/" % srv.http_port)
        href = page.wait_js("[...document.querySelectorAll('a.game')].map(e => e.pathname)"
                            ".join(' ')", "/game/%d" % number)
        self.assertTrue(href)
        self.assertIn(a.name, page.js("document.querySelector('a.game').textContent"))


if __name__ == "__main__":
    main()
