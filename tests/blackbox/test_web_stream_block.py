"""web_streams_per_address counts what one party holds, black box: an IPv4
address, or an IPv6 /64 (a single host gets a whole /64, so counting each
of its addresses apart is no limit at all), as FICS connections are
counted.  The test runs in a network namespace of its own (unshare -rn)
whose loopback carries two addresses of one /64 and one of another."""
import http.client
import json
import os
import subprocess
import sys

from games_harness import GT, main
from web_harness import WebTestCase, get_json

NETNS = "CHESSD_TEST_NETNS"
SAME_A, SAME_B, OTHER = "2001:db8:1:2::a", "2001:db8:1:2::b", "2001:db8:1:3::c"


def enter_namespace():
    """Re-runs this file inside a new user and network namespace with the
    addresses on its loopback; a machine that cannot fails the test."""
    if os.environ.get(NETNS) == "1":
        for cmd in (["ip", "link", "set", "lo", "up"],
                    *(["ip", "-6", "addr", "add", a + "/64", "dev", "lo", "nodad"]
                      for a in (SAME_A, SAME_B, OTHER))):
            subprocess.run(cmd, check=True)
        return
    env = dict(os.environ, **{NETNS: "1"})
    rc = subprocess.call(["unshare", "-rn", sys.executable, os.path.abspath(__file__)]
                         + sys.argv[1:], env=env)
    sys.exit(rc)


def open_stream(port, source, dest):
    conn = http.client.HTTPConnection(dest, port, timeout=GT, source_address=(source, 0))
    conn.request("GET", "/api/tv/feed")
    r = conn.getresponse()
    return conn, r


class StreamBlockTest(WebTestCase):

    def test_one_ipv6_64_is_one_address(self):
        srv = self.web_server(config={"web_streams_per_address": 1}, bind="::")
        port = srv.http_port
        conn, r = open_stream(port, SAME_A, SAME_A)
        self.addCleanup(conn.close)
        self.assertEqual(r.status, 200)
        # another address of the same /64: the same party, refused
        conn, r = open_stream(port, SAME_B, SAME_A)
        self.addCleanup(conn.close)
        self.assertEqual(r.status, 429)
        self.assertEqual(json.loads(r.read()), {"error": "too many streams from your address"})
        # another /64, and IPv4, are others
        conn, r = open_stream(port, OTHER, SAME_A)
        self.addCleanup(conn.close)
        self.assertEqual(r.status, 200)
        conn, r = open_stream(port, "127.0.0.1", "127.0.0.1")
        self.addCleanup(conn.close)
        self.assertEqual(r.status, 200)
        # and the server serves a game
        a, b, number = self.two_guests_game(srv)
        self.play_moves(a, b, ["e4"])
        status, games = get_json(port, "/api/games")
        self.assertEqual((status, games[0]["number"], games[0]["lastMove"]),
                         (200, number, "e2e4"))


if __name__ == "__main__":
    enter_namespace()
    main()
