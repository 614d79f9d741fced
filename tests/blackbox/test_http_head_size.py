#!/usr/bin/env python3
"""An HTTP request head longer than http_request_line_bytes and
http_header_bytes together is cut off before it is read to the end, and
answered as every other web error is: JSON, here 431 (414 when the request
line alone is past its limit), with "Connection: close"; the connection is
then closed, the server serves on.  Over TLS too, after a kept-alive
request on the same connection, and never while a stream is going out."""
import json
import socket
import ssl
import time

from games_harness import GT, main
from web_harness import WebTestCase, get_json, tls_socket

CAP = 2048 + 8192       # the default limits together


def read_all(s, timeout=GT):
    """Everything s receives until the server closes it."""
    s.settimeout(timeout)
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except (ConnectionResetError, ssl.SSLEOFError):
            raise AssertionError("connection reset after %r" % out[:300])
        if not chunk:
            return out
        out += chunk


def read_reply(s, timeout=GT):
    """One reply framed by its Content-Length: (status line, headers, body)."""
    s.settimeout(timeout)
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(65536)
        if not chunk:
            raise AssertionError("closed inside a reply head: %r" % buf)
        buf += chunk
    head, _, body = buf.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    headers = dict(line.split(b": ", 1) for line in lines[1:])
    while len(body) < int(headers[b"Content-Length"]):
        body += s.recv(65536)
    return lines[0], headers, body


class HeadSizeTest(WebTestCase):

    def refused(self, out, code=431, why="request headers too large"):
        head, _, body = out.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        reason = {431: b"Request Header Fields Too Large", 414: b"Request-URI Too Large"}[code]
        self.assertEqual(lines[0], b"HTTP/1.1 %d %s" % (code, reason), out[:300])
        self.assertIn(b"Content-Type: application/json", lines)
        self.assertIn(b"Connection: close", lines)
        self.assertIn(b"Content-Length: %d" % len(body), lines)
        self.assertEqual(json.loads(body), {"error": why})

    def serves_on(self, srv):
        self.assertEqual(get_json(srv.http_port, "/api/games"), (200, []))

    def stop_clean(self, srv):
        """Stops srv; under ASan/UBSan a report in its stderr fails the test."""
        srv.stop()
        self.assert_no_sanitizer_report(srv)

    def conn(self, srv):
        s = socket.create_connection(("127.0.0.1", srv.http_port), timeout=GT)
        self.addCleanup(s.close)
        return s

    def test_one_long_header_many_short_ones_a_long_request_line(self):
        srv = self.web_server()
        for req, code, why in (
                (b"GET / HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n", 431,
                 "request headers too large"),
                (b"GET / HTTP/1.1\r\n" + b"X-Many: a\r\n" * 2000 + b"\r\n", 431,
                 "request headers too large"),
                (b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n\r\n", 414, "request line too long")):
            s = self.conn(srv)
            s.sendall(req)
            self.refused(read_all(s), code, why)
            self.serves_on(srv)
        self.stop_clean(srv)

    def test_cut_off_before_the_head_ends(self):
        srv = self.web_server()
        s = self.conn(srv)
        # More than the limit, and the head not over: the reply and the close come anyway.
        s.sendall(b"GET / HTTP/1.1\r\n" + b"X-Pad: %s\r\n" % (b"p" * 90) * (CAP // 100 + 5))
        out = read_all(s)
        self.refused(out)
        # what the client still sends goes nowhere; the next connection is served
        try:
            s.sendall(b"X-Late: 1\r\n\r\n")
        except OSError:
            pass
        self.serves_on(srv)
        self.stop_clean(srv)

    def test_after_a_kept_alive_request(self):
        srv = self.web_server()
        s = self.conn(srv)
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        status, _, body = read_reply(s)
        self.assertEqual((status, json.loads(body)), (b"HTTP/1.1 200 OK", []))
        s.sendall(b"GET /api/games HTTP/1.1\r\nX: " + b"b" * 20000 + b"\r\n\r\n")
        self.refused(read_all(s))
        self.serves_on(srv)
        self.stop_clean(srv)

    def test_the_limits_are_the_settings(self):
        srv = self.web_server(config={"http_request_line_bytes": 200, "http_header_bytes": 400})
        # within both limits (and under the two together): served
        line = b"GET /api/games?" + b"q" * (190 - 26) + b" HTTP/1.1\r\n"
        self.assertLessEqual(len(line) - 2, 200)
        head = line + b"X-Big: " + b"v" * 380 + b"\r\n\r\n"
        self.assertLessEqual(len(head), 600)
        s = self.conn(srv)
        s.sendall(head)
        self.assertEqual(read_reply(s)[0], b"HTTP/1.1 200 OK")
        s = self.conn(srv)
        s.sendall(b"GET /api/games HTTP/1.1\r\n" + b"X-Big: " + b"v" * 700 + b"\r\n\r\n")
        self.refused(read_all(s))
        self.serves_on(srv)
        self.stop_clean(srv)

    def test_over_tls(self):
        srv = self.start_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                                http=True, tls=True)
        s = tls_socket(srv.https_port)
        self.addCleanup(s.close)
        s.sendall(b"GET / HTTP/1.1\r\nX: " + b"t" * 20000 + b"\r\n\r\n")
        self.refused(read_all(s))
        self.assertEqual(get_json(srv.https_port, "/api/games", tls=True), (200, []))
        self.stop_clean(srv)

    def test_a_stream_is_not_cut_by_what_its_client_sends(self):
        srv = self.web_server(config={"web_heartbeat_ms": 100})
        s = self.conn(srv)
        s.sendall(b"GET /api/tv/feed HTTP/1.1\r\nHost: x\r\n\r\n")
        buf = b""
        while b"\r\n\r\n" not in buf:
            buf += s.recv(65536)
        self.assertTrue(buf.startswith(b"HTTP/1.1 200 OK\r\n"), buf)
        s.sendall(b"x" * (2 * CAP))
        # heartbeats go on coming; no refusal is written into the stream
        deadline, more = time.monotonic() + 1.5, b""
        while time.monotonic() < deadline:
            s.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                continue
            self.assertTrue(chunk, "the stream was closed")
            more += chunk
        self.assertNotIn(b"HTTP/1.1", more)
        self.assertGreaterEqual(more.count(b"\n"), 3, more)
        self.serves_on(srv)
        s.close()
        self.stop_clean(srv)


if __name__ == "__main__":
    main()
