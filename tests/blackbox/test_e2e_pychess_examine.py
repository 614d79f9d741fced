"""End to end with pychess: examining a stored game from its archive panel.

pychess (its own FICSMainConnection, driven as in test_e2e_pychess.py, whose
driver this file extends) logs in with an account and asks for another
player's history (AdjournManager.queryHistory, what the archive panel lists).
Its Examine button calls AdjournManager.examine on the chosen game, which
sends "examine NAME N"; on the first board (relation 2, no last move) its
BoardManager asks for "smoves NAME N" and "forward 999", and announces the
examined game (exGameCreated) from the moves it read.  The game's moves then
reach pychess's move queue as the server steps through them, and the board
navigation of its game model (ICGameModel.goPrev / goNext, which send
"backward N" / "forward N") moves the board a pupil observes from a raw
socket.

A missing pychess or /usr/bin/python3 is a failure, not a skip.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import test_e2e_pychess as P  # noqa: E402

T = P.E2E_TIMEOUT
FOOLS_MATE = [("f2f3", "f3"), ("e7e5", "e5"), ("g2g4", "g4"), ("d8h4", "Qh4#")]


def examining(conn, emit):
    """Runs in the pychess child: the archive panel's history list and
    Examine button, and the examined game's navigation."""
    import asyncio
    import types
    from pychess.ic.ICGameModel import ICGameModel
    history = {}

    def on_history(adm, games):
        history.clear()
        for g in games:
            history[g.history_no] = g
        emit("history", owner=conn.history_owner, numbers=sorted(history))

    async def follow(game):
        while True:
            gameno, ply, curcol, lastmove, fen, wname, bname, wms, bms = \
                await game.move_queue.get()
            emit("examined_move", game=gameno, ply=ply, move=lastmove, fen=fen)

    def on_examined(bm, game):
        emit("examined", game=game.gameno, white=game.wplayer.name, black=game.bplayer.name,
             relation=game.relation, pgn=game.board.pgn if game.board else None)
        asyncio.ensure_future(follow(game))

    conn.adm.connect("onHistoryList", on_history)
    conn.bm.connect("exGameCreated", on_examined)
    # The game model's navigation needs only its connection.
    model = types.SimpleNamespace(connection=conn)
    return {
        "history": lambda cmd: conn.adm.queryHistory(cmd["owner"]),
        "examine": lambda cmd: conn.adm.examine(history[cmd["number"]]),
        "prev": lambda cmd: ICGameModel.goPrev(model, cmd["step"]),
        "next": lambda cmd: ICGameModel.goNext(model, cmd["step"]),
    }


class PychessExamineTest(P.PychessTest):
    # The server and children as test_e2e_pychess sets them up; its own tests
    # run there, not twice.
    locals().update({n: None for n in dir(P.PychessTest) if n.startswith("test_")})

    def test_examine_from_the_archive_and_step(self):
        srv = self.srv
        for name in ("pycoach", "alice", "bob"):
            srv.useradd(name, name + "pw1")
        a, b = self.connect(srv), self.connect(srv)
        a.login("alice", "alicepw1", timeout=T)
        b.login("bob", "bobpw1", timeout=T)
        for c in (a, b):
            for line in ("style 12", "iset ms 1"):
                c.send_line(line)
                c.expect_prompt(T)
        a.send_line("match bob 5 0 unrated white")
        b.expect(b"Challenge: ", T)
        b.send_line("accept")
        # Both sides have the game before the first move.
        self.expect12(a, san="none")
        self.expect12(b, san="none")
        for i, (uci, san) in enumerate(FOOLS_MATE):
            mover, other = (a, b) if i % 2 == 0 else (b, a)
            mover.send_line(uci)
            self.expect12(other, san=san)
        a.expect(re.compile(rb"\{Game \d+ \(alice vs\. bob\) [^}]*\} 0-1"), T)

        me = P.Pychess(self, srv.port, True, ("pycoach", "pycoachpw1"), script=__file__)
        self.kids.append(me)
        self.assertEqual(me.expect("connected")["name"], "pycoach")
        me.send(op="history", owner="alice")
        # (pychess also lists its own history at login: wait for alice's.)
        self.assertEqual(me.expect("history", owner="alice")["numbers"], ["0"])
        me.send(op="examine", number="0")
        ex = me.expect("examined")
        number = ex["game"]
        self.assertEqual((ex["white"], ex["black"], ex["relation"]), ("alice", "bob", 2))
        # The moves pychess read with smoves for its examined game.
        self.assertRegex(ex["pgn"], r"1\. f3 .*e5 .*2\. g4 .*Qh4#")
        # "forward 999" after smoves: every move of the game reached pychess.
        last = me.expect("examined_move", game=number, move="Qh4#")
        self.assertEqual(last["ply"], 4)
        self.assertEqual(P.fen_board(last["fen"]),
                         "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR")

        # A pupil observes; pychess's navigation moves the pupil's board.
        pupil = self.connect(srv)
        pupil.login_guest(T)
        pupil.send_line("style 12")
        pupil.expect_prompt(T)
        pupil.send_line("observe pycoach")
        d = self.expect12(pupil, game=number)
        self.assertEqual((d["relation"], d["san"]), (-2, "Qh4#"))
        me.send(op="prev", step=2)
        pupil.expect(re.compile(rb"Game %d: pycoach backs up 2 moves\." % number), T)
        self.assertEqual(self.expect12(pupil, game=number)["san"], "e5")
        ev = me.expect("examined_move", game=number, ply=2)
        self.assertEqual(ev["move"], "e5")
        me.send(op="next", step=1)
        pupil.expect(re.compile(rb"Game %d: pycoach goes forward 1 move\." % number), T)
        self.assertEqual(self.expect12(pupil, game=number)["san"], "g4")
        self.assertEqual(me.expect("examined_move", game=number, ply=3)["move"], "g4")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--driver":
        P.driver(int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4], sys.argv[5], sys.argv[6],
                 extend=examining)
        return
    P.H.main()


if __name__ == "__main__":
    main()
