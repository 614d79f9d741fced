"""Slowloris on the web face, black box: http_request_ms bounds the time to
send one whole request head from its first byte, however the bytes trickle
in, over HTTP and HTTPS; meanwhile others are served, and a request sent
slowly but within the limit is answered."""
import select
import socket
import ssl
import time

from games_harness import FAST, GT, main
from web_harness import WebTestCase, get, tls_socket

REQUEST = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"
LIMIT_MS = 1000
STEP = 0.3
GIVE_UP = 4.0


def closed_now(sock):
    """True when the server has closed the connection (its end is readable:
    an EOF, a reset, or an unasked reply before the close)."""
    try:
        pending = isinstance(sock, ssl.SSLSocket) and sock.pending()
        if not pending and not select.select([sock], [], [], 0)[0]:
            return False
        sock.recv(4096)
        return True
    except ssl.SSLWantReadError:
        return False
    except (ssl.SSLError, OSError):
        return True


def trickle(sock, during=None):
    """Sends REQUEST a byte every STEP seconds until the server closes the
    connection; returns the seconds from the first byte to the close (None
    if it outlived GIVE_UP).  `during` runs once, mid-trickle."""
    start = None
    for i, byte in enumerate(REQUEST):
        try:
            sock.send(bytes([byte]))
        except (ssl.SSLError, OSError):
            return time.monotonic() - start if start else 0.0
        if start is None:
            start = time.monotonic()
        if i == 2 and during:
            during()
        deadline = time.monotonic() + STEP
        while time.monotonic() < deadline:
            if closed_now(sock):
                return time.monotonic() - start
            time.sleep(0.02)
        if time.monotonic() - start > GIVE_UP:
            return None
    return None


class HttpSlowTest(WebTestCase):

    def server(self):
        config = dict(FAST, http_request_ms=LIMIT_MS)
        return self.start_server(config=config, http=True)

    def assert_cut(self, took):
        self.assertIsNotNone(took, "a trickled request head held its connection")
        self.assertLess(took, 3.0)
        self.assertGreater(took, 0.9 * LIMIT_MS / 1000)

    def test_trickled_head_is_cut_and_others_are_served(self):
        srv = self.server()
        sock = socket.create_connection(("127.0.0.1", srv.http_port), timeout=GT)
        self.addCleanup(sock.close)
        served = []

        def other():
            status, _, body = get(srv.http_port, "/api/games")
            served.append((status, body))
        self.assert_cut(trickle(sock, during=other))
        self.assertEqual(served, [(200, b"[]\n")])
        # and the server still serves after the cut
        self.assertEqual(get(srv.http_port, "/api/games")[0], 200)

    def test_trickled_head_over_tls_is_cut(self):
        srv = self.server()
        sock = tls_socket(srv.https_port)
        self.addCleanup(sock.close)
        served = []

        def other():
            served.append(get(srv.https_port, "/api/games", tls=True)[0])
        self.assert_cut(trickle(sock, during=other))
        self.assertEqual(served, [200])

    def test_slow_but_within_the_limit_is_answered_on_each_kept_alive_request(self):
        srv = self.server()
        for secure in (False, True):
            if secure:
                sock = tls_socket(srv.https_port)
            else:
                sock = socket.create_connection(("127.0.0.1", srv.http_port), timeout=GT)
            self.addCleanup(sock.close)
            # two requests on one connection, each taking about half the limit,
            # together more than it: each has its own deadline
            for round_ in range(2):
                third = len(REQUEST) // 3
                for part in (REQUEST[:third], REQUEST[third:2 * third], REQUEST[2 * third:]):
                    sock.sendall(part)
                    time.sleep(0.2)
                reply = b""
                while b"\r\n\r\n" not in reply or not reply.endswith(b"[]\n"):
                    chunk = sock.recv(4096)
                    self.assertTrue(chunk, "closed before reply %d (TLS %s): %r" % (round_, secure, reply))
                    reply += chunk
                self.assertTrue(reply.startswith(b"HTTP/1.1 200 "), (secure, reply))


if __name__ == "__main__":
    main()
