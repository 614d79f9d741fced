#!/usr/bin/env python3
"""Address bans: ranges from the configuration (ban_addresses) and from the
admin commands banaddress/unbanaddress, kept in the database; a ban drops
the sessions already online from the range and refuses new connections."""
from chessd_harness import ChessdTestCase, main
import test_admin
from test_admin import PW


class Bans(ChessdTestCase):
    server = test_admin.Admin.server
    log_rows = test_admin.Admin.log_rows

    def test_address_ban_by_command_drops_sessions_online_and_refuses_new_ones(self):
        srv = self.server()
        root = self.user(srv, "root", PW)
        a = self.connect(srv, source="127.0.0.3")
        a.login("alice", PW)
        b = self.user(srv, "bob", PW)
        pending = self.connect(srv, source="127.0.0.3")
        pending.expect(b"login: ")
        self.assertEqual(root.command("banaddress 127.0.0.3/32"),
                         b"127.0.0.3 is banned.\n\rfics% ")
        self.assertIn(b"**** Your address has been banned from this server. ****",
                      a.expect_closed())
        # The connection made before the ban cannot log in either.
        pending.send_line("guest")
        pending.expect(b"Press return")
        pending.send_line("")
        self.assertIn(b"**** Your address is banned from this server. ****",
                      pending.expect_closed())
        late = self.connect(srv, source="127.0.0.3")
        self.assertIn(b"**** Your address is banned from this server. ****", late.expect_closed())
        self.assertIn(b"bob", root.command("who"))       # other addresses stay
        self.assertEqual(root.command("banaddress 127.0.0.3"),
                         b"127.0.0.3 is banned already.\n\rfics% ")
        self.assertEqual(root.command("banaddress 300.1.2.3/8"),
                         b"300.1.2.3/8 is not an address or address range (like 192.0.2.0/24)."
                         b"\n\rfics% ")
        self.assertIn(b"  127.0.0.3\n\r", root.command("banaddress"))
        srv.stop()
        srv.start()
        again = self.connect(srv, source="127.0.0.3")
        self.assertIn(b"banned", again.expect_closed())
        root = self.user(srv, "root", PW)
        self.assertEqual(root.command("unbanaddress 127.0.0.3"),
                         b"127.0.0.3 is no longer banned.\n\rfics% ")
        self.connect(srv, source="127.0.0.3").login("alice", PW)
        self.assertEqual([r[2:5] for r in self.log_rows(srv)],
                         [("banaddress", None, "127.0.0.3"), ("unbanaddress", None, "127.0.0.3")])

    def test_address_ban_from_the_configuration(self):
        srv = self.server(ban_addresses="127.0.0.4/31, 2001:db8::/32")
        c = self.connect(srv, source="127.0.0.5")
        self.assertIn(b"**** Your address is banned from this server. ****", c.expect_closed())
        self.connect(srv, source="127.0.0.6").login("alice", PW)
        root = self.user(srv, "root", PW)
        listing = root.command("banaddress")
        self.assertIn(b"  127.0.0.4/31 (configuration)\n\r", listing)
        self.assertIn(b"  2001:db8::/32 (configuration)\n\r", listing)
        self.assertEqual(root.command("unbanaddress 127.0.0.4/31"),
                         b"127.0.0.4/31 is not banned by an admin.\n\rfics% ")
        bad = self.new_server(config={"ban_addresses": "10.0.0.0/33"}, tls=False)
        bad.start(expect_exit=True)
        self.assertIn("ban_addresses: 10.0.0.0/33 is no address range", bad.log())

    def test_address_bans_limit(self):
        srv = self.server(address_bans=2, ban_addresses="192.0.2.0/24")
        root = self.user(srv, "root", PW)
        self.assertEqual(root.command("banaddress 198.51.100.0/24"),
                         b"198.51.100.0/24 is banned.\n\rfics% ")
        self.assertEqual(root.command("banaddress 203.0.113.0/24"),
                         b"203.0.113.0/24 could not be banned: it is banned already, or all 2 "
                         b"bans allowed (address_bans) are in use.\n\rfics% ")
        self.assertNotIn(b"203.0.113", root.command("banaddress"))
        root.command("unbanaddress 198.51.100.0/24")
        self.assertIn(b"is banned.", root.command("banaddress 203.0.113.0/24"))


if __name__ == "__main__":
    main()
