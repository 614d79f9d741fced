"""A fake FICS server for tests of the terminal client `chess`: one
connection, a guest login, the client's block-mode set-up answered, then
whatever the test wants to send.  The client tests that play a hostile or
broken server share it."""
import os
import re
import socket
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHESS = os.environ.get("CHESS") or os.path.join(ROOT, "build", "bin", "chess")
TIMEOUT = float(os.environ.get("CHESSD_TEST_TIMEOUT", "10")) * 3
MARK = b"END-OF-ATTACK"
WELCOME = b"Welcome\n\rlogin: "


class FakeFics(threading.Thread):
    """One connection of a fake FICS server: sends `welcome`, logs a guest
    in, answers the client's block-mode set-up, then sends `attack` (bytes,
    or an iterable of chunks, then `mark`; or a function of the fake and the
    connection).  replies: the reply to a command, and what to send after
    it.  tls: an ssl.SSLContext; port: reuse a port; before_tls: a function
    of the fake and the raw connection that replaces all the rest.  The
    fake's `received` holds every byte the client sent; `error` what ended
    it early."""

    def __init__(self, attack=b"", tls=None, port=0, before_tls=None, replies=None,
                 welcome=WELCOME, mark=MARK):
        super().__init__(daemon=True)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(1)
        self.sock.settimeout(TIMEOUT)
        self.port = self.sock.getsockname()[1]
        self.attack, self.tls, self.before_tls = attack, tls, before_tls
        self.replies = replies or {}        # command: (reply, bytes sent after it)
        self.welcome, self.mark = welcome, mark
        self.received = b""
        self.error = None
        self.start()

    def run(self):
        conn = None
        try:
            conn, _ = self.sock.accept()
            conn.settimeout(TIMEOUT)
            if self.before_tls:
                self.before_tls(self, conn)
                return
            if self.tls:
                conn = self.tls.wrap_socket(conn, server_side=True)
            self.converse(conn)
        except Exception as e:      # reported by the test
            self.error = e
        finally:
            if conn:
                conn.close()
            self.sock.close()

    def lines(self, conn):
        buf = b""
        while True:
            while b"\n" not in buf:
                data = conn.recv(4096)
                if not data:
                    return
                self.received += data
                buf += data
            line, buf = buf.split(b"\n", 1)
            yield line.rstrip(b"\r")

    def converse(self, conn):
        conn.sendall(self.welcome)
        lines = self.lines(conn)
        next(lines)
        conn.sendall(b'Press return to enter the server as "GuestEVIL":\n\r')
        next(lines)
        conn.sendall(b"**** Starting FICS session as GuestEVIL(U) ****\n\rfics% ")
        for line in lines:
            if line == b"iset block 1":
                conn.sendall(b"block set.\n\rfics% ")
                continue
            m = re.match(rb"(\d+) (.*)", line)
            if not m:
                continue
            ident, command = m.group(1), m.group(2)
            if command == b"quit":
                conn.sendall(b"\x15%s\x1671\x16Logging you out.\n\r\x17\n\r" % ident)
                return
            reply, after = self.replies.get(command, (b"ok", b""))
            conn.sendall(b"\x15%s\x160\x16%s\n\r\x17\n\rfics%% " % (ident, reply) + after)
            if command == b"style 12":          # the last set-up command
                if callable(self.attack):
                    self.attack(self, conn)
                    return
                for chunk in [self.attack] if isinstance(self.attack, bytes) else self.attack:
                    conn.sendall(chunk)
                conn.sendall(b"\n\r" + self.mark + b"\n\rfics% ")
