/* Help topics: the longer texts printed by "help NAME" after a command's usage. */
#ifndef CHESSD_HELP_H
#define CHESSD_HELP_H

struct help_topic {
	const char *name;
	const char *text;
};

/* The topic called name (any case), or NULL. */
const struct help_topic *help_find(const char *name);

#endif
