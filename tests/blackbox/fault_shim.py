"""A write-fault library for the storage tests, and a mixin that runs chessd under it.

The library, compiled by the test and preloaded into chessd, fails SQLite's
pwrite() calls while a flag file exists.  The flag holds an errno name
(EIO, EROFS or ENOSPC) and, after it, optionally how many writes still
succeed before the failures start (counted afresh whenever the flag's text
changes, or once it has been removed); so "EIO" fails every write and
"EIO 7" lets exactly the first seven through.
"""
import os
import sqlite3
import textwrap

from chessd_harness import build_preload, start_preloaded

FAULT_SHIM = textwrap.dedent(r"""
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <errno.h>
    #include <fcntl.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/types.h>
    #include <unistd.h>

    static char seen[64];
    static long budget;

    static int fault(void)
    {
        const char *flag = getenv("CHESSD_FAULT_FLAG");
        char what[64] = "";
        int fd = flag ? open(flag, O_RDONLY) : -1;

        if (fd < 0) {
            seen[0] = '\0';
            return 0;
        }
        ssize_t n = read(fd, what, sizeof what - 1);
        close(fd);
        what[n > 0 ? n : 0] = '\0';
        if (strcmp(what, seen)) {
            const char *sp = strchr(what, ' ');
            strcpy(seen, what);
            budget = sp ? strtol(sp + 1, NULL, 10) : 0;
        }
        if (budget > 0) {
            budget--;
            return 0;
        }
        return !strncmp(what, "EROFS", 5) ? EROFS : !strncmp(what, "ENOSPC", 6) ? ENOSPC : EIO;
    }

    #define WRAP(name, off_type) \
    ssize_t name(int fd, const void *buf, size_t len, off_type off) \
    { \
        static ssize_t (*real)(int, const void *, size_t, off_type); \
        int e = fault(); \
        if (e) { \
            errno = e; \
            return -1; \
        } \
        if (!real) \
            real = (ssize_t (*)(int, const void *, size_t, off_type))dlsym(RTLD_NEXT, #name); \
        return real(fd, buf, len, off); \
    }
    WRAP(pwrite, off_t)
    WRAP(pwrite64, off64_t)
""")


class ShimMixin:
    """The fault library, built for the test, and a server started under it."""

    def setUp(self):
        super().setUp()
        self.lib, work = build_preload(self, FAULT_SHIM, "fault")
        self.flag = os.path.join(work, "flag")

    def fail_writes(self, text="EIO"):
        with open(self.flag, "w") as f:
            f.write(text)

    def allow_writes(self):
        if os.path.exists(self.flag):
            os.unlink(self.flag)

    def start_faulty(self, srv):
        """Starts srv under the library; a later srv.start() runs without it."""
        self.addCleanup(self.assert_no_sanitizer_report, srv)
        start_preloaded(srv, self.lib, {"CHESSD_FAULT_FLAG": self.flag})

    def query(self, srv, sql, *args):
        con = sqlite3.connect(srv.db_path)
        try:
            return con.execute(sql, args).fetchall()
        finally:
            con.close()
