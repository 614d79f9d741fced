"""The terminal client as a guest: a lost connection during a game is
re-established under the same guest name with the server's reconnect key,
and the game goes on (before, a guest came back as a new guest and the
game was lost).  Needs tmux, as test_client.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chessd_harness as harness  # noqa: E402
import test_client  # noqa: E402
from test_client import CHESS, CuttableProxy  # noqa: E402


class TestGuestReconnect(test_client.TestScreen):
    def start_guest_screen(self, port):
        env = self.env()
        cmd = " ".join([CHESS, "--ascii", "--port", str(port), "--plain", "--user", "guest",
                        "127.0.0.1"])
        envs = ["HOME=" + env["HOME"], "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm-256color",
                "NO_COLOR=1"]
        self.tmux("new-session", "-d", "-s", "play", "-x", "100", "-y", "40",
                  "env " + " ".join(envs) + " " + cmd + "; sleep 30")

    def test_guest_lost_connection_continues(self):
        srv = self.start_server()
        srv.useradd("bob", "bobpw")
        proxy = CuttableProxy(srv.port)
        self.addCleanup(proxy.close)
        bob = self.raw_user(srv, "bob", "bobpw")
        self.start_guest_screen(proxy.port)
        m, _ = self.wait_screen(r"Starting FICS session as (Guest[A-Z]{4})")
        guest = m.group(1)
        self.type("match bob 5 0 white")
        self.accept_match(bob)
        self.type("e4")
        self.answer(bob, "P/e2-e4", "e5")
        self.wait_screen(r"1\. e4 +e5")
        proxy.cut()
        bob.expect(b"Your opponent, %s, has lost contact or quit." % guest.encode())
        bob.expect(b"%s has returned; the game continues." % guest.encode())
        _, text = self.wait_screen(r"Your game with bob continues\.")
        self.assertIn("Reconnected as %s." % guest, text)
        self.assertEqual(proxy.accepted, 2)
        self.type("Nf3")
        self.answer(bob, "N/g1-f3", None)
        self.wait_screen(r"2\. Nf3")


def load_tests(loader, tests, pattern):
    """Only this file's test, not those inherited from test_client's screen tests."""
    return loader.loadTestsFromNames(["test_guest_lost_connection_continues"], TestGuestReconnect)


if __name__ == "__main__":
    harness.main()
