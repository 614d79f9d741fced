#!/usr/bin/env python3
"""help: longer topics behind the main commands, and the time controls that
help shows are exactly ones the server accepts."""
import re

from chessd_harness import ChessdTestCase, main

# The example lines of "help timecontrol": two spaces, the control, two or more spaces.
EXAMPLE_RE = re.compile(rb"^  (\S+(?: \S+)?)  +", re.M)


class Help(ChessdTestCase):
    def setUp(self):
        super().setUp()
        self.srv = self.start_server()

    def test_seek_and_match_show_every_control_form(self):
        c = self.guest(self.srv)
        for topic in ("seek", "match", "timecontrol"):
            text = c.command("help " + topic)
            for form in (b"5d3", b"5s3", b"40/90,30+30", b"untimed", b"2 12"):
                self.assertIn(form, text, "help %s lacks %s" % (topic, form))
        # The usage line from the command table still comes first.
        self.assertTrue(c.command("help seek").startswith(b"seek: Advertise for a game\n\rUsage: seek"))

    def test_every_control_help_shows_is_accepted(self):
        c = self.guest(self.srv)
        text = c.command("help timecontrol").replace(b"\n\r", b"\n")
        forms = [m.group(1).decode() for m in EXAMPLE_RE.finditer(text)]
        self.assertGreaterEqual(len(forms), 8, text)
        for form in forms:
            reply = c.command("seek %s unrated" % form)
            self.assertRegex(reply, rb"Your seek has been posted with index \d+",
                             "help shows %r but seek refuses it" % form)
            c.command("unseek")

    def test_topics_and_unknown(self):
        c = self.guest(self.srv)
        self.assertIn(b"follow alice", c.command("help observe"))
        self.assertIn(b"smoves NAME N", c.command("help history"))
        self.assertIn(b'"help timecontrol"', c.command("help"))
        self.assertEqual(c.command("help nosuchthing"),
                         b'No help available on "nosuchthing".\n\rfics% ')


if __name__ == "__main__":
    main()
