/* Replies the web modules share: JSON bodies, JSON errors, plain text. */
#ifndef CHESSD_WEB_HTTP_H
#define CHESSD_WEB_HTTP_H

#include <stddef.h>

#include <jansson.h>

#include "number.h"

struct evhttp_request;
struct evbuffer;

/* Sends obj (taking the reference) as application/json with this status. */
void web_reply_json(struct evhttp_request *req, int code, json_t *obj);
/* {"error": why} with the status. */
void web_reply_error(struct evhttp_request *req, int code, const char *why);
/* Sends body (taken) with this content type and status 200. */
void web_reply_body(struct evhttp_request *req, const char *type, struct evbuffer *body);
/* The value of a request header, or NULL. */
const char *web_header(struct evhttp_request *req, const char *name);
/*
 * Reads a number from a URL, a query or a header: decimal digits alone (no
 * sign, no blanks, so that one thing has one URL), then number_parse()'s
 * check of the range.  *out is set only on NUMBER_OK.
 */
enum number_status web_number(const char *text, long min, long max, long *out);
/* Whether the request's Accept names this media type. */
int web_accepts(struct evhttp_request *req, const char *type);

#endif
