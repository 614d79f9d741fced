"""The block-mode codes of password, reply, best, hbest, rank, hrank,
handles and limits are pychess's BLKCMD_* for them (read from the
installed pychess), and pychess's ChatManager reads a reply as the
private message it is."""
import re

from games_harness import FAST, GT, GamesTestCase, main
from lists_harness import pychess_patterns

NEW_CODES = [
    ("password a b", "PASSWORD"), ("passwd a b", "PASSWORD"), ("reply hi", "REPLY"),
    ("best", "BEST"), ("hbest b", "HBEST"), ("rank", "RANK"), ("rank 1-2", "RANK"),
    ("hrank alice", "HRANK"), ("handles al", "HANDLES"), ("limits", "LIMITS"),
    ("best x", "BEST"),
]


class NewCommandBlocks(GamesTestCase):

    def tearDown(self):
        self.stop_servers_clean()

    def bcmd(self, c, n, line):
        c.send_line("%d %s" % (n, line))
        c.expect(re.compile(rb"\x15%d\x16(\d+)\x16(.*?)\x17\n\r" % n, re.S), GT)
        return int(c.match.group(1)), c.match.group(2)

    def test_codes_are_pychess_codes(self):
        theirs = pychess_patterns()["BLKCMD"]
        srv = self.game_server()
        srv.useradd("alice", "alicepw1")
        c = self.user_player(srv, "alice", "alicepw1")
        c.send_line("iset block 1")
        c.expect(b"block set.\n\rfics% ", GT)
        for n, (line, name) in enumerate(NEW_CODES, 1):
            code, reply = self.bcmd(c, n, line)
            self.assertEqual(code, theirs["BLKCMD_" + name], (line, reply))

    def test_reply_is_a_private_message_to_pychess(self):
        pats = [p[0] for p in pychess_patterns()["onPrivateMessage"]]
        srv = self.game_server()
        for n in ("alice", "bob"):
            srv.useradd(n, n + "pw1")
        a = self.user_player(srv, "alice", "alicepw1")
        b = self.user_player(srv, "bob", "bobpw1")
        self.cmd(b, "tell alice hello")
        a.expect(b"bob tells you: hello", GT)
        self.cmd(a, "reply hi yourself")
        b.expect(re.compile(rb"\n\r(alice tells you: hi yourself)\n\r"), GT)
        line = b.match.group(1).decode()
        m = [re.match(p, line) for p in pats]
        got = [x for x in m if x]
        self.assertTrue(got, (line, pats))
        self.assertEqual((got[0].group(1), got[0].groups()[-1]), ("alice", "hi yourself"))


if __name__ == "__main__":
    main()
