#!/usr/bin/env python3
"""A TLS peer that accepts the connection and never answers the handshake:
the client gives up after NET_HANDSHAKE_SECONDS with one line, and has sent
nothing but its ClientHello."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_client_attack import CHESS  # noqa: E402

NET_HANDSHAKE_SECONDS = 15          # client/net.h


class Silent(unittest.TestCase):
    def test_silent_peer_is_given_up(self):
        home = tempfile.mkdtemp(prefix="chess-silent-")
        self.addCleanup(shutil.rmtree, home, True)
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        self.addCleanup(listener.close)
        port = listener.getsockname()[1]
        got = []

        def swallow():
            conn, _ = listener.accept()
            with conn:
                conn.settimeout(NET_HANDSHAKE_SECONDS * 3)
                try:
                    while True:
                        data = conn.recv(4096)
                        if not data:
                            return
                        got.append(data)
                except OSError:
                    pass
        threading.Thread(target=swallow, daemon=True).start()
        began = time.monotonic()
        r = subprocess.run([CHESS, "--port", str(port), "--accept-new", "127.0.0.1"],
                           input=b"who\n", capture_output=True, timeout=NET_HANDSHAKE_SECONDS * 4,
                           env=dict(os.environ, HOME=home, XDG_CONFIG_HOME=home))
        took = time.monotonic() - began
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(r.stderr, b"chess: no TLS handshake from 127.0.0.1:%d within %d s\n"
                         % (port, NET_HANDSHAKE_SECONDS))
        self.assertGreaterEqual(took, NET_HANDSHAKE_SECONDS - 1)
        self.assertLess(took, NET_HANDSHAKE_SECONDS * 3)
        self.assertTrue(b"".join(got).startswith(b"\x16\x03"))      # a ClientHello, no login
        self.assertNotIn(b"who", b"".join(got))


if __name__ == "__main__":
    unittest.main(verbosity=2)
