#!/usr/bin/env python3
"""rematch and say after a game go to the opponent who played it: the same
account, or the same guest session, never to whoever now has the name."""
from games_harness import GamesTestCase, main


class RematchIdentity(GamesTestCase):
    def test_name_taken_by_someone_else_gets_nothing(self):
        srv = self.game_server()
        a = self.guest_player(srv)
        b = self.connect(srv)
        b.login_unregistered("carol")
        self.setup_client(b)
        self.start_match(a, b, "5 0")
        a.send_line("resign")
        self.end_line(a)
        self.end_line(b)
        b.send_line("quit")
        b.expect_closed()
        # Someone else logs in as carol.
        impostor = self.connect(srv)
        impostor.login_unregistered("carol")
        self.setup_client(impostor)
        self.assertIn(b"carol is not logged in.", self.cmd(a, "rematch"))
        self.assertIn(b"carol is not logged in.", self.cmd(a, "say good game"))
        heard = impostor.read_for(0.5)
        self.assertNotIn(b"Challenge", heard)
        self.assertNotIn(b"good game", heard)

    def test_the_same_opponent_still_gets_them(self):
        srv = self.game_server()
        a, b = self.guest_player(srv), self.guest_player(srv)
        self.start_match(a, b, "5 0")
        a.send_line("resign")
        self.end_line(a)
        self.end_line(b)
        self.cmd(a, "say good game")
        b.expect(b"good game")
        self.assertIn(b"Issuing:", self.cmd(a, "rematch"))
        b.expect(b"Challenge:")


if __name__ == "__main__":
    main()
