"""How stream events reach viewers, black box: the same events, byte for
byte, to a plain HTTP/1.1 viewer (written straight to its socket), an HTTPS
viewer (through TLS) and an HTTP/1.0 viewer (no chunk framing, the end of
the reply is the end of the connection); readers that hang up are freed."""
import socket
import time

from games_harness import FAST, GT, main
from web_harness import WebTestCase, get, loopback_tls


def read_head(sock):
    """Reads a reply's head; returns (status line, headers dict lower-cased, what followed)."""
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = sock.recv(4096)
        if not chunk:
            raise AssertionError("the connection closed in the reply's head: %r" % got)
        got += chunk
    head, _, rest = got.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = {}
    for line in lines[1:]:
        key, _, value = line.partition(": ")
        headers[key.lower()] = value
    return lines[0], headers, rest


def read_until(sock, have, needle):
    """Reads on until needle is in what was read; returns all of it."""
    while needle not in have:
        chunk = sock.recv(4096)
        if not chunk:
            raise AssertionError("the connection closed before %r: %r" % (needle, have))
        have += chunk
    return have


def unchunk(body):
    """The payload of complete HTTP/1.1 chunks, checked strictly; (payload, rest)."""
    out = b""
    while b"\r\n" in body:
        size_line, _, after = body.partition(b"\r\n")
        size = int(size_line, 16)
        if len(after) < size + 2:
            break
        if after[size:size + 2] != b"\r\n":
            raise AssertionError("a chunk does not end with CRLF: %r" % after[:size + 2])
        out += after[:size]
        body = after[size + 2:]
        if size == 0:
            break
    return out, body


class DeliveryTest(WebTestCase):

    def open_raw(self, port, path, version="1.1", tls=False):
        sock = socket.create_connection(("127.0.0.1", port), timeout=GT)
        if tls:
            sock = loopback_tls().wrap_socket(sock)
        self.addCleanup(sock.close)
        sock.sendall(("GET %s HTTP/%s\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
                      % (path, version)).encode())
        return sock

    def test_plain_tls_and_http10_viewers_get_the_same_events(self):
        cfg = dict(FAST)
        srv = self.start_server(config=cfg, http=True)
        a, b, number = self.two_guests_game(srv)
        path = "/api/stream/game/%d" % number
        viewers = {
            "plain": self.open_raw(srv.http_port, path),
            "tls": self.open_raw(srv.https_port, path, tls=True),
            "http10": self.open_raw(srv.http_port, path, version="1.0"),
        }
        bodies = {}
        for name, sock in viewers.items():
            status, headers, rest = read_head(sock)
            self.assertIn(" 200 ", status, name)
            self.assertEqual(headers["content-type"], "text/event-stream", name)
            if name == "http10":
                self.assertNotIn("transfer-encoding", headers)
            else:
                self.assertEqual(headers["transfer-encoding"], "chunked", name)
            bodies[name] = read_until(sock, rest, b"\n\n")
        self.play_moves(a, b, ["e4", "e5", "Nf3", "Nc6"])
        b.send_line("resign")
        events = {}
        for name, sock in viewers.items():
            if name == "http10":
                # Unframed, and the connection ends with the reply.
                body = bodies[name]
                while True:
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    body += chunk
                self.assertNotIn(b"\r\n", body)
                events[name] = body
            else:
                body = read_until(sock, bodies[name], b"\r\n0\r\n\r\n")
                payload, rest = unchunk(body)
                self.assertEqual(rest, b"", name)
                events[name] = payload
        for name in events:
            self.assertTrue(events[name].startswith(b"id: 0\ndata: {"), name)
        # Each viewer's description counts the viewers in so far; what follows is shared.
        after = {name: body.partition(b"\n\n")[2] for name, body in events.items()}
        self.assertEqual(after["plain"], after["tls"])
        self.assertEqual(after["plain"], after["http10"])
        ids = [line for line in after["plain"].split(b"\n") if line.startswith(b"id: ")]
        # Four moves and the final description (with the last ply's id).
        self.assertEqual(ids, [b"id: 1", b"id: 2", b"id: 3", b"id: 4", b"id: 4"])
        self.assertIn(b'"lm":"b8c6"', events["plain"])
        self.assertIn(b'"status":"resign"', events["plain"])

    def test_a_mate_and_the_end_go_out_together(self):
        """The mating move and the game's end are made in one pass and go
        out in one write: two whole chunks, the move's then the end's."""
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        path = "/api/stream/game/%d" % number
        plain = self.open_raw(srv.http_port, path)
        old = self.open_raw(srv.http_port, path, version="1.0")
        bodies = []
        for sock in (plain, old):
            bodies.append(read_until(sock, read_head(sock)[2], b"\n\n"))
        self.play_moves(a, b, ["f3", "e5", "g4", "Qh4#"])
        payload, rest = unchunk(read_until(plain, bodies[0], b"\r\n0\r\n\r\n"))
        self.assertEqual(rest, b"")
        body = bodies[1]
        while True:
            chunk = old.recv(4096)
            if not chunk:
                break
            body += chunk
        for got in (payload, body):
            events = got.split(b"\n\n")[1:-1]
            self.assertEqual([e.split(b"\n")[0] for e in events],
                             [b"id: 1", b"id: 2", b"id: 3", b"id: 4", b"id: 4"])
            self.assertIn(b'"lm":"d8h4"', events[3])
            self.assertIn(b'"status":"mate"', events[4])
            self.assertIn(b'"winner":"black"', events[4])

    def test_viewers_that_leave_mid_game_are_freed(self):
        """Readers that hang up while their game goes on leave nothing
        behind: the streams gauge drops, the others go on, and (under the
        sanitizers) the server stops with no report, leaks included."""
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        path = "/api/stream/game/%d" % number
        leaving = [self.open_raw(srv.http_port, path) for _ in range(3)]
        staying = self.stream(srv, path, sse=True)
        self.assertEqual(staying.event()[0], 0)
        for sock in leaving:
            read_until(sock, read_head(sock)[2], b"\n\n")
            sock.close()
        self.move(a, b, "e4")
        self.assertEqual(staying.event()[0], 1)
        self.move(b, a, "e5")
        self.assertEqual(staying.event()[0], 2)
        deadline = time.monotonic() + GT
        while time.monotonic() < deadline:
            _, _, metrics = get(srv.http_port, "/metrics")
            if b"\nchessd_web_streams 1\n" in metrics:
                break
            time.sleep(0.05)
        self.assertIn(b"\nchessd_web_streams 1\n", metrics)
        srv.stop()
        self.assertEqual(srv.returncode, 0, srv.all_logs())
        for word in ("AddressSanitizer", "runtime error:", "LeakSanitizer"):
            self.assertNotIn(word, srv.all_logs())


if __name__ == "__main__":
    main()
