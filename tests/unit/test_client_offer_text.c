/* offer_text_render: seek and offer lines for programs, said in words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "offer_text.h"

static const struct {
	const char *in;
	enum offer_text kind;
	const char *out;
} cases[] = {
	{ "<s> 10 w=alice ti=00 rt=1500  t=3 i=0 r=r tp=blitz c=? rr=0-9999 a=t f=t",
	  OFFER_TEXT_SAID, "Seek 10: alice (1500) 3 0 rated blitz" },
	{ "<s> 12 w=GuestABCD ti=01 rt=0  t=5 i=2 r=u tp=blitz c=W rr=0-9999 a=t f=f",
	  OFFER_TEXT_SAID, "Seek 12: GuestABCD (----) 5 2 unrated blitz [white]" },
	{ "<s> 3 w=bob ti=00 rt=1612P t=15 i=0 r=r tp=standard c=B rr=0-9999 a=f f=f",
	  OFFER_TEXT_SAID, "Seek 3: bob (1612) 15 0 rated standard [black]" },
	{ "<sr> 10", OFFER_TEXT_SAID, "Seek 10 removed." },
	{ "<sr> 10 11", OFFER_TEXT_SAID, "Seeks 10 11 removed." },
	{ "<sc>", OFFER_TEXT_QUIET, "" },
	{ "<pf> 7 w=bob t=match p=bob (1612) alice (1500) rated blitz 5 0", OFFER_TEXT_SAID,
	  "Offer 7 from bob: match bob (1612) alice (1500) rated blitz 5 0" },
	{ "<pt> 8 w=carol t=match p=alice (1500) carol (----) unrated blitz 3 0", OFFER_TEXT_SAID,
	  "Offer 8 to carol: match alice (1500) carol (----) unrated blitz 3 0" },
	{ "<pf> 9 w=bob t=draw p=#", OFFER_TEXT_SAID, "Offer 9 from bob: draw #" },
	{ "<pr> 7", OFFER_TEXT_SAID, "Offer 7 removed." },
	/* Not such lines, or broken ones: shown as they are. */
	{ "alice (1500) seeking 3 0 rated blitz (\"play 10\" to respond)", OFFER_TEXT_NONE, "" },
	{ "<12> rnbqkbnr", OFFER_TEXT_NONE, "" },
	{ "<s> x w=alice", OFFER_TEXT_NONE, "" },
	{ "<s> 10 ti=00", OFFER_TEXT_NONE, "" },
	{ "<sr> ", OFFER_TEXT_NONE, "" },
	{ "<sr> 1 x", OFFER_TEXT_NONE, "" },
	{ "<pf> 7", OFFER_TEXT_NONE, "" },
	{ "<sc> more", OFFER_TEXT_NONE, "" },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char out[256];
		enum offer_text kind = offer_text_render(cases[i].in, out, sizeof out);
		if (kind != cases[i].kind || (kind == OFFER_TEXT_SAID && strcmp(out, cases[i].out)))
			fail_msg("%s: got %d \"%s\"", cases[i].in, (int)kind, out);
	}
}

/* A long line is cut to the buffer, never overrun. */
static void test_small_buffer(void **state)
{
	char out[12];

	(void)state;
	memset(out, 'x', sizeof out);
	assert_int_equal(offer_text_render("<pf> 7 w=bob t=match p=bob (1612) alice (1500) rated "
	    "blitz 5 0", out, 8), OFFER_TEXT_SAID);
	assert_string_equal(out, "Offer 7");
	assert_int_equal(out[9], 'x');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_small_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
