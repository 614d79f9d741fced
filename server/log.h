/* One line per event on stderr: time, level, message. */
#ifndef CHESSD_LOG_H
#define CHESSD_LOG_H

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

void log_set_level(enum log_level level);
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Logs and exits: for start-up failures and broken invariants only. */
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
