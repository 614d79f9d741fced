"""handles PREFIX (lasker's com_handles: "Found N names." and the names in
lasker's columns) and limits (lasker's com_limits, with this server's
limits as configured)."""
import sqlite3

from chessd_harness import ChessdTestCase, main

NAMES = ["alice", "alfred", "Albert", "bob", "zed", "zzz", "alicia"]


class Handles(ChessdTestCase):

    def tearDown(self):
        self.stop_servers_clean()

    def server(self, names=NAMES, config=None):
        srv = self.new_server(config=config)
        srv.useradd("viewer", "secret1")
        con = sqlite3.connect(srv.db_path)
        con.executemany("INSERT INTO users (name, password, created) VALUES (?, 'scrypt$x', 0)",
                        [(n,) for n in names])
        con.commit()
        con.close()
        srv.start()
        return srv

    def test_names_beginning_with(self):
        srv = self.server()
        g = self.guest(srv)
        # In name order ignoring case; each column the longest name and a blank.
        found = (b"Found 4 names.\n\r\n\r"
                 b"Albert alfred alice  alicia \n\rfics% ")
        self.assertEqual(g.command("handles al"), found)
        self.assertEqual(g.command("handles AL"), found)
        self.assertEqual(g.command("handles alic"),
                         b"Found 2 names.\n\r\n\ralice  alicia \n\rfics% ")
        self.assertEqual(g.command("handles z"), b"Found 2 names.\n\r\n\rzed zzz \n\rfics% ")
        self.assertEqual(g.command("handles bob"), b"Found 1 names.\n\r\n\rbob \n\rfics% ")
        self.assertEqual(g.command("handles q"), b"Found 0 names.\n\rfics% ")
        # Guests are not registered names.
        self.assertNotIn(g.name.encode(), g.command("handles guest"))

    def test_bad_prefix_is_one_line(self):
        srv = self.server()
        g = self.guest(srv)
        self.assertEqual(g.command("handles"), b"Usage: handles <beginning of a name>\n\rfics% ")
        self.assertEqual(g.command("handles a%"),
                         b'Names have letters only; "a%" begins none.\n\rfics% ')
        self.assertEqual(g.command("handles _"),
                         b'Names have letters only; "_" begins none.\n\rfics% ')
        self.assertEqual(g.command("handles " + "a" * 18),
                         b'Names have at most 17 letters; "' + b"a" * 18 + b'" begins none.\n\rfics% ')
        self.assertEqual(g.command("handles a b"), b"Usage: handles <beginning of a name>\n\rfics% ")
        self.assertIn(b"Found 4 names.", g.command("handles al"))

    def test_columns_follow_the_width(self):
        names = ["na%s%s" % (chr(97 + i // 26), chr(97 + i % 26)) for i in range(30)]
        srv = self.server(names=names)
        g = self.guest(srv)
        self.assertEqual(g.command("set width 32"), b"Width set to 32.\n\rfics% ")
        out = g.command("handles na").split(b"\n\r")
        self.assertEqual(out[0], b"Found 30 names.")
        self.assertEqual(out[1], b"")
        # 4 letters and a blank: 6 columns in 32, 5 lines, down then across;
        # the last column of a line has no blank after it.
        rows = out[2:-1]
        self.assertEqual(len(rows), 5, out)
        self.assertEqual(rows[0], b"naaa naaf naak naap naau naaz")
        self.assertEqual(rows[4], b"naae naaj naao naat naay nabd")

    def test_handles_shown_limit(self):
        srv = self.server(config={"handles_shown": 2})
        g = self.guest(srv)
        self.assertEqual(g.command("handles al"),
                         b"Found 2 names.\n\r\n\rAlbert alfred \n\r"
                         b'More names begin with "al"; give a longer beginning to see them.\n\r'
                         b"fics% ")
        self.assertEqual(g.command("handles alic"),
                         b"Found 2 names.\n\r\n\ralice  alicia \n\rfics% ")


class Limits(ChessdTestCase):

    def tearDown(self):
        self.stop_servers_clean()

    def test_limits_as_configured(self):
        srv = self.start_server(config={"list_entries": 9, "messages_per_user": 7,
                                        "seeks_per_user": 2, "handles_shown": 55,
                                        "rank_lines": 44})
        g = self.guest(srv)
        self.assertEqual(g.command("limits").decode(),
                         "\n\rCurrent limits:\n\r"
                         "  Max number of channels and max capacity: 256\n\r"
                         "  Max number of channels one can be in: 64\n\r"
                         "  Max number of people on the notify list: 9\n\r"
                         "  Max number of people on the censor list: 9\n\r"
                         "  Max number of messages one can receive: 7\n\r"
                         "  Max number of aliases: 64\n\r"
                         "  Max number of games one can observe: 30\n\r"
                         "  Max number of seeks one can have posted: 2\n\r"
                         "  Max number of match requests one can have pending: 20\n\r"
                         "  Max number of games one can start in a minute: 12\n\r"
                         "  Max length of a line (bytes): 1024\n\r"
                         "  Max number of commands per second: 20 (bursts of 60)\n\r"
                         "  Max number of names handles shows: 55\n\r"
                         "  Max number of lines rank shows: 44\n\r"
                         "  Ranked once the rating's RD is below: 110\n\r"
                         "fics% ")
        self.assertEqual(g.command("limits now"), b"Usage: limits\n\rfics% ")
        self.assertIn(b"limits in effect", g.command("help limits"))
        self.assertIn(b"handles_shown", g.command("help handles"))


if __name__ == "__main__":
    main()
