#include "known_hosts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int known_hosts_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg)
		n = snprintf(buf, len, "%s/chess/known_hosts", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.config/chess/known_hosts", home);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

void known_hosts_format(const unsigned char digest[32], char *buf)
{
	for (int i = 0; i < 32; i++)
		sprintf(buf + 3 * i, "%02X%s", digest[i], i < 31 ? ":" : "");
}

/* mkdir -p of the directories above path, private to the user. */
static int make_parents(const char *path)
{
	char dir[4096];

	if (strlen(path) >= sizeof dir)
		return -1;
	strcpy(dir, path);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

enum known_host known_hosts_check(const char *path, const char *host, int port,
    const char *fingerprint, char *pinned, size_t pinned_len, char *why, size_t why_len)
{
	char key[300], line[512];
	FILE *f;

	snprintf(key, sizeof key, "%s:%d", host, port);
	if ((f = fopen(path, "r"))) {
		while (fgets(line, sizeof line, f)) {
			char name[300], fp[KNOWN_HOSTS_FINGERPRINT_MAX];
			if (line[0] == '#' || sscanf(line, "%299s %99s", name, fp) != 2 ||
			    strcmp(name, key))
				continue;
			fclose(f);
			if (!strcmp(fp, fingerprint))
				return KNOWN_HOST_MATCH;
			snprintf(pinned, pinned_len, "%s", fp);
			return KNOWN_HOST_CHANGED;
		}
		fclose(f);
	} else if (errno != ENOENT) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		return KNOWN_HOST_ERROR;
	}
	return KNOWN_HOST_NEW;
}

int known_hosts_pin(const char *path, const char *host, int port, const char *fingerprint,
    char *why, size_t why_len)
{
	FILE *f;

	if (make_parents(path) < 0 || !(f = fopen(path, "a"))) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "%s:%d %s\n", host, port, fingerprint);
	if (fclose(f) != 0) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
