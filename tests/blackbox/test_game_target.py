"""The command table resolves a command's game before its handler: a player's
verbs with no game get one line in the command's own block, and commands
that name a game find it (or say why not) the same way for every command.
"""
import re

from games_harness import GT, GamesTestCase, main

# command, FICS block code (pychess BLKCMD_*)
PLAYING = [("resign", 103), ("draw", 34), ("abort", 10), ("adjourn", 13),
           ("takeback 2", 131), ("flag", 38)]


class GameTargetTest(GamesTestCase):

    def block(self, c, ident, line):
        c.send_line("%d %s" % (ident, line))
        c.expect(re.compile(rb"\x15%d\x16(\d+)\x16(.*?)\x17\n\r" % ident, re.S), GT)
        return int(c.match.group(1)), c.match.group(2)

    def test_playing_verbs_without_a_game(self):
        srv = self.game_server()
        g = self.guest_player(srv)
        g.send_line("iset block 1")
        g.expect(b"block set.\n\rfics% ", GT)
        for ident, (line, code) in enumerate(PLAYING, 1):
            got, body = self.block(g, ident, line)
            self.assertEqual(got, code, line)
            self.assertEqual(body, b"You are not playing a game.\n\r", line)
        # The connection and the server go on.
        self.assertIn(b"Style 12 set.", self.block(g, 99, "style 12")[1])

    def test_named_game_resolved_once(self):
        srv = self.game_server()
        w, b, o = (self.guest_player(srv) for _ in range(3))
        self.assertIn(b"You are neither playing nor observing a game.\n\r", self.cmd(o, "moves"))
        self.assertIn(b"You are neither playing nor observing a game.\n\r", self.cmd(o, "refresh"))
        self.assertIn(b"There is no such game.\n\r", self.cmd(o, "observe 77"))
        self.assertIn(b"There is no such game.\n\r", self.cmd(o, "moves 77"))
        self.assertIn(b"%s is not playing a game.\n\r" % w.name.encode(),
                      self.cmd(o, "observe %s" % w.name))
        self.cmd(w, "match %s 5 0 white" % b.name)
        b.expect(b"Challenge: ", GT)
        self.cmd(b, "accept")
        w.expect(b"Creating: ", GT)
        out = self.cmd(o, "observe %s" % b.name)
        self.assertIn(b"You are now observing game 1.", out)
        # With no argument: the game one observes; then one's own for players.
        self.assertIn(b"Movelist for game 1:", self.cmd(o, "moves"))
        self.assertIn(b"Movelist for game 1:", self.cmd(w, "moves"))
        self.assertIn(b"<12> ", self.cmd(b, "refresh"))
        self.assertIn(b"%s resigns} 1-0" % b.name.encode(), self.cmd(b, "resign"))
        self.assertIn(b"You are not playing a game.\n\r", self.cmd(b, "resign"))


if __name__ == "__main__":
    main()
