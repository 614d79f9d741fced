"""What a stream's client sends while its stream goes out is not held in
the server's memory, black box: past the longest request head it is a head
refused (dropped as it comes, to be answered once the stream is over), or
it waits in the kernel; the stream goes on, and the server serves a game
afterwards."""
import os
import socket
import time

from games_harness import GT, main
from web_harness import WebTestCase, get_json

FLOOD_S = 2.0
# far more than two heads, far less than what an unbounded read takes in FLOOD_S
RSS_GROWTH_MAX_KB = 32 * 1024


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def flood(sock, seconds):
    """Sends as fast as the connection takes it for seconds; returns bytes sent."""
    sock.setblocking(False)
    sent, chunk, end = 0, b"x" * 65536, time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            sent += sock.send(chunk)
        except BlockingIOError:
            time.sleep(0.01)
    sock.settimeout(GT)
    return sent


class StreamInputTest(WebTestCase):

    def test_a_flooding_stream_client_is_not_buffered(self):
        # Under ASan freed memory waits in a quarantine (256 MB by default)
        # before reuse: bytes dropped as they come would count as held.
        options = os.environ.get("ASAN_OPTIONS", "")
        os.environ["ASAN_OPTIONS"] = (options + ":" if options else "") + "quarantine_size_mb=4"
        self.addCleanup(os.environ.__setitem__, "ASAN_OPTIONS", options)
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        s = socket.create_connection(("127.0.0.1", srv.http_port), timeout=GT)
        self.addCleanup(s.close)
        s.sendall(b"GET /api/stream/game/%d HTTP/1.1\r\nHost: x\r\n\r\n" % number)
        got = b""
        while b"\r\n\r\n" not in got or b"\"number\"" not in got:
            chunk = s.recv(65536)
            self.assertTrue(chunk, got)
            got += chunk
        self.assertTrue(got.startswith(b"HTTP/1.1 200 OK\r\n"), got)
        before = rss_kb(srv.proc.pid)
        sent = flood(s, FLOOD_S)
        grown = rss_kb(srv.proc.pid) - before
        self.assertLess(grown, RSS_GROWTH_MAX_KB, "sent %d bytes" % sent)
        self.assertGreater(sent, 1024 * 1024)     # the flood did happen
        # the stream goes on: the next move comes on it
        self.move(a, b, "e4")
        got = b""
        while b"e2e4" not in got:
            chunk = s.recv(65536)
            self.assertTrue(chunk, "the stream was closed")
            got += chunk
        # and others are served, a game among them
        status, games = get_json(srv.http_port, "/api/games")
        self.assertEqual((status, games[0]["number"], games[0]["lastMove"]),
                         (200, number, "e2e4"))


if __name__ == "__main__":
    main()
