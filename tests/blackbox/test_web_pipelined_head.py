"""A request head past the limits pipelined behind earlier requests on one
kept-alive connection, black box: the requests before it are answered, in
order, and then it gets the same JSON 431 (414 for a request line alone
too long) with "Connection: close" as a head sent alone, never evhttp's
HTML 400.  Whether it comes in one write with them or trickles after;
behind a stream it waits for the stream's end.  Valid pipelined requests,
also ones as long as the limits allow, are all served."""
import json
import socket

from games_harness import GT, main
from web_harness import WebTestCase, get_json, tls_socket
from test_http_head_size import read_all

GOOD = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"


def replies(data):
    """Splits what a connection got into (status line, headers, body) by Content-Length."""
    out = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        assert sep, data[:300]
        lines = head.split(b"\r\n")
        headers = dict(line.split(b": ", 1) for line in lines[1:])
        n = int(headers[b"Content-Length"])
        out.append((lines[0], headers, rest[:n]))
        data = rest[n:]
    return out


class PipelinedHeadTest(WebTestCase):

    def conn(self, srv):
        s = socket.create_connection(("127.0.0.1", srv.http_port), timeout=GT)
        self.addCleanup(s.close)
        return s

    def assert_refused(self, reply, code, why):
        status, headers, body = reply
        reason = {431: b"Request Header Fields Too Large", 414: b"Request-URI Too Large"}[code]
        self.assertEqual(status, b"HTTP/1.1 %d %s" % (code, reason))
        self.assertEqual(headers[b"Content-Type"], b"application/json")
        self.assertEqual(headers[b"Connection"], b"close")
        self.assertEqual(json.loads(body), {"error": why})

    def test_behind_earlier_requests(self):
        srv = self.web_server()
        big_header = b"GET /api/games HTTP/1.1\r\nX: " + b"b" * 20000 + b"\r\n\r\n"
        big_line = b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n\r\n"
        for big, code, why in ((big_header, 431, "request headers too large"),
                               (big_line, 414, "request line too long")):
            for split in (False, True):
                s = self.conn(srv)
                if split:
                    # the earlier ones and the start of the big head, then the rest
                    s.sendall(GOOD * 2 + big[:100])
                    s.sendall(big[100:])
                else:
                    s.sendall(GOOD * 2 + big)
                got = replies(read_all(s))
                self.assertEqual(len(got), 3, got)
                for r in got[:2]:
                    self.assertEqual((r[0], json.loads(r[2])), (b"HTTP/1.1 200 OK", []))
                self.assert_refused(got[2], code, why)
        self.assertEqual(get_json(srv.http_port, "/api/games"), (200, []))

    def test_over_tls(self):
        srv = self.start_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                                http=True, tls=True)
        s = tls_socket(srv.https_port)
        self.addCleanup(s.close)
        s.sendall(GOOD * 2 + b"GET / HTTP/1.1\r\nX: " + b"t" * 20000 + b"\r\n\r\n")
        got = replies(read_all(s))
        self.assertEqual([r[0] for r in got[:2]], [b"HTTP/1.1 200 OK"] * 2)
        self.assert_refused(got[2], 431, "request headers too large")
        self.assertEqual(get_json(srv.https_port, "/api/games", tls=True), (200, []))

    def test_valid_pipelined_requests_are_all_served(self):
        srv = self.web_server(config={"http_request_line_bytes": 200, "http_header_bytes": 400})
        # each within both limits, five of them together far past them
        line = b"GET /api/games?" + b"q" * 160 + b" HTTP/1.1\r\n"
        one = line + b"X-Big: " + b"v" * 360 + b"\r\nContent-Length: 0\r\n\r\n"
        s = self.conn(srv)
        s.sendall(one * 5 + GOOD[:-2] + b"Connection: close\r\n\r\n")
        got = replies(read_all(s))
        self.assertEqual([r[0] for r in got], [b"HTTP/1.1 200 OK"] * 6)

    def test_behind_a_stream_it_waits_for_the_end(self):
        srv = self.web_server()
        a, b, number = self.two_guests_game(srv)
        s = self.conn(srv)
        s.sendall(b"GET /api/stream/game/%d HTTP/1.1\r\nHost: x\r\n\r\n" % number +
                  b"GET /api/games HTTP/1.1\r\nX: " + b"s" * 20000 + b"\r\n\r\n")
        got = b""
        while b"\"number\"" not in got:
            chunk = s.recv(65536)
            self.assertTrue(chunk, got)
            got += chunk
        self.move(a, b, "e4")
        while b"e2e4" not in got.split(b"\"number\"", 1)[1]:
            got += s.recv(65536)
        self.assertNotIn(b"431", got)
        b.send_line("resign")
        got += read_all(s)
        stream, _, after = got.partition(b"\r\n0\r\n\r\n")
        self.assertIn(b"\"status\":\"resign\"", stream)
        self.assert_refused(replies(after)[0], 431, "request headers too large")
        self.assertEqual(get_json(srv.http_port, "/api/games"), (200, []))


if __name__ == "__main__":
    main()
