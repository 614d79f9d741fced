"""Black-box harness for chessd: start a server on free loopback ports with a
fresh data directory, talk to it as FICS clients do (plain TCP or TLS).

Python standard library only.  The binary is taken from $CHESSD (ctest sets
it), else build/bin/chessd next to the source tree.

Timeouts: every expect() defaults to 10 s so that the tests pass on a loaded
2-core machine and under ASan; the limits configured by the tests are small
so that nothing ever waits that long when the server behaves.
"""
import os
import re
import select
import shutil
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHESSD = os.environ.get("CHESSD") or os.path.join(ROOT, "build", "bin", "chessd")

TIMEOUT = float(os.environ.get("CHESSD_TEST_TIMEOUT", "10"))

IAC_WILL_ECHO = b"\xff\xfb\x01"
IAC_WONT_ECHO = b"\xff\xfc\x01"
PROMPT_RE = re.compile(rb"(?:\A|\n\r)fics% ")
GUEST_RE = re.compile(rb'Logging you in as "(Guest[A-Z]{4})"')


def free_port(host="127.0.0.1"):
    """A port nobody listens on right now (bind port 0, read it, close)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class ServerError(AssertionError):
    pass


class Server:
    """One chessd process with its own data directory and ports."""

    def __init__(self, data_dir=None, config=None, port=None, tls_port=None,
                 bind="127.0.0.1", extra_args=(), preexec_fn=None, tls=True,
                 workdir=None, http=False):
        self.http = http    # web listeners on free ports; off (0) otherwise
        self.http_port = None
        self.https_port = None
        self.workdir = workdir or tempfile.mkdtemp(prefix="chessd-bb-")
        self.data_dir = data_dir or os.path.join(self.workdir, "data")
        self.config = dict(config or {})
        self.bind = bind
        self.fixed_port = port
        self.fixed_tls_port = tls_port
        self.tls = tls
        self.extra_args = list(extra_args)
        self.preexec_fn = preexec_fn
        self.proc = None
        self.port = None
        self.tls_port = None
        self.returncode = None
        self.starts = 0
        self.log_path = None
        self._log_offset = 0

    # --- files ---
    @property
    def db_path(self):
        return os.path.join(self.data_dir, "chess.db")

    @property
    def cert_path(self):
        return os.path.join(self.data_dir, "tls", "cert.pem")

    @property
    def key_path(self):
        return os.path.join(self.data_dir, "tls", "key.pem")

    def write_config(self):
        path = os.path.join(self.workdir, "chessd.conf")
        with open(path, "w") as f:
            f.write("# written by chessd_harness\n")
            for k, v in self.config.items():
                f.write("%s = %s\n" % (k, v))
        return path

    def command(self):
        cmd = [CHESSD, "--data", self.data_dir, "--port", str(self.port),
               "--tls-port", str(self.tls_port),
               "--http-port", str(self.http_port), "--https-port", str(self.https_port)]
        if self.bind:
            cmd += ["--bind", self.bind]
        if self.config:
            cmd += ["--config", self.write_config()]
        return cmd + self.extra_args

    # --- process ---
    def start(self, wait=True, timeout=None, expect_exit=False):
        """Starts chessd; with wait, returns once it logged "chessd ready"."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        timeout = timeout or max(TIMEOUT, 20)
        for attempt in range(5):
            self.port = self.fixed_port or free_port()
            self.tls_port = self.fixed_tls_port if self.fixed_tls_port is not None else (
                free_port() if self.tls else 0)
            self.http_port = free_port() if self.http else 0
            self.https_port = free_port() if self.http and self.tls else 0
            self.starts += 1
            self.log_path = os.path.join(self.workdir, "stderr.%d.log" % self.starts)
            self._log_offset = 0
            self.returncode = None
            with open(self.log_path, "wb") as err:
                self.proc = subprocess.Popen(
                    self.command(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=err, cwd=self.workdir, preexec_fn=self.preexec_fn)
            if not wait:
                return self
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                text = self.log()
                if "chessd ready" in text:
                    return self
                rc = self.proc.poll()
                if rc is not None:
                    self.returncode = rc
                    if "cannot listen" in text and "Address already in use" in text and \
                            attempt < 4 and not self.fixed_port:
                        break       # lost a port race: try other ports
                    if expect_exit:
                        return self
                    raise ServerError("chessd exited with %d before it was ready:\n%s"
                                      % (rc, text))
                time.sleep(0.02)
            else:
                self.kill()
                raise ServerError("chessd not ready after %.0f s:\n%s" % (timeout, self.log()))
        raise ServerError("could not start chessd:\n%s" % self.log())

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def log(self):
        """Everything chessd wrote on stderr during this run."""
        if not self.log_path or not os.path.exists(self.log_path):
            return ""
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def all_logs(self):
        out = []
        for i in range(1, self.starts + 1):
            p = os.path.join(self.workdir, "stderr.%d.log" % i)
            if os.path.exists(p):
                with open(p, "rb") as f:
                    out.append("--- chessd run %d stderr ---\n%s" % (
                        i, f.read().decode("utf-8", "replace")))
        return "\n".join(out)

    def wait_log(self, pattern, timeout=TIMEOUT, since=0):
        """Waits until stderr (from offset since) matches pattern (str or regex)."""
        rx = pattern if hasattr(pattern, "search") else re.compile(re.escape(pattern))
        deadline = time.monotonic() + timeout
        while True:
            text = self.log()[since:]
            m = rx.search(text)
            if m:
                return m
            if time.monotonic() > deadline:
                raise AssertionError("chessd never logged %r; stderr:\n%s" % (
                    rx.pattern, self.log()))
            time.sleep(0.02)

    def wait_exit(self, timeout=TIMEOUT):
        try:
            self.returncode = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError("chessd did not exit within %.0f s:\n%s" % (timeout, self.log()))
        return self.returncode

    def stop(self, timeout=None):
        """Graceful shutdown (SIGTERM); asserts exit code 0."""
        if not self.running():
            rc = self.proc.poll() if self.proc else None
            raise AssertionError("chessd is not running (exit code %r):\n%s" % (rc, self.log()))
        self.proc.send_signal(signal.SIGTERM)
        rc = self.wait_exit(timeout or max(TIMEOUT, 20))
        if rc != 0:
            raise AssertionError("chessd exited with %d after SIGTERM:\n%s" % (rc, self.log()))
        return rc

    def signal(self, sig):
        self.proc.send_signal(sig)

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        if self.proc is not None:
            self.returncode = self.proc.poll()

    def cleanup(self):
        self.kill()
        shutil.rmtree(self.workdir, ignore_errors=True)

    # --- account subcommands ---
    def admin_cmd(self, *args, stdin=None, timeout=60):
        """Runs `chessd --data DIR ARGS...`; returns the CompletedProcess (text)."""
        return subprocess.run([CHESSD, "--data", self.data_dir] + list(args),
                              input=stdin, capture_output=True, text=True, timeout=timeout)

    def useradd(self, name, password, admin=False):
        args = ["useradd", name] + (["--admin"] if admin else [])
        r = self.admin_cmd(*args, stdin=password + "\n")
        if r.returncode != 0:
            raise AssertionError("useradd %s failed (%d): %s%s" % (
                name, r.returncode, r.stdout, r.stderr))
        return r

    # --- clients ---
    def connect(self, tls=False, **kw):
        port = self.tls_port if tls else self.port
        cafile = kw.pop("cafile", self.cert_path if tls else None)
        return Client(port, tls=tls, cafile=cafile, server=self, **kw)


class Client:
    """A FICS client over plain TCP or TLS."""

    def __init__(self, port, host="127.0.0.1", tls=False, cafile=None,
                 server_hostname="localhost", source=None, server=None, rcvbuf=None,
                 connect_timeout=TIMEOUT, handshake=True):
        self.server = server
        self.buf = b""
        self.seen = b""      # everything received, for diagnostics
        self.closed = False
        raw = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET,
                            socket.SOCK_STREAM)
        if rcvbuf is not None:
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if source:
            raw.bind((source, 0))
        raw.settimeout(connect_timeout)
        raw.connect((host, port))
        self.raw = raw
        self.tls = tls
        if tls:
            ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=cafile)
            ctx.check_hostname = True
            ctx.verify_mode = ssl.CERT_REQUIRED
            # Ragged EOFs raise SSLEOFError, so a clean close (close_notify,
            # which recv reports as b"") can be told from a bare TCP close.
            self.sock = ctx.wrap_socket(raw, server_hostname=server_hostname,
                                        do_handshake_on_connect=False,
                                        suppress_ragged_eofs=False)
            self.raw = self.sock    # wrap_socket took over the descriptor
            if handshake:
                try:
                    self.sock.do_handshake()
                except BaseException:
                    self.sock.close()
                    raise
        else:
            self.sock = raw

    # --- diagnostics ---
    def _context(self, what):
        msg = "%s\n  unread buffer: %r\n  received in all (last 2000 bytes): %r" % (
            what, self.buf[-2000:], self.seen[-2000:])
        if self.server is not None:
            msg += "\n" + self.server.log()[-6000:]
        return msg

    # --- reading ---
    def _recv(self, timeout):
        """Reads what is there within timeout: b"" on EOF, None on timeout."""
        if self.closed:
            return b""
        if self.tls and self.sock.pending():
            timeout = 0
        self.sock.settimeout(max(timeout, 0.001))
        try:
            data = self.sock.recv(65536)
        except (socket.timeout, ssl.SSLWantReadError):
            return None
        except ssl.SSLZeroReturnError:
            self.closed = True
            self.close_kind = "close_notify"
            return b""
        except (ssl.SSLEOFError, ConnectionResetError, BrokenPipeError) as e:
            self.closed = True
            self.close_kind = type(e).__name__
            return b""
        except ssl.SSLError as e:
            self.closed = True
            self.close_kind = "SSLError: %s" % e
            return b""
        if not data:
            self.closed = True
            self.close_kind = "close_notify" if self.tls else "eof"
            return b""
        self.buf += data
        self.seen += data
        return data

    def expect(self, pattern, timeout=TIMEOUT):
        """Reads until pattern (bytes/str literal, or compiled regex) appears.

        Returns everything up to and including the match and removes it from
        the buffer.  For a regex, the match object is kept in self.match."""
        if isinstance(pattern, str):
            pattern = pattern.encode()
        if isinstance(pattern, bytes):
            rx = re.compile(re.escape(pattern))
        elif isinstance(pattern.pattern, str):
            rx = re.compile(pattern.pattern.encode(), pattern.flags & ~re.UNICODE)
        else:
            rx = pattern
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.buf)
            if m:
                out = self.buf[:m.end()]
                self.buf = self.buf[m.end():]
                self.match = m
                return out
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(self._context("timeout waiting for %r" % rx.pattern))
            if self._recv(left) == b"":
                m = rx.search(self.buf)
                if m:
                    continue
                raise AssertionError(self._context(
                    "connection closed (%s) while waiting for %r" % (
                        getattr(self, "close_kind", "?"), rx.pattern)))

    def expect_prompt(self, timeout=TIMEOUT):
        """Reads through the next prompt: "fics% " at the start of a line."""
        return self.expect(PROMPT_RE, timeout)

    def read_for(self, seconds):
        """Reads whatever arrives during the given time; returns and consumes it."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self._recv(deadline - time.monotonic()) == b"":
                break
        out, self.buf = self.buf, b""
        return out

    def expect_closed(self, timeout=TIMEOUT):
        """Reads until the server closes the connection; returns what came before."""
        deadline = time.monotonic() + timeout
        while not self.closed:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(self._context("connection still open after %.1f s" % timeout))
            self._recv(left)
        out, self.buf = self.buf, b""
        return out

    def command(self, line, timeout=TIMEOUT):
        """Sends a command line and returns the reply up to the next prompt."""
        self.send_line(line)
        return self.expect_prompt(timeout)

    # --- writing ---
    def send_raw(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.sock.sendall(data)

    def send_line(self, line, eol=b"\n"):
        if isinstance(line, str):
            line = line.encode()
        self.send_raw(line + eol)

    # --- login ---
    def login_guest(self, timeout=TIMEOUT):
        """Logs in as a guest; returns the GuestXXXX name."""
        self.expect(b"login: ", timeout)
        self.send_line("guest")
        self.expect(GUEST_RE, timeout)
        name = self.match.group(1).decode()
        self.expect(b'Press return to enter the server as "%s":\n\r' % name.encode(), timeout)
        self.send_line("")
        self.expect(b"**** Starting FICS session as %s(U) ****" % name.encode(), timeout)
        self.expect_prompt(timeout)
        self.name = name
        return name

    def login(self, name, password, flags=b"", timeout=TIMEOUT):
        """Logs in with a registered name; returns the login transcript."""
        out = self.expect(b"login: ", timeout)
        self.send_line(name)
        out += self.expect(b"password: ", timeout)
        self.send_line(password)
        out += self.expect(re.compile(rb"\*\*\*\* Starting FICS session as (\w+)(\(\*\))? \*\*\*\*"),
                           timeout)
        self.name = self.match.group(1).decode()
        out += self.expect_prompt(timeout)
        return out

    def login_unregistered(self, name, timeout=TIMEOUT):
        self.expect(b"login: ", timeout)
        self.send_line(name)
        self.expect(b'Press return to enter the server as "%s":\n\r' % name.encode(), timeout)
        self.send_line("")
        self.expect(b"**** Starting FICS session as %s(U) ****" % name.encode(), timeout)
        self.expect_prompt(timeout)
        self.name = name
        return name

    def send_under_tls(self, data):
        """Writes bytes on the TCP connection itself, bypassing TLS."""
        os.write(self.sock.fileno(), data)

    def close(self):
        if not self.closed:
            self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass

    def reset(self):
        """Closes with a TCP RST (SO_LINGER 0), as a crashed client would."""
        try:
            self.raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        except OSError:
            pass
        try:
            self.raw.close()
        except OSError:
            pass
        self.closed = True


# What ASan, LSan and UBSan print when they find something.
SANITIZER_REPORTS = ("AddressSanitizer", "runtime error:", "LeakSanitizer")


class ChessdTestCase(unittest.TestCase):
    """Gives each test its own servers; kills them at teardown and prints
    their stderr when the test failed."""

    def setUp(self):
        self._servers = []
        self._clients = []
        self.addCleanup(self._cleanup_all)

    def start_server(self, config=None, start=True, **kw):
        srv = Server(config=config, **kw)
        self._servers.append(srv)
        if start:
            srv.start()
        return srv

    def new_server(self, **kw):
        return self.start_server(start=False, **kw)

    def connect(self, srv, **kw):
        c = srv.connect(**kw)
        self._clients.append(c)
        return c

    def guest(self, srv, **kw):
        c = self.connect(srv, **kw)
        c.login_guest()
        return c

    def user(self, srv, name, password, **kw):
        c = self.connect(srv, **kw)
        c.login(name, password)
        return c

    def assert_no_sanitizer_report(self, srv):
        """Under ASan/UBSan a report in srv's stderr fails the test."""
        logs = srv.all_logs()
        for word in SANITIZER_REPORTS:
            self.assertNotIn(word, logs, logs[-6000:])

    def stop_servers_clean(self):
        """Stops each server (SIGTERM, a clean exit) and checks its stderr."""
        for srv in self._servers:
            if srv.running():
                srv.stop()
            self.assert_no_sanitizer_report(srv)

    def _failed(self):
        outcome = getattr(self, "_outcome", None)
        result = getattr(outcome, "result", None)
        if outcome is not None and not getattr(outcome, "success", True):
            return True
        if result is None:
            return False
        for test, _ in list(getattr(result, "errors", [])) + list(getattr(result, "failures", [])):
            if test is self:
                return True
        return False

    def _cleanup_all(self):
        for c in self._clients:
            c.close()
        failed = self._failed()
        for srv in self._servers:
            still_running = srv.running()
            srv.kill()
            if failed:
                sys.stderr.write("\n==== %s: chessd stderr (%s) ====\n%s\n" % (
                    self.id(), "killed at teardown" if still_running else
                    "exit code %r" % srv.returncode, srv.all_logs()))
            srv.cleanup()


def build_preload(test, source, what):
    """Compiles C source as a library for LD_PRELOAD, in a directory the
    test removes at its end: (the library's path, that directory)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        test.fail("no C compiler to build the %s library" % what)
    work = tempfile.mkdtemp(prefix="chessd-%s-" % what)
    test.addCleanup(shutil.rmtree, work, True)
    src, lib = os.path.join(work, what + ".c"), os.path.join(work, what + ".so")
    with open(src, "w") as f:
        f.write(source)
    r = subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", lib, src, "-ldl"],
                       capture_output=True, text=True)
    test.assertEqual(r.returncode, 0, r.stderr)
    return lib, work


def start_preloaded(srv, lib, env):
    """Starts srv with lib preloaded and env set for it alone."""
    env = dict(env, LD_PRELOAD=lib,
               # ASan wants its runtime first; the libraries only wrap a call or two.
               ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                             ":verify_asan_link_order=0").lstrip(":"))
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        srv.start()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def db_rows(path, sql, *args):
    """Every row of one query on the database at path, read as another process would."""
    con = sqlite3.connect(path)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def run_admin(data_dir, *args, stdin=None):
    return subprocess.run([CHESSD, "--data", data_dir] + list(args), input=stdin,
                          capture_output=True, text=True, timeout=60)


def main():
    if not os.access(CHESSD, os.X_OK):
        sys.stderr.write("chessd binary not found: %s (set CHESSD)\n" % CHESSD)
        sys.exit(2)
    unittest.main(verbosity=2)
