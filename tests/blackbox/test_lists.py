#!/usr/bin/env python3
"""The list commands: +LIST/-LIST/=LIST, addlist/sublist/showlist (read as
pychess reads them), their texts, block-mode codes, the size cap, help."""
import re

from chessd_harness import ChessdTestCase, main
from lists_harness import pychess_patterns

PW = "secret1"


def lines(reply):
    """The text lines of a reply, the prompt dropped."""
    text = reply.decode().replace("\n\r", "\n")
    return [l for l in text.split("\n") if not l.startswith("fics% ")]


class Lists(ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.start_server(config={"list_entries": 3})
        for name in ("alice", "bob", "carol"):
            self.srv.useradd(name, PW)

    def login(self, name):
        return self.user(self.srv, name, PW)

    def test_showlist_names_every_list_as_pychess_reads_them(self):
        g = self.guest(self.srv)
        out = lines(g.command("showlist"))
        start, item = pychess_patterns()["onUpdateLists"][0]
        self.assertRegex(out[0], start)
        parsed = {}
        for line in out[1:]:
            self.assertRegex(line, item)
            if line:
                name, _, kind = line.split()
                parsed[name] = kind
        self.assertEqual(parsed, {
            "admin": "PUBLIC", "ban": "PUBLIC", "muzzle": "PUBLIC", "cmuzzle": "PUBLIC",
            "computer": "PUBLIC", "td": "PUBLIC", "censor": "PERSONAL", "gnotify": "PERSONAL",
            "noplay": "PERSONAL", "notify": "PERSONAL", "channel": "PERSONAL"})
        # FICS's column: the name padded to 20.
        self.assertIn("notify               is PERSONAL", out)

    def test_help(self):
        g = self.guest(self.srv)
        self.assertIn(b'"help lists"', g.command("help"))
        for topic in ("lists", "addlist", "sublist", "showlist"):
            text = g.command("help " + topic)
            for words in (b"+notify alice", b"+censor alice", b"+noplay alice", b"ban logins"):
                self.assertIn(words, text, "help %s lacks %s" % (topic, words))
        self.assertTrue(g.command("help addlist").startswith(
            b"addlist: Add a name to a list\n\rUsage: addlist <list> <name>"))
        self.assertIn(b"who has you on their", g.command("help znotify"))

    def test_add_remove_show_texts(self):
        a = self.login("alice")
        self.assertEqual(a.command("+notify bob"), b"[bob] added to your notify list.\n\rfics% ")
        self.assertEqual(a.command("+notify BOB"),
                         b"[bob] is already on your notify list.\n\rfics% ")
        self.assertEqual(a.command("addlist notify carol"),
                         b"[carol] added to your notify list.\n\rfics% ")
        reply = a.command("=notify")
        self.assertEqual(reply, b"-- notify list: 2 names --\n\rbob carol\n\rfics% ")
        head, item = pychess_patterns()["onUpdateListitems"][0]
        out = lines(reply)
        m = re.match(head, out[0])
        self.assertEqual(m.groups(), ("notify", "2"))
        self.assertRegex(out[1], item)
        self.assertEqual(a.command("showlist notify"), reply)
        # A unique prefix names the list; an ambiguous one or a stranger does not.
        self.assertEqual(a.command("=not"), reply)
        self.assertEqual(a.command("-notify bob"),
                         b"[bob] removed from your notify list.\n\rfics% ")
        self.assertEqual(a.command("sublist notify bob"),
                         b"[bob] is not in your notify list.\n\rfics% ")
        self.assertEqual(a.command("=notify"), b"-- notify list: 1 name --\n\rcarol\n\rfics% ")
        empty = a.command("=censor")
        self.assertEqual(empty, b"-- censor list: 0 names --\n\rfics% ")
        self.assertRegex(lines(empty)[0], pychess_patterns()["onUpdateEmptyListitems"][0][0])
        self.assertEqual(a.command("+notify nobodyhere"),
                         b"There is no player matching that name.\n\rfics% ")
        self.assertEqual(a.command("+xyz bob"), b'"xyz" does not match any list name.\n\rfics% ')
        self.assertEqual(a.command("+no bob"), b'"no" does not match any list name.\n\rfics% ')
        self.assertEqual(a.command("=zzz"), b'"zzz" does not match any list name.\n\rfics% ')
        for cmd in ("+censor bob", "+gnotify bob", "+noplay bob"):
            kind = cmd[1:].split()[0]
            self.assertEqual(a.command(cmd),
                             b"[bob] added to your %s list.\n\rfics%% " % kind.encode())
        # Public lists are read by anyone and changed only by admins.
        self.assertEqual(a.command("+ban bob"),
                         b'"ban" is not an appropriate list name or you have insufficient '
                         b'rights.\n\rfics% ')
        self.assertEqual(a.command("-muzzle bob"),
                         b'"muzzle" is not an appropriate list name or you have insufficient '
                         b'rights.\n\rfics% ')
        self.assertEqual(a.command("=ban"), b"-- ban list: 0 names --\n\rfics% ")
        # The channel list is a list too.
        self.assertEqual(a.command("addlist channel 7"),
                         b"[7] added to your channel list.\n\rfics% ")
        self.assertEqual(a.command("showlist channel"),
                         b"-- channel list: 1 channel --\n\r7 \n\rfics% ")
        self.assertEqual(a.command("sublist channel 7"),
                         b"[7] removed from your channel list.\n\rfics% ")
        self.assertEqual(a.command("addlist"),
                         b"Usage: addlist <list> <name>   (or +<list> <name>)\n\rfics% ")

    def test_block_mode_codes(self):
        # pychess files a reply by its code (pychess omits BLKCMD_SUBLIST: FICS's 129).
        codes = pychess_patterns()["BLKCMD"]
        a = self.login("alice")
        a.send_line("iset block 1")
        a.expect(b"block set.\n\r")
        for line, code, body in (
                ("4 +notify bob", codes["BLKCMD_ADDLIST"], b"[bob] added to your notify list.\n"),
                ("5 =notify", codes["BLKCMD_SHOWLIST"], b"-- notify list: 1 name --\nbob\n"),
                ("6 -notify bob", 129, b"[bob] removed from your notify list.\n"),
                ("7 znotify", codes["BLKCMD_ZNOTIFY"], None)):
            a.send_line(line)
            n = line.split()[0].encode()
            a.expect(re.compile(rb"\x15" + n + rb"\x16(\d+)\x16(.*?)\x17", re.S))
            self.assertEqual(int(a.match.group(1)), code, line)
            if body is not None:
                self.assertEqual(a.match.group(2).replace(b"\r", b""), body, line)

    def test_list_full_at_the_cap(self):
        for name in ("dave", "erin"):
            self.srv.useradd(name, PW)
        a = self.login("alice")
        for name in ("bob", "carol", "dave"):
            a.command("+noplay " + name)
        self.assertEqual(a.command("+noplay erin"), b"Sorry, your noplay list is full.\n\rfics% ")
        self.assertIn(b"3 names", a.command("=noplay"))
        # The cap is per list.
        self.assertEqual(a.command("+censor erin"), b"[erin] added to your censor list.\n\rfics% ")


if __name__ == "__main__":
    main()
