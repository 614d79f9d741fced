"""What the list tests share: pychess's own patterns for the lines it parses
(read from the installed package by the system python, which has GObject),
and a few helpers."""
import functools
import json
import os
import subprocess

SYSTEM_PYTHON = os.environ.get("PYCHESS_PYTHON", "/usr/bin/python3")

# What a script needs before it imports pychess's managers (they use the
# gettext builtins and Gtk 3).
PYCHESS_PRELUDE = r'''
import builtins, json, sys
builtins.__dict__.setdefault("_", lambda s: s)
builtins.__dict__.setdefault("ngettext", lambda a, b, n: a if n == 1 else b)
import gi
gi.require_version("Gtk", "3.0")
'''

# Builds the named managers (ChatManager and ListAndVarManager by default) on
# a fake connection that records every pattern they register, and prints
# them by handler name.
_RECORD = PYCHESS_PRELUDE + r'''
import importlib
managers = [getattr(importlib.import_module("pychess.ic.managers." + n), n)
            for n in sys.argv[1:]]
pats = {}
class Any:
    def __getattr__(self, n): return Any()
    def __call__(self, *a, **k): return Any()
class Conn(Any):
    USCN = False
    def expect_line(self, cb, pat): pats.setdefault(cb.__name__, []).append([pat])
    def expect_fromplus(self, cb, a, b): pats.setdefault(cb.__name__, []).append([a, b])
    def expect_fromto(self, cb, a, b): pats.setdefault(cb.__name__, []).append([a, b])
for m in managers:
    try:
        m(Conn())
    except Exception as e:
        print("setup stopped:", m.__name__, e, file=sys.stderr)
import pychess.ic as ic
pats["BLKCMD"] = {k: v for k, v in vars(ic).items() if k.startswith("BLKCMD_")}
print(json.dumps(pats))
'''


@functools.lru_cache(maxsize=None)
def pychess_patterns(managers=("ChatManager", "ListAndVarManager")):
    """{handler name: [[pattern, ...], ...]} as pychess's managers (by module
    name) register them, and "BLKCMD": pychess's block-mode command codes by name."""
    r = subprocess.run([SYSTEM_PYTHON, "-c", _RECORD, *managers], capture_output=True,
                       text=True, timeout=120)
    if r.returncode != 0:
        raise AssertionError("pychess could not be loaded: " + r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])
