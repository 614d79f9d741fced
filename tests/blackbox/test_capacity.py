#!/usr/bin/env python3
"""At start chessd takes every descriptor its hard limit allows and says in
one log line when that limit or net.core.somaxconn cannot hold what the
configuration asks (clients, listen backlog); it serves either way."""
import re
import resource

from chessd_harness import ChessdTestCase, main

CAPACITY_RE = re.compile(r" warn capacity: (.*)")


def nofile(soft, hard):
    """A preexec_fn giving chessd these descriptor limits."""
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def somaxconn():
    with open("/proc/sys/net/core/somaxconn") as f:
        return int(f.read())


def soft_nofile(pid):
    with open("/proc/%d/limits" % pid) as f:
        for line in f:
            if line.startswith("Max open files"):
                return int(line.split()[3])
    raise AssertionError("no Max open files line")


class CapacityTest(ChessdTestCase):
    def assert_serves(self, srv):
        c = self.guest(srv)
        self.assertIn(b"players displayed", c.command("who"))

    def test_clients_beyond_the_hard_limit_are_reported(self):
        srv = self.start_server(config={"clients": 1000}, preexec_fn=nofile(256, 256))
        lines = CAPACITY_RE.findall(srv.log())
        self.assertEqual(len(lines), 1, srv.log())
        self.assertIn("clients 1000 need about 1064 descriptors but the limit is 256 "
                      "(hard 256), so about 192 clients fit", lines[0])
        self.assertIn("LimitNOFILE=", lines[0])
        self.assert_serves(srv)

    def test_soft_limit_is_raised_to_the_hard_one(self):
        hard = min(resource.getrlimit(resource.RLIMIT_NOFILE)[1], 4096)
        srv = self.start_server(config={"clients": 100}, preexec_fn=nofile(128, hard))
        self.assertEqual(soft_nofile(srv.proc.pid), hard)
        # 100 clients fit in the raised limit: nothing to say about descriptors.
        self.assertNotIn("descriptors", srv.log())
        self.assert_serves(srv)

    def test_backlog_beyond_somaxconn_is_reported(self):
        cap = somaxconn()
        srv = self.start_server(config={"clients": 100, "listen_backlog": cap + 1})
        lines = CAPACITY_RE.findall(srv.log())
        self.assertEqual(lines, ["listen_backlog %d is cut to net.core.somaxconn %d "
                                 "(raise it with sysctl)" % (cap + 1, cap)], srv.log())
        self.assert_serves(srv)

    def test_nothing_said_when_everything_fits(self):
        srv = self.start_server(config={"clients": 100, "listen_backlog": 16})
        self.assertEqual(CAPACITY_RE.findall(srv.log()), [], srv.log())
        self.assert_serves(srv)


if __name__ == "__main__":
    main()
