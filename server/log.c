#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "log.h"

static enum log_level threshold = LOG_INFO;

void log_set_level(enum log_level level)
{
	threshold = level;
}

static void log_vwrite(enum log_level level, const char *fmt, va_list ap)
{
	static const char *const names[] = { "debug", "info", "warn", "error" };
	struct timespec ts;
	struct tm tm;
	char stamp[32];

	if (level < threshold)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
	/* One fprintf call per line keeps lines whole even with a worker thread. */
	char line[1024];
	vsnprintf(line, sizeof line, fmt, ap);
	fprintf(stderr, "%s.%03ldZ %s %s\n", stamp, ts.tv_nsec / 1000000, names[level], line);
}

void log_debug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_DEBUG, fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_INFO, fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_WARN, fmt, ap);
	va_end(ap);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_ERROR, fmt, ap);
	va_end(ap);
}

void fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_ERROR, fmt, ap);
	va_end(ap);
	exit(1);
}
