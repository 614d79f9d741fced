/* verdicts: the 6.9 decision on worker threads, delivered on the loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <event2/event.h>

#include "fen.h"
#include "verdict.h"

/* White can mate, Black cannot. */
#define KING_ROOK_V_KING "8/8/4k3/8/8/4K3/8/R7 w - - 0 1"

struct answer {
	int calls;
	enum unwinnable_verdict v;
};

static void take(void *arg, enum unwinnable_verdict v)
{
	struct answer *a = arg;

	a->calls++;
	a->v = v;
}

static struct board board_of(const char *fen)
{
	struct board b;
	char err[128];

	assert_int_equal(fen_parse(&b, fen, err, sizeof err), 0);
	return b;
}

/* A loop with verdicts (threads workers, queue places) on it. */
static struct verdicts *verdicts_on(struct event_base **base, int threads, int queue)
{
	struct verdicts *vs;

	*base = event_base_new();
	assert_non_null(*base);
	vs = verdicts_new(*base, threads, queue);
	assert_non_null(vs);
	return vs;
}

static void verdicts_off(struct event_base *base, struct verdicts *vs)
{
	verdicts_free(vs);
	event_base_free(base);
}

/* Runs the loop until every submitted decision was delivered (or dropped). */
static void settle(struct event_base *base, struct verdicts *vs)
{
	for (int i = 0; verdicts_queued(vs) > 0 && i < 100000; i++)
		event_base_loop(base, EVLOOP_ONCE);
	assert_int_equal(verdicts_queued(vs), 0);
}

static void decides_on_a_copy(void **state)
{
	struct event_base *base;
	struct verdicts *vs = verdicts_on(&base, 2, 8);
	struct answer bare = { 0 }, rook = { 0 };

	(void)state;
	assert_int_equal(verdicts_threads(vs), 2);
	struct board b = board_of(KING_ROOK_V_KING);
	assert_non_null(verdicts_submit(vs, &b, BLACK, 100000, take, &bare));
	assert_non_null(verdicts_submit(vs, &b, WHITE, 100000, take, &rook));
	/* The worker has its own copy: the caller's board may change at once. */
	board_start(&b);
	settle(base, vs);
	assert_int_equal(bare.calls, 1);
	assert_int_equal(bare.v, UNWINNABLE_UNWINNABLE);
	assert_int_equal(rook.calls, 1);
	assert_int_equal(rook.v, UNWINNABLE_WINNABLE);
	verdicts_off(base, vs);
}

static void a_full_queue_refuses_until_delivered(void **state)
{
	struct event_base *base;
	struct verdicts *vs = verdicts_on(&base, 1, 1);
	struct answer first = { 0 }, later = { 0 };
	struct board b = board_of(KING_ROOK_V_KING);

	(void)state;
	assert_non_null(verdicts_submit(vs, &b, WHITE, 100000, take, &first));
	assert_null(verdicts_submit(vs, &b, WHITE, 100000, take, &later));
	settle(base, vs);
	assert_int_equal(first.calls, 1);
	assert_int_equal(later.calls, 0);
	assert_non_null(verdicts_submit(vs, &b, WHITE, 100000, take, &later));
	settle(base, vs);
	assert_int_equal(later.calls, 1);
	verdicts_off(base, vs);
}

static void a_cancelled_decision_is_never_delivered(void **state)
{
	struct event_base *base;
	struct verdicts *vs = verdicts_on(&base, 1, 4);
	struct answer gone = { 0 }, kept = { 0 };
	struct board b = board_of(KING_ROOK_V_KING);

	(void)state;
	struct verdict_job *job = verdicts_submit(vs, &b, WHITE, 100000, take, &gone);
	assert_non_null(job);
	assert_non_null(verdicts_submit(vs, &b, WHITE, 100000, take, &kept));
	verdicts_cancel(vs, job);
	settle(base, vs);
	assert_int_equal(gone.calls, 0);
	assert_int_equal(kept.calls, 1);
	verdicts_off(base, vs);
}

static void freed_with_decisions_pending(void **state)
{
	struct event_base *base;
	struct verdicts *vs = verdicts_on(&base, 1, 4);
	struct answer a = { 0 };
	/* A decision that takes its whole budget, and more waiting behind it. */
	struct board b = board_of("7k/8/5pB1/5P2/8/6n1/1b6/1K6 b - - 0 1");

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_non_null(verdicts_submit(vs, &b, WHITE, 20000, take, &a));
	verdicts_free(vs);	/* joins the worker; nothing is delivered, nothing leaks */
	assert_int_equal(a.calls, 0);
	event_base_free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decides_on_a_copy),
		cmocka_unit_test(a_full_queue_refuses_until_delivered),
		cmocka_unit_test(a_cancelled_decision_is_never_delivered),
		cmocka_unit_test(freed_with_decisions_pending),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
