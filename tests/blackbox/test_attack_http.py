"""The web's HTTP face attacked from a raw socket, black box: HEAD and the
methods that are not served, requests malformed or oversized, numbers out of
range.  Each error is a clear reply (JSON under /api/), the connection is
framed right for what follows on it, and the server keeps serving others."""
import http.client
import json
import socket

from games_harness import GT, main
from web_harness import WebTestCase, get, get_json


def raw(port, data, timeout=GT):
    """Sends data on a fresh connection; returns all it gets until the server closes."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(data)
        out = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return out
            out += chunk
    finally:
        s.close()


class HttpAttackTest(WebTestCase):

    def test_head_has_no_body_and_keeps_the_connection_framed(self):
        srv = self.web_server()
        port = srv.http_port
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=GT)
        self.addCleanup(conn.close)
        for path in ("/", "/api/games", "/metrics", "/no/such/page", "/api/stream/game/7",
                     "/board.svg?fen=junk"):
            status, _, body = get(port, path)
            # on one kept-alive connection: HEAD, then GET; a body sent with
            # the HEAD would be read as the GET's status line
            conn.request("HEAD", path)
            head = conn.getresponse()
            self.assertEqual(head.read(), b"", path)
            self.assertEqual(head.status, status, path)
            self.assertEqual(head.getheader("Content-Length"), str(len(body)), path)
            conn.request("GET", "/api/games")
            r = conn.getresponse()
            self.assertEqual((r.status, json.loads(r.read())), (200, []), path)

    def test_head_of_a_stream_is_not_held_as_a_viewer(self):
        srv = self.web_server(config={"web_streams_per_address": 1})
        port = srv.http_port
        heads = []
        for _ in range(3):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=GT)
            self.addCleanup(conn.close)
            conn.request("HEAD", "/api/tv/feed")
            r = conn.getresponse()
            self.assertEqual(r.status, 200)
            self.assertEqual(r.getheader("Content-Type"), "application/x-ndjson")
            self.assertEqual(r.read(), b"")
            heads.append(conn)
        # the HEADs' connections are still open, yet none holds the one stream allowed
        conn = heads[-1]
        conn.request("GET", "/api/games")
        r = conn.getresponse()
        self.assertEqual((r.status, r.read()), (200, b"[]\n"))
        s = self.stream(srv, "/api/tv/feed")
        self.assertEqual(s.status, 200)
        _, _, metrics = get(port, "/metrics")
        self.assertIn(b"\nchessd_web_streams 1\n", metrics)
        # and it is the one: another is refused, with the code's own reason phrase
        out = raw(port, b"GET /api/tv/feed HTTP/1.1\r\nConnection: close\r\n\r\n")
        self.assertTrue(out.startswith(b"HTTP/1.1 429 Too Many Requests\r\n"), out)

    def test_other_methods_get_405_with_allow(self):
        srv = self.web_server()
        for method in ("POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH"):
            out = raw(srv.http_port, b"%s /api/games HTTP/1.1\r\nHost: x\r\n"
                      b"Content-Length: 0\r\nConnection: close\r\n\r\n" % method.encode())
            head, _, body = out.partition(b"\r\n\r\n")
            self.assertTrue(head.startswith(b"HTTP/1.1 405 "), (method, out))
            self.assertIn(b"\r\nAllow: GET, HEAD\r\n", head + b"\r\n", method)
            self.assertIn("error", json.loads(body), method)
        self.assertEqual(get_json(srv.http_port, "/api/games"), (200, []))

    def test_bad_requests_get_clear_errors_and_the_server_serves_on(self):
        srv = self.web_server()
        port = srv.http_port
        cases = [
            (b"GET /" + b"a" * 3000 + b" HTTP/1.1\r\nConnection: close\r\n\r\n", 414),
            (b"GET / HTTP/1.1\r\nConnection: close\r\nX: " + b"a" * 9000 + b"\r\n\r\n", 431),
            (b"GET /api/games HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 413),
            (b"GET /api/games HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
             413),
            (b"GET / HTTP/1.1\r\nHost x\r\n\r\n", 400),
            (b"GET /api/games\x00x HTTP/1.1\r\n\r\n", 400),
            (b"GET /\r\n\r\n", 400),
        ]
        for req, code in cases:
            out = raw(port, req)
            self.assertTrue(out.startswith(b"HTTP/1.1 %d " % code), (req[:60], out[:200]))
        out = raw(port, b"GET / HTTP/1.1\r\nConnection: close\r\nX: " + b"a" * 9000 + b"\r\n\r\n")
        self.assertTrue(out.startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"), out)
        for path in ("/api/stream/game/99999999999999999999", "/api/stream/game/-1",
                     "/api/stream/game/0x10", "/game/export/1e3", "/game/export/+5",
                     "/api/games/recent?max=99999999999999999999", "/api/games/recent?max=-1",
                     "/api/tourney/00x", "/tourney/1/round/99999999999.pgn"):
            status, body = get_json(port, path)
            self.assertIn(status, (400, 404), path)
            self.assertIn("error", body, path)
        status, body = get_json(port, "/api/stream/game/1", {"Last-Event-ID": "-5"})
        self.assertIn(status, (400, 404))
        # a reflected value is escaped JSON, never raw markup
        status, _, body = get(port, "/api/user/%3Cscript%3E")
        self.assertEqual(status, 400)
        self.assertNotIn(b"<script>", body)
        # absolute form is served (evhttp then closes, as after a proxy request);
        # pipelined requests are each answered
        out = raw(port, b"GET http://x/api/games HTTP/1.1\r\n\r\n")
        self.assertTrue(out.startswith(b"HTTP/1.1 200 OK\r\n"), out)
        out = raw(port, b"GET /api/games HTTP/1.1\r\n\r\n"
                  b"GET /api/games HTTP/1.1\r\nConnection: close\r\n\r\n")
        self.assertEqual(out.count(b"HTTP/1.1 200 OK\r\n"), 2, out)
        self.assertEqual(get_json(port, "/api/games"), (200, []))


if __name__ == "__main__":
    main()
