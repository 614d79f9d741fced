#!/usr/bin/env python3
"""Measures how many passwords an attacker gets checked per minute for one
name: N connections, each from its own loopback address, guess in a loop
(reconnecting whenever the server closes them).  Every "Invalid password!"
is one verification.  The server runs with the default login limits.

  login_guesses.py [--chessd PATH] [--seconds 60] [--spread net|host] N...

--spread net puts each connection in its own /24 (127.0.i.1); host puts them
all in one /24 (127.0.0.i).  With --owner S, the account's owner logs in
from a fresh /24 S seconds into the attack and the wait is reported too.
Prints one line per N.
"""
import argparse
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blackbox"))
import chessd_harness  # noqa: E402
from chessd_harness import Client, Server  # noqa: E402

NAME, PASSWORD = "victim", "correct-horse"


def attacker(port, source, end, counts, i):
    guess = 0
    while time.monotonic() < end:
        try:
            c = Client(port, source=source)
        except OSError:
            time.sleep(0.05)
            continue
        try:
            c.expect(b"login: ", max(end - time.monotonic(), 0.01))
            while time.monotonic() < end:
                c.send_line(NAME)
                c.expect(b"password: ", max(end - time.monotonic(), 0.01))
                guess += 1
                c.send_line("guess%d" % guess)
                c.expect(b"**** Invalid password! ****", max(end - time.monotonic(), 0.01))
                if time.monotonic() < end:
                    counts[i] += 1
                c.expect(b"login: ", max(end - time.monotonic(), 0.01))
        except (AssertionError, OSError):
            pass
        finally:
            c.close()


def owner(port, at, result):
    """The owner types the right password at time at; records the wait."""
    time.sleep(max(at - time.monotonic(), 0))
    c = Client(port, source="127.0.255.1")
    try:
        c.expect(b"login: ")
        c.send_line(NAME)
        c.expect(b"password: ")
        start = time.monotonic()
        c.send_line(PASSWORD)
        c.expect(b"**** Starting FICS session as", 3600)
        result.append(time.monotonic() - start)
    except AssertionError:
        result.append(None)
    finally:
        c.close()


def measure(n, seconds, spread, owner_at=None):
    srv = Server(config={"clients_per_address": 1000})
    try:
        srv.start()
        srv.useradd(NAME, PASSWORD)
        counts = [0] * n
        end = time.monotonic() + seconds
        sources = [("127.0.%d.1" % (i + 1)) if spread == "net" else ("127.0.0.%d" % (i + 2))
                   for i in range(n)]
        threads = [threading.Thread(target=attacker, args=(srv.port, sources[i], end, counts, i))
                   for i in range(n)]
        waited = []
        if owner_at is not None:
            threads.append(threading.Thread(target=owner, args=(
                srv.port, end - seconds + owner_at, waited)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        checked = srv.log().count("failed login for %s" % NAME)
        return sum(counts), checked, waited
    finally:
        srv.cleanup()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chessd")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--spread", choices=("net", "host"), default="net")
    ap.add_argument("--owner", type=float)
    ap.add_argument("conns", type=int, nargs="+")
    args = ap.parse_args()
    if args.chessd:
        chessd_harness.CHESSD = args.chessd
    for n in args.conns:
        answered, checked, waited = measure(n, args.seconds, args.spread, args.owner)
        per_min = answered * 60.0 / args.seconds
        owner_text = ""
        if waited:
            owner_text = "; the owner waited %s" % (
                "%.1f s" % waited[0] if waited[0] is not None else "in vain")
        print("%4d connections (%s spread): %5d wrong passwords answered in %.0f s "
              "(%.1f per minute; server logged %d failures%s)" % (
                  n, args.spread, answered, args.seconds, per_min, checked, owner_text),
              flush=True)


if __name__ == "__main__":
    main()
