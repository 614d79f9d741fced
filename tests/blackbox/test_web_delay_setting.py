"""`tourney set ID delay S`, black box: checked through the number parser
against tourney_delay_max_s, for the director only, shown by `tourney show`
and /api/tourney/ID, kept across a restart, and `default` gives
public_delay_s back (its effect on the web: test_web_delay.py)."""
from games_harness import main
from test_tourney import text
from test_web_delay import TourneyDelayBase
from web_harness import get_json


class DelaySettingTest(TourneyDelayBase):

    def test_set_checked_shown_and_kept(self):
        srv = self.delay_server(["director", "dla", "dlb"], config={"tourney_delay_max_s": 600})
        director = self.login(srv, "director")
        player = self.login(srv, "dla")
        tid = self.create(director, "Kept swiss 3 5 0")
        for bad in ("601", "-1", "x", "1e3", "99999999999999999999"):
            out = text(self.cmd(director, "tourney set %d delay %s" % (tid, bad)))
            self.assertEqual(out.strip().splitlines()[0],
                             "The web delay is a whole number of seconds from 0 to 600 "
                             "(tourney_delay_max_s), or default.", bad)
        self.assertIn(b"Only the director", self.cmd(player, "tourney set %d delay 5" % tid))
        self.assertNotIn(b"reach the web", self.cmd(director, "tourney show %d" % tid))
        _, t = get_json(srv.http_port, "/api/tourney/%d" % tid)
        self.assertEqual(t["delay"], 0)             # public_delay_s
        self.assertIn(b"Tourney %d: delay set to 600." % tid,
                      self.cmd(director, "tourney set %d delay 600" % tid))
        self.assertIn(b"Its games' moves reach the web 600 seconds late.",
                      self.cmd(director, "tourney show %d" % tid))
        self.assertIn(b"tourney set ID delay SECONDS|default", self.cmd(director, "help tourney"))
        srv.stop()
        srv.start()
        director = self.login(srv, "director")
        self.assertIn(b"reach the web 600 seconds late.", self.cmd(director, "tourney show %d" % tid))
        _, t = get_json(srv.http_port, "/api/tourney/%d" % tid)
        self.assertEqual(t["delay"], 600)
        self.cmd(director, "tourney set %d delay default" % tid)
        self.assertNotIn(b"reach the web", self.cmd(director, "tourney show %d" % tid))
        _, t = get_json(srv.http_port, "/api/tourney/%d" % tid)
        self.assertEqual(t["delay"], 0)


if __name__ == "__main__":
    main()
