"""The terminal client for a person, under tmux as in test_client.py: seeks
and offers in words (never the <s>/<pf> lines meant for programs), a login
prompt when no name is given and another try after a wrong password, and
the final clocks of an observed game that ended."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chessd_harness as harness  # noqa: E402
import test_client  # noqa: E402
from test_client import CHESS, TIMEOUT  # noqa: E402

RAW_LINE = re.compile(r"^\s*<(s|sr|sc|pf|pt|pr)>", re.M)


class TestHuman(test_client.TestScreen):
    def start_human(self, port, *args, **extra_env):
        """The client in a 100x40 pane with a name and password only as args give."""
        envs = ["HOME=" + self.home, "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm-256color",
                "NO_COLOR=1"] + ["%s=%s" % kv for kv in extra_env.items()]
        cmd = " ".join([CHESS, "--ascii", "--plain", "--port", str(port)] + list(args) +
                       ["127.0.0.1"])
        self.tmux("new-session", "-d", "-s", "play", "-x", "100", "-y", "40",
                  "env " + " ".join(envs) + " " + cmd + "; echo exit=$?; sleep 30")

    def wait_count(self, pattern, count, timeout=TIMEOUT):
        """Waits until pattern matches at least count lines of the screen."""
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if len(re.findall(pattern, text, re.M)) >= count:
                return text
            time.sleep(0.1)
        self.fail("screen never showed %r %d times; it shows:\n%s" % (pattern, count, text))

    def exited(self, code):
        """Waits for the client's exit code; under CHESS_SANITIZE nothing was reported."""
        _, text = self.wait_screen(r"^exit=%d$" % code)
        self.assertNotIn("Sanitizer", text)
        return text

    def clock(self, name):
        m, _ = self.wait_screen(r"^[ >] %s +(\d+):(\d\d)" % name)
        return int(m.group(1)) * 60 + int(m.group(2))

    def test_seeks_and_offers_in_words(self):
        srv = self.start_server()
        alice_pw = self.account(srv, "alice", "alicepw")
        srv.useradd("bob", "bobpw")
        srv.useradd("carol", "carolpw")
        bob = self.raw_user(srv, "bob", "bobpw")
        bob.command("seek 5 0")
        self.start_human(srv.port, "--user", "alice", "--password-file", alice_pw)
        self.wait_screen(r"Starting FICS session as alice")
        # A seek posted now is announced in words.
        carol = self.raw_user(srv, "carol", "carolpw")
        carol.command("seek 3 0 unrated")
        self.wait_screen(r'^carol \([^)]*\) seeking 3 0 unrated blitz \("play \d+" to respond\)')
        # A challenge and its withdrawal: in words only.
        bob.command("match alice 5 0")
        self.wait_screen(r"^Challenge: bob \([^)]*\) alice")
        bob.command("withdraw")
        _, text = self.wait_screen(r"^bob withdraws the match offer\.")
        self.assertIsNone(RAW_LINE.search(text), text)
        # The user may turn the machine lines on: they are said in words.
        self.type("iset seekinfo 1")
        self.wait_screen(r"^seekinfo set\.")
        _, text = self.wait_screen(r"^Seek \d+: carol \([^)]*\) 3 0 unrated blitz$")
        self.assertRegex(text, r"(?m)^Seek \d+: bob \([^)]*\) 5 0 rated blitz$", text)
        self.type("iset seekremove 1")
        self.wait_screen(r"^seekremove set\.")
        carol.command("unseek")
        _, text = self.wait_screen(r"^Seek \d+ removed\.$")
        self.assertIsNone(RAW_LINE.search(text), text)
        self.type("quit")
        self.exited(0)

    def test_login_prompt_asks_again_after_a_wrong_password(self):
        srv = self.start_server()
        srv.useradd("alice", "alicepw")
        self.start_human(srv.port)
        self.wait_screen(r"^login: *$")
        self.type("alice")
        self.wait_screen(r"^password: *$")
        self.type("wrong")
        self.wait_screen(r"Invalid password!")
        # The name typed at the prompt may be the mistake: both are asked again.
        self.wait_count(r"^login:", 2)
        self.type("alice")
        self.wait_count(r"^password:", 2)
        self.type("alicepw")
        _, text = self.wait_screen(r"Starting FICS session as alice")
        self.assertNotIn("alicepw", text)          # the password was not echoed
        self.type("quit")
        self.exited(0)

    def test_return_at_login_is_a_guest(self):
        srv = self.start_server()
        self.start_human(srv.port)
        self.wait_screen(r"^login: *$")
        self.type("")
        self.wait_screen(r"Starting FICS session as Guest[A-Z]{4}")

    def test_given_name_asks_password_again_up_to_the_servers_tries(self):
        srv = self.start_server()
        srv.useradd("alice", "alicepw")
        self.start_human(srv.port, "--user", "alice")
        self.wait_screen(r"^password: *$")
        self.type("wrong")
        self.wait_screen(r"Invalid password!")
        text = self.wait_count(r"^password:", 2)
        self.assertNotRegex(text, r"(?m)^login:")  # the name given is not asked
        self.type("alicepw")
        self.wait_screen(r"Starting FICS session as alice")
        self.type("quit")
        self.exited(0)
        self.tmux("kill-session", "-t", "play")
        # Three wrong passwords: the server gives up, and the client exits 3.
        self.start_human(srv.port, "--user", "alice")
        for n in (1, 2, 3):
            self.wait_count(r"^password:", n)
            self.type("wrong%d" % n)
        text = self.exited(3)
        self.assertIn("login failed: invalid password", text)

    def test_password_from_the_environment_is_not_asked_again(self):
        srv = self.start_server()
        srv.useradd("alice", "alicepw")
        self.start_human(srv.port, CHESS_PASSWORD="wrong")
        self.wait_screen(r"^login: *$")
        self.type("alice")
        text = self.exited(3)
        self.assertIn("login failed: invalid password", text)
        self.assertNotRegex(text, r"(?m)^password:")

    def test_observed_game_end_keeps_final_clocks(self):
        srv = self.start_server()
        for name in ("carol", "dave"):
            srv.useradd(name, name + "pw")
        carol = self.raw_user(srv, "carol", "carolpw")
        dave = self.raw_user(srv, "dave", "davepw")
        carol.command("match dave 5 0 white")
        self.accept_match(dave)
        carol.send_line("e4")
        dave.expect(re.compile(rb"<12> [^\n]* P/e2-e4 "))
        self.start_human(srv.port, "--user", "guest")
        self.wait_screen(r"Starting FICS session as Guest")
        self.type("observe 1")
        self.wait_screen(r"1\. e4")
        # dave thinks: his clock runs down on the screen, past the last board sent.
        start = self.clock("dave")
        deadline = time.monotonic() + TIMEOUT
        while self.clock("dave") > start - 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        shown = self.clock("dave")
        self.assertLessEqual(shown, start - 3)
        dave.send_line("resign")
        _, text = self.wait_screen(r"Result: 1-0 \(dave resigns\)")
        final = self.clock("dave")
        # The clock stops where it stood, not back at the last board's value.
        self.assertLessEqual(final, shown, text)
        self.assertGreaterEqual(final, shown - 5, text)
        time.sleep(2.2)
        _, text = self.wait_screen(r"Result: 1-0 \(dave resigns\)")
        self.assertEqual(self.clock("dave"), final, text)  # stopped
        self.assertRegex(text, r"(?m)^  carol +\d+:\d\d", text)
        self.type("quit")
        self.exited(0)


def load_tests(loader, tests, pattern):
    """Only this file's tests, not those inherited from test_client's screen tests."""
    names = [n for n in TestHuman.__dict__ if n.startswith("test_")]
    return loader.loadTestsFromNames(names, TestHuman)


if __name__ == "__main__":
    harness.main()
