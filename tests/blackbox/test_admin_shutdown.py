#!/usr/bin/env python3
"""shutdown and whenshut: an admin's countdown is announced to everyone
online in FICS's words, at the start and as it crosses FICS's marks (the
last one at 10 seconds), can be cancelled, and ends in the graceful
shutdown SIGTERM gives (games adjourned, everyone told, exit 0)."""
import re
import time

from chessd_harness import ChessdTestCase, main

PW = "secret1"
GOING_RE = re.compile(rb"    \*\*\*\* Server going down in (\d+) minutes and (\d+) seconds\. "
                      rb"\*\*\*\*\n\r")


class Shutdown(ChessdTestCase):
    def server(self):
        srv = self.new_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                              tls=False)
        srv.useradd("root", PW, admin=True)
        srv.useradd("alice", PW)
        srv.start()
        return srv

    def test_countdown_marks_then_shutdown(self):
        srv = self.server()
        root = self.user(srv, "root", PW)
        a = self.user(srv, "alice", PW)
        g = self.guest(srv)
        start = time.monotonic()
        reply = root.command("shutdown 0:12 new version")
        # The one who ordered it reads it as the reply (no blank line before it).
        self.assertIn(b"\n\r    **** Server shutdown ordered by root. ****\n\r"
                      b"    **** We are going down because: new version. ****\n\r"
                      b"    **** Server going down in 0 minutes and 12 seconds. ****\n\r", reply)
        for c in (a, g):
            c.expect(b"\n\r\n\r    **** Server shutdown ordered by root. ****\n\r"
                     b"    **** We are going down because: new version. ****\n\r"
                     b"    **** Server going down in 0 minutes and 12 seconds. ****\n\r\n\rfics% ")
        left = a.command("whenshut")
        m = GOING_RE.search(left)
        self.assertTrue(m, left)
        self.assertLessEqual(int(m.group(2)), 12)
        self.assertIn(b"\n\r    **** We are going down because: new version. ****\n\r", left)
        # The 10-second mark.
        g.expect(b"\n\r\n\r    **** Server going down in 0 minutes and 10 seconds. ****\n\r"
                 b"    **** We are going down because: new version. ****\n\r\n\rfics% ", 20)
        out = g.expect_closed(30)
        self.assertIn(b"    **** Server shutdown ordered by root. ****", out)
        self.assertIn(b"**** chessd is shutting down now. ****", out)
        self.assertGreaterEqual(time.monotonic() - start, 11)
        self.assertEqual(srv.wait_exit(20), 0)
        self.assertIn("shutting down (shutdown command)", srv.log())

    def test_cancel_and_restart_the_countdown(self):
        srv = self.server()
        root = self.user(srv, "root", PW)
        a = self.user(srv, "alice", PW)
        root.command("shutdown 30")
        a.expect(b"Server going down in 30 minutes and 0 seconds.")
        a.expect_prompt()
        self.assertEqual(root.command("shutdown 1:x"),
                         b"I don't know what you mean by 1:x\n\rfics% ")
        reply = root.command("shutdown cancel")
        self.assertIn(b"\n\r    **** Server shutdown canceled by root. ****\n\r", reply)
        a.expect(b"\n\r\n\r    **** Server shutdown canceled by root. ****\n\rfics% ")
        self.assertEqual(a.command("whenshut"), b"No shutdown currently in progress\n\rfics% ")
        self.assertEqual(root.command("shutdown cancel"),
                         b"No shutdown currently in progress\n\rfics% ")
        root.command("shutdown")            # FICS's default: five minutes
        a.expect(b"Server going down in 5 minutes and 0 seconds.")
        a.expect_prompt()
        self.assertRegex(a.command("whenshut"), rb"Server going down in [45] minutes")
        self.assertTrue(srv.running())
        root.command("adminlog")
        self.assertIn(b"shutdown: in 30:00", root.command("adminlog"))
        self.assertIn(b"shutdown: cancel", root.command("adminlog"))
        root.send_line("shutdown now")
        a.expect_closed()
        self.assertEqual(srv.wait_exit(20), 0)


if __name__ == "__main__":
    main()
