#!/usr/bin/env python3
"""Server CPU per `who` line and per `games` line.

Starts chessd (CHESSD, else build/bin/chessd) with M guests logged in and G
games between them (no moves), then has one guest ask `who` K times and
`games` K times, and prints chessd's user+system CPU (from /proc, so a
loaded machine costs wall time, not the figure) divided by the lines sent.
Run it for two builds one after the other to compare them:

    CHESSD=old/chessd tests/bench/bench_lists.py 12000 4000 60
    CHESSD=new/chessd tests/bench/bench_lists.py 12000 4000 60
"""
import os
import re
import sys
import time

if os.environ.get("CHESSD"):
    os.environ["CHESSD"] = os.path.abspath(os.environ["CHESSD"])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blackbox"))
import chessd_harness as h  # noqa: E402

TIMEOUT = 120


def cpu_s(pid):
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: bench_lists.py GUESTS GAMES TIMES")
    guests, games, times = (int(a) for a in sys.argv[1:])
    if games * 2 > guests or times < 1:
        sys.exit("bench_lists.py: GAMES needs twice as many GUESTS, TIMES at least 1")
    srv = h.Server(config={"clients": guests + 50, "clients_per_address": guests + 50,
                           "commands_per_sec": 100000, "command_burst": 100000,
                           "games_per_minute": 100000,
                           "games_per_minute_per_address": 1000000,
                           "login_ms": 3600000, "unauth_idle_ms": 3600000}, tls=False)
    srv.start()
    try:
        cs = []
        for _ in range(guests):
            c = srv.connect()
            c.login_guest(timeout=TIMEOUT)
            cs.append(c)
        for i in range(games):
            a, b = cs[2 * i], cs[2 * i + 1]
            a.send_line("match %s 5 0 u" % b.name)
            b.expect(b"Challenge:", TIMEOUT)
            b.send_line("accept")
            a.expect(b"Creating:", TIMEOUT)
        q = cs[-1]
        q.read_for(0.5)
        print("chessd %s, %d guests, %d games, load %s" % (h.CHESSD, guests, games,
              open("/proc/loadavg").read().split(" ", 3)[:3]))
        for cmd, end in (("who", rb"(\d+) players displayed"),
                         ("games", rb"(\d+) games displayed")):
            before, wall, lines = cpu_s(srv.proc.pid), time.time(), 0
            for _ in range(times):
                q.send_line(cmd)
                q.expect(re.compile(end), TIMEOUT)
                lines += int(q.match.group(1))
            used = cpu_s(srv.proc.pid) - before
            print("%-5s %8d lines, server CPU %.2f s, %.3f us a line, %.1f s wall" % (
                cmd, lines, used, used * 1e6 / lines, time.time() - wall))
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
