/* Errors as one line of text in a caller's buffer: how common/ reports. */
#ifndef CHESS_ERROR_H
#define CHESS_ERROR_H

#include <stddef.h>

/* Formats the message into err (when err is not NULL) and returns -1. */
int error_set(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
