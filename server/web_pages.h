/* The web client's files from client/web/, embedded at build time. */
#ifndef CHESSD_WEB_PAGES_H
#define CHESSD_WEB_PAGES_H

struct web_page {
	const char *name;	/* "game.html" */
	const char *type;	/* its Content-Type */
	const char *body;
};

extern const struct web_page web_pages[];
extern const int web_page_count;

#endif
