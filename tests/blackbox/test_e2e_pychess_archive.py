"""End to end with pychess: its archive panel and adjourned games.

pychess (its own FICSMainConnection, driven as in test_e2e_pychess.py, whose
driver this file extends) logs in with an account and plays a scripted
raw-socket opponent.  The game is adjourned by agreement; pychess's
AdjournManager must then list it from the server's `stored` reply (its
onAdjournmentsList signal, what the archive panel shows), preview its moves
from `smoves` (archiveGamePreview), and resume it through its own resume()
(a `match` to the opponent): its BoardManager must announce the resumed game
(playGameCreated) on the position after the moves so far, with the server's
clocks, and play on.  When the game ends, the history list it asks for
holds it and the stored list is empty again.

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


def archive(conn, emit):
    """Runs in the pychess child: reports what the AdjournManager and the
    BoardManager make of the archive, and adds commands that use them."""
    from pychess.Utils.const import WHITE, reprResult
    adjourned = {}

    def on_adjournments(adm, games):
        adjourned.clear()
        listed = []
        for g in games:
            adjourned[g.opponent.name] = g
            listed.append({"opponent": g.opponent.name,
                           "color": "white" if g.our_color == WHITE else "black",
                           "length": g.length, "minutes": g.minutes, "inc": g.inc,
                           "rated": bool(g.rated), "online": bool(g.opponent.adjournment)})
        emit("adjournments", games=listed)

    def on_history(adm, games):
        emit("history", games=[{"white": g.wplayer.name, "black": g.bplayer.name,
                                "result": reprResult[g.result], "number": g.history_no,
                                "minutes": g.minutes, "inc": g.inc} for g in games])

    def on_preview(bm, game):
        emit("preview", white=game.wplayer.name, black=game.bplayer.name,
             result=reprResult[game.result], pgn=game.board.pgn)

    def on_created(bm, game):
        emit("created", game=game.gameno, white=game.wplayer.name, black=game.bplayer.name,
             minutes=game.minutes, inc=game.inc, fen=game.board.fen,
             wms=game.board.wms, bms=game.board.bms)

    conn.adm.connect("onAdjournmentsList", on_adjournments)
    conn.adm.connect("onHistoryList", on_history)
    conn.bm.connect("archiveGamePreview", on_preview)
    conn.bm.connect("playGameCreated", on_created)
    return {
        "stored": lambda cmd: conn.adm.queryAdjournments(),
        "preview": lambda cmd: conn.adm.queryMoves(adjourned[cmd["opponent"]]),
        "resume": lambda cmd: conn.adm.resume(adjourned[cmd["opponent"]]),
    }


class PychessArchiveTest(P.PychessTest):
    # The server, the children and the opponents as test_e2e_pychess sets
    # them up; its own tests run there, not twice.
    locals().update({n: None for n in dir(P.PychessTest) if n.startswith("test_")})

    def pychess_account(self, user, password):
        p = P.Pychess(self, self.srv.port, True, (user, password), script=__file__)
        self.kids.append(p)
        return p

    def play(self, me, opp, gameno, moves, first_ply):
        """Moves in turn from ply first_ply (pychess moves on odd plies, as white);
        pychess's parsed boards and clocks must be the server's."""
        for i, (uci, san) in enumerate(moves):
            ply = first_ply + i
            if ply % 2 == 1:
                me.send(op="move", move=uci)
            else:
                opp.send_line(uci)
            d = self.expect12(opp, game=gameno, san=san)
            ev = me.expect("move", game=gameno, ply=ply)
            self.assertEqual(ev["move"], san)
            self.assertEqual(P.fen_board(ev["fen"]), d["board"])
            self.assertEqual((ev["wms"], ev["bms"]), (d["wclock"], d["bclock"]))

    def test_adjourn_list_preview_resume(self):
        self.srv.useradd("pyplayer", "pypass1")
        self.srv.useradd("rival", "rpass1")
        me = self.pychess_account("pyplayer", "pypass1")
        self.assertEqual(me.expect("connected")["name"], "pyplayer")
        # No stored games yet ("pyplayer has no adjourned games.").
        me.send(op="stored")
        self.assertEqual(me.expect("adjournments")["games"], [])
        opp = self.connect(self.srv)
        opp.login("rival", "rpass1", timeout=T)
        for line in ("style 12", "iset ms 1"):
            opp.send_line(line)
            opp.expect_prompt(T)

        opp.send_line("seek 5 0 unrated black")
        opp.expect(re.compile(rb"Your seek has been posted with index (\d+)"), T)
        me.send(op="play", seek=int(opp.match.group(1)))
        made = me.expect("created")
        gameno = made["game"]
        self.assertEqual((made["white"], made["black"], made["minutes"], made["inc"]),
                         ("pyplayer", "rival", 5, 0))
        self.expect12(opp, game=gameno)
        self.play(me, opp, gameno, [("e2e4", "e4"), ("e7e5", "e5"), ("g1f3", "Nf3"),
                                    ("b8c6", "Nc6")], 1)

        # Adjourned by agreement: pychess offers, the opponent accepts.
        me.send(op="raw", line="adjourn")
        opp.expect(b"pyplayer would like to adjourn the game", T)
        opp.send_line("adjourn")
        end = me.expect("ended", game=gameno)
        self.assertEqual(end["result"], "*")
        # pychess re-reads its stored games when a game of its own is adjourned.
        listed = me.expect("adjournments", timeout=T)["games"]
        self.assertEqual(listed, [{"opponent": "rival", "color": "white", "length": 4,
                                   "minutes": 5, "inc": 0, "rated": False, "online": True}])

        # The archive panel's preview of the adjourned game: its moves so far.
        me.send(op="preview", opponent="rival")
        pv = me.expect("preview")
        self.assertEqual((pv["white"], pv["black"], pv["result"]), ("pyplayer", "rival", "*"))
        self.assertRegex(pv["pgn"], r"1\. e4 \{\[%emt [\d:.]+\]\} e5 \{\[%emt [\d:.]+\]\} "
                                    r"2\. Nf3 \{\[%emt [\d:.]+\]\} Nc6 \{\[%emt [\d:.]+\]\} \*")

        # pychess resumes it through its AdjournManager; the opponent agrees.
        me.send(op="resume", opponent="rival")
        opp.expect(b"pyplayer would like to resume", T)
        opp.send_line("resume pyplayer")
        d = self.expect12(opp)
        resumed = me.expect("created")
        self.assertEqual((resumed["white"], resumed["black"], resumed["minutes"],
                          resumed["inc"]), ("pyplayer", "rival", 5, 0))
        self.assertEqual(resumed["game"], d["game"])
        self.assertEqual(P.fen_board(resumed["fen"]),
                         "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R")
        self.assertEqual(P.fen_board(resumed["fen"]), d["board"])
        self.assertEqual(resumed["fen"].split(" ")[1], "w")
        self.assertEqual((resumed["wms"], resumed["bms"]), (d["wclock"], d["bclock"]))
        self.assertTrue(0 < resumed["wms"] <= 300000 and 0 < resumed["bms"] <= 300000, resumed)
        # Play goes on from move 3.
        self.play(me, opp, d["game"], [("f1b5", "Bb5"), ("a7a6", "a6")], 5)

        # The game ends: pychess's history list holds it, its stored list is empty.
        me.send(op="resign")
        self.assertEqual(me.expect("ended", game=d["game"])["result"], "0-1")
        hist = me.expect("history")["games"]
        self.assertEqual(len(hist), 1, hist)
        self.assertEqual((hist[0]["white"], hist[0]["black"], hist[0]["result"],
                          hist[0]["minutes"], hist[0]["inc"]), ("pyplayer", "rival", "0-1", 5, 0))
        me.send(op="stored")
        self.assertEqual(me.expect("adjournments")["games"], [])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--driver":
        P.driver(int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4], sys.argv[5], sys.argv[6],
                 extend=archive)
        return
    P.H.main()


if __name__ == "__main__":
    main()
