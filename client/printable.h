/*
 * Server text made harmless to print.  Whatever a server sends, hostile or
 * spoofed, must not drive the user's terminal: retitle it, clear it, move
 * the cursor, recolour it or reorder what it shows.  The client's own
 * escapes are written by term.c and board_view.c, never through here.
 */
#ifndef CHESS_CLIENT_PRINTABLE_H
#define CHESS_CLIENT_PRINTABLE_H
#include <stddef.h>

/*
 * Cleans a NUL-terminated line in place and returns its new length.  Each
 * escape sequence (ESC or C1 introduced: CSI with its parameters, OSC, DCS
 * and the other strings up to their terminator, two- and three-byte escapes)
 * becomes one '?', as does each other C0 control but tab, DEL, each C1
 * control, bidi embedding, override or isolate, U+2028, U+2029 and each byte
 * that is not part of well-formed UTF-8.
 */
size_t printable_clean(char *line);
#endif
