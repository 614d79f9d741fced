#!/usr/bin/env python3
"""The welcome banner says where TLS is to someone on the plain port, in
words that cannot be read as saying that their own connection is
encrypted, and says nothing of it to someone already on TLS."""
import re

from chessd_harness import ChessdTestCase, main

NOTE = rb"This connection is not encrypted; port (\d+) takes TLS\."


class BannerTls(ChessdTestCase):

    def banner(self, c):
        return c.expect(b"login: ")

    def test_the_plain_port_is_told_where_tls_is(self):
        srv = self.start_server()
        got = re.search(NOTE, self.banner(self.connect(srv)))
        self.assertIsNotNone(got)
        self.assertEqual(int(got.group(1)), srv.tls_port)

    def test_a_tls_connection_is_told_nothing_of_it(self):
        srv = self.start_server()
        text = self.banner(self.connect(srv, tls=True))
        self.assertIn(b"login: ", text)
        self.assertNotIn(b"encrypted", text)
        self.assertNotIn(b"port %d" % srv.tls_port, text)


if __name__ == "__main__":
    main()
