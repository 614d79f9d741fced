#!/usr/bin/env python3
"""inchannel N as lasker's com_inchannel lists a channel ("Channel 77: a b",
"Channel 78 is empty."), with the count line in the words pychess's
ChatManager reads to the end of the list ("2 players are in channel 77.",
its expect_fromto getChannelPlayers); lasker's "2 people are in ..." and
the old one-line "(2 players)" never closed that list.  The replies are fed
to the installed pychess itself (test_conformance_pychess's oracle)."""
import re

import test_conformance_pychess as pychess_oracle
from games_harness import GamesTestCase, main


class InchannelPychess(GamesTestCase):

    def test_pychess_reads_the_members_and_the_empty_channel(self):
        srv = self.game_server()
        a, b, asker = (self.guest_player(srv) for _ in range(3))
        for c in (a, b):
            self.assertIn(b"[77] added to your channel list.", self.cmd(c, "+channel 77"))
        names = sorted([a.name, b.name], key=str.lower)
        self.assertEqual(self.cmd(asker, "inchannel 77"),
                         b"Channel 77: %s(U) %s(U)\n\r2 players are in channel 77.\n\r" % (
                             names[0].encode(), names[1].encode()))
        self.assertEqual(self.cmd(asker, "inchannel 78"), b"Channel 78 is empty.\n\r")
        self.cmd(b, "-channel 77")
        self.assertEqual(self.cmd(asker, "inchannel 77"),
                         b"Channel 77: %s(U)\n\r1 player is in channel 77.\n\r" % a.name.encode())
        # The same replies in block mode, as pychess runs, read by pychess.
        asker.send_line("iset block 1")
        asker.expect(b"block set.\n\rfics% ")
        start = len(asker.seen)
        for i, line in enumerate(("inchannel 77", "inchannel 78"), 1):
            asker.send_line("%d %s" % (i, line))
            asker.expect(re.compile(rb"\x15%d\x16\d+\x16.*?\x17" % i, re.S))
        got = pychess_oracle.ask_pychess({"asker": asker.seen[start:]})["transcripts"]["asker"]
        members = pychess_oracle.handlers(got, "getChannelPlayers")
        self.assertEqual(len(members), 1, got)
        self.assertEqual(members[0]["groups"][0][0], "77")
        self.assertEqual(members[0]["groups"][0][2], "%s(U)" % a.name)
        self.assertEqual(members[0]["lines"][-1], "1 player is in channel 77.")
        empty = pychess_oracle.handlers(got, "getNoChannelPlayers")
        self.assertEqual([e["groups"][0] for e in empty], [["78"]], got)


if __name__ == "__main__":
    main()
