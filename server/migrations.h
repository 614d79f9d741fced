/* The schema migrations from sql/, embedded at build time. */
#ifndef CHESSD_MIGRATIONS_H
#define CHESSD_MIGRATIONS_H

struct migration {
	int version;		/* the PRAGMA user_version it brings the database to */
	const char *name;
	const char *sql;
};

extern const struct migration migrations[];
extern const int migration_count;

#endif
