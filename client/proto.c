#include "proto.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "printable.h"

enum block_state { B_NONE, B_ID, B_CODE, B_BODY };
enum iac_state { IAC_NONE, IAC_COMMAND, IAC_OPTION };

struct proto {
	struct proto_callbacks cb;
	void *arg;
	char line[PROTO_LINE_MAX + sizeof PROTO_CUT_MARK];
	size_t used;
	bool cut;		/* the line was longer than the buffer */
	bool cr_pending;	/* a CR, line end only if a newline follows */
	enum block_state block;
	long block_id;
	int block_code;
	enum iac_state iac;
	bool swallow_newline;	/* the "\n" after a prompt or block end ends no line */
};

struct proto *proto_new(const struct proto_callbacks *cb, void *arg)
{
	struct proto *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->cb = *cb;
	p->arg = arg;
	p->block_id = PROTO_NO_BLOCK;
	return p;
}

void proto_free(struct proto *p)
{
	free(p);
}

static long current_block(const struct proto *p)
{
	return p->block == B_BODY ? p->block_id : PROTO_NO_BLOCK;
}

/* A partial line that is exactly a prompt is taken as one. */
static bool take_prompt(struct proto *p)
{
	static const struct { const char *text; enum proto_prompt kind; } prompts[] = {
		{ "login: ", PROMPT_LOGIN }, { "password: ", PROMPT_PASSWORD },
		{ "fics% ", PROMPT_COMMAND },
	};
	for (size_t i = 0; i < sizeof prompts / sizeof prompts[0]; i++) {
		size_t n = strlen(prompts[i].text);
		if (p->used == n && !memcmp(p->line, prompts[i].text, n)) {
			p->used = 0;
			p->swallow_newline = true;
			if (p->cb.prompt)
				p->cb.prompt(p->arg, prompts[i].kind);
			return true;
		}
	}
	return false;
}

static void flush_line(struct proto *p)
{
	char *text = p->line;

	p->line[p->used] = '\0';
	p->used = 0;
	/* A prompt the server wrote before unsolicited text. */
	while (!strncmp(text, "fics% ", 6))
		text += 6;
	size_t len = printable_clean(text);
	if (p->cut)
		memcpy(text + len, PROTO_CUT_MARK, sizeof PROTO_CUT_MARK);
	p->cut = false;
	if (p->cb.line)
		p->cb.line(p->arg, text, current_block(p));
}

/* Keeps one byte of the line being read; past the buffer, only notes the cut. */
static void keep(struct proto *p, unsigned char c)
{
	/* A NUL would end the line early: kept as another C0 control, shown as '?'. */
	if (c == '\0')
		c = 0x01;
	if (p->used < PROTO_LINE_MAX - 1)
		p->line[p->used++] = (char)c;
	else
		p->cut = true;
}

static void byte(struct proto *p, unsigned char c)
{
	switch (p->iac) {
	case IAC_COMMAND:
		p->iac = c >= 251 && c <= 254 ? IAC_OPTION : IAC_NONE;
		return;
	case IAC_OPTION:
		p->iac = IAC_NONE;
		return;
	case IAC_NONE:
		break;
	}
	if (c == 255) {
		p->iac = IAC_COMMAND;
		return;
	}
	if (p->block == B_ID || p->block == B_CODE) {
		if (c >= '0' && c <= '9') {
			/* A number too long for its type is no id or code of ours: pin it. */
			if (p->block == B_ID)
				p->block_id = p->block_id > (LONG_MAX - 9) / 10 ? LONG_MAX :
				    p->block_id * 10 + (c - '0');
			else
				p->block_code = p->block_code > (INT_MAX - 9) / 10 ? INT_MAX :
				    p->block_code * 10 + (c - '0');
		} else if (c == 0x16) {
			p->block = p->block == B_ID ? B_CODE : B_BODY;
		}
		return;
	}
	switch (c) {
	case 0x15:	/* block start */
		p->cr_pending = false;
		if (p->used && !take_prompt(p))
			flush_line(p);
		p->block = B_ID;
		p->block_id = 0;
		p->block_code = 0;
		return;
	case 0x17:	/* block end */
		p->cr_pending = false;
		if (p->used)
			flush_line(p);
		if (p->block == B_BODY) {
			long id = p->block_id;
			int code = p->block_code;
			p->block = B_NONE;
			p->block_id = PROTO_NO_BLOCK;
			p->swallow_newline = true;
			if (p->cb.block_end)
				p->cb.block_end(p->arg, id, code);
		}
		return;
	case '\r':
		/* "\n\r" ends FICS lines; a CR inside a line could overwrite it on screen. */
		p->cr_pending = p->used > 0;
		return;
	case '\n':
		p->cr_pending = false;
		if (p->swallow_newline && !p->used) {
			p->swallow_newline = false;
			return;
		}
		if (!take_prompt(p))
			flush_line(p);
		return;
	default:
		p->swallow_newline = false;
		if (p->cr_pending)
			keep(p, '\r');
		p->cr_pending = false;
		keep(p, c);
	}
}

void proto_feed(struct proto *p, const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		byte(p, (unsigned char)data[i]);
	if (p->used && p->block != B_BODY)
		take_prompt(p);
}
