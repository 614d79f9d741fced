"""Helpers for the web black-box tests (test_web*.py): plain requests and
live streams (ndjson or SSE) over loopback with http.client."""
import http.client
import json
import socket
import ssl
import time

from games_harness import GT, GamesTestCase
from test_tourney import PASSWORD, TourneyTestCase


def loopback_tls():
    """A client context for the test server's self-signed certificate."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def tls_socket(port):
    """A raw TLS connection to the server's https port on loopback."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=GT)
    return loopback_tls().wrap_socket(raw, server_hostname="localhost")


def get(port, path, headers=None, tls=False, timeout=GT):
    """One GET; returns (status, headers dict lower-cased, body bytes)."""
    if tls:
        conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=timeout,
                                           context=loopback_tls())
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        body = r.read()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, body
    finally:
        conn.close()


def get_json(port, path, headers=None, **kw):
    status, hdrs, body = get(port, path, headers, **kw)
    return status, json.loads(body.decode()) if body else None


class Stream:
    """A live stream: ndjson lines, or SSE events as (id, data) pairs."""

    def __init__(self, port, path, sse=False, last_id=None, timeout=GT, rcvbuf=None):
        self.sse = sse
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        if rcvbuf:
            self.conn.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            self.conn.sock.settimeout(timeout)
            self.conn.sock.connect(("127.0.0.1", port))
        headers = {"Accept": "text/event-stream"} if sse else {}
        if last_id is not None:
            headers["Last-Event-ID"] = str(last_id)
        self.conn.request("GET", path, headers=headers)
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.headers = {k.lower(): v for k, v in self.resp.getheaders()}

    def line(self):
        """The next non-empty ndjson object (heartbeat lines skipped); None at the end."""
        while True:
            raw = self.resp.readline()
            if not raw:
                return None
            if raw.strip():
                return json.loads(raw.decode())

    def event(self):
        """The next SSE event as (id or None, data object); comments skipped; None at the end."""
        ev_id, data = None, None
        while True:
            raw = self.resp.readline()
            if not raw:
                return None
            text = raw.decode().rstrip("\n")
            if text == "":
                if data is not None:
                    return ev_id, json.loads(data)
                continue
            if text.startswith(":"):
                continue
            key, _, value = text.partition(": ")
            if key == "id":
                ev_id = int(value)
            elif key == "data":
                data = value

    def raw_until(self, needle, timeout=GT):
        """Reads raw lines until one contains needle (bytes); returns all read."""
        got = b""
        deadline = time.monotonic() + timeout
        while needle not in got and time.monotonic() < deadline:
            raw = self.resp.readline()
            if not raw:
                break
            got += raw
        return got

    def close(self):
        self.conn.close()


class WebTestCase(GamesTestCase):
    """GamesTestCase with the web listeners on."""

    def web_server(self, config=None, **kw):
        return self.game_server(config=config, http=True, **kw)

    def stream(self, srv, path, **kw):
        s = Stream(srv.http_port, path, **kw)
        self.addCleanup(s.close)
        return s

    def two_guests_game(self, srv, terms="1 0"):
        a = self.guest_player(srv)
        b = self.guest_player(srv)
        number, _ = self.start_match(a, b, terms)
        return a, b, number


class WebTourneyTestCase(TourneyTestCase):
    """TourneyTestCase with a tournament under way on a web-enabled server."""

    def web_round_robin(self, title, names):
        """A fresh server with http on, a director, and an unrated 5 0 round
        robin called title that the accounts names joined and that has begun:
        (server, director, {name: client}, tourney id, round 1's boards)."""
        srv = self.new_server(config={"commands_per_sec": 1000, "command_burst": 1000},
                              tls=False, http=True)
        for n in names + ["director"]:
            srv.useradd(n, PASSWORD)
        srv.start()
        director = self.login(srv, "director")
        clients = {n: self.login(srv, n) for n in names}
        tid = self.create(director, "%s rr 0 5 0 unrated" % title)
        for n in names:
            self.cmd(clients[n], "tourney join %d" % tid)
        self.cmd(director, "tourney start %d" % tid)
        boards, _, _ = self.wait_round(director, tid, 1)
        return srv, director, clients, tid, boards
