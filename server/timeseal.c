#include <string.h>

#include "timeseal.h"

/* Bytes 0<->11, 2<->9 and 4<->7 of each block trade places (its own inverse). */
static void swap_blocks(unsigned char *p, size_t len)
{
	static const int pairs[3][2] = { { 0, 11 }, { 2, 9 }, { 4, 7 } };

	for (size_t at = 0; at + TIMESEAL_BLOCK <= len; at += TIMESEAL_BLOCK) {
		for (int k = 0; k < 3; k++) {
			unsigned char t = p[at + pairs[k][0]];
			p[at + pairs[k][0]] = p[at + pairs[k][1]];
			p[at + pairs[k][1]] = t;
		}
	}
}

void timeseal_init(struct timeseal *ts)
{
	memset(ts, 0, sizeof *ts);
	ts->client_ms = -1;
	ts->rtt_ms = -1;
}

int timeseal_decode(char *line, size_t len, size_t *text_len, int64_t *client_ms)
{
	unsigned char *p = (unsigned char *)line;
	static const char key[] = TIMESEAL_KEY;

	if (len < TIMESEAL_BLOCK + 1 || (len - 1) % TIMESEAL_BLOCK || p[len - 1] < 0x80)
		return -1;
	size_t offset = p[len - 1] & 0x7fu, n = len - 1;
	if (offset >= TIMESEAL_KEY_LEN)
		return -1;
	for (size_t i = 0; i < n; i++) {
		/* The client sent ((c | 0x80) ^ key) - 32 modulo 256. */
		unsigned v = ((p[i] + 32u) & 0xffu) ^ (unsigned char)key[(i + offset) % TIMESEAL_KEY_LEN];
		if (!(v & 0x80u))
			return -1;
		p[i] = (unsigned char)(v & 0x7fu);
	}
	swap_blocks(p, n);

	/* TEXT \x18 DIGITS \x19 FILLER, the filler at most one block. */
	size_t close = n;
	while (close > 0 && p[close - 1] != 0x19)
		close--;
	if (!close || n - close > TIMESEAL_BLOCK)
		return -1;
	close--;
	size_t open = close;
	int64_t ms = 0, scale = 1;
	while (open > 0 && p[open - 1] >= '0' && p[open - 1] <= '9') {
		if (close - open >= 10)
			return -1;
		ms += (p[open - 1] - '0') * scale;
		scale *= 10;
		open--;
	}
	if (open == close || !open || p[open - 1] != 0x18)
		return -1;
	open--;
	p[open] = '\0';
	*text_len = open;
	*client_ms = ms;
	return 0;
}

bool timeseal_detect(const char *line, size_t len)
{
	char copy[len + 1];
	size_t text_len;
	int64_t ms;

	if (!len || (unsigned char)line[len - 1] < 0x80)
		return false;
	memcpy(copy, line, len);
	return timeseal_decode(copy, len, &text_len, &ms) == 0;
}

bool timeseal_is_pong(const char *text, size_t len)
{
	return len == sizeof TIMESEAL_PING_REPLY - 1 && !memcmp(text, TIMESEAL_PING_REPLY, len);
}

enum timeseal_kind timeseal_input(struct timeseal *ts, char *line, size_t *len, int64_t now_ms)
{
	bool first = !ts->decided;
	size_t text_len;
	int64_t ms;

	if (first) {
		ts->decided = true;
		ts->on = timeseal_detect(line, *len);
	}
	if (!ts->on)
		return TIMESEAL_PLAIN;
	if (timeseal_decode(line, *len, &text_len, &ms) < 0)
		return TIMESEAL_GARBAGE;
	*len = text_len;
	ts->client_ms = ms;
	if (timeseal_is_pong(line, text_len)) {
		ts->rtt_ms = -1;
		ts->pong_tag = 0;
		if (ts->ping_count) {
			ts->rtt_ms = now_ms - ts->ping_sent_ms[ts->ping_first];
			if (ts->rtt_ms < 0)
				ts->rtt_ms = 0;
			ts->pong_tag = ts->ping_tag[ts->ping_first];
			ts->ping_first = (ts->ping_first + 1) % TIMESEAL_PINGS_MAX;
			ts->ping_count--;
		}
		return TIMESEAL_PONG;
	}
	if (first && !strncmp(line, TIMESEAL_HELLO, sizeof TIMESEAL_HELLO - 1))
		return TIMESEAL_HELLO_LINE;
	return TIMESEAL_COMMAND;
}

int timeseal_ping(struct timeseal *ts, int64_t now_ms, int tag)
{
	if (!ts->on || ts->ping_count >= TIMESEAL_PINGS_MAX)
		return -1;
	int at = (ts->ping_first + ts->ping_count) % TIMESEAL_PINGS_MAX;
	ts->ping_sent_ms[at] = now_ms;
	ts->ping_tag[at] = tag;
	ts->ping_count++;
	return 0;
}

int64_t timeseal_elapsed_ms(int64_t a, int64_t b)
{
	if (a < 0 || b < 0)
		return -1;
	int64_t d = (b - a) % TIMESEAL_CLOCK_WRAP_MS;
	return d < 0 ? d + TIMESEAL_CLOCK_WRAP_MS : d;
}
