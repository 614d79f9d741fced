"""Helpers for the end-to-end tests that run X11 chess GUIs (xboard, eboard)
under Xvfb: finding the programs, a private display, screenshots.

A missing program is reported as a failure with the package to install,
never as a skip: these tests exist to prove the GUIs work.
"""
import os
import select
import shutil
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# Screenshots go to the working directory (the build tree under ctest);
# E2E_SHOTS=tests/e2e refreshes the ones the README shows.
SHOTS = os.environ.get("E2E_SHOTS", os.getcwd())

PACKAGES = {"Xvfb": "xvfb", "xboard": "xboard", "eboard": "eboard", "import": "imagemagick",
            "convert": "imagemagick", "fairymax": "fairymax", "xdotool": "xdotool"}


def need(test, *programs):
    """Full paths of the programs (PATH, then /usr/games); fails the test if one is missing."""
    found = []
    for p in programs:
        path = shutil.which(p) or shutil.which(p, path="/usr/games:/usr/bin")
        if not path:
            test.fail("%s is not installed: apt-get install %s" % (p, PACKAGES.get(p, p)))
        found.append(path)
    return found


class Display:
    """An Xvfb server on a display number Xvfb picks itself (-displayfd), so
    tests running at the same time never race for one."""

    def __init__(self, test, size="1024x768x24"):
        (xvfb,) = need(test, "Xvfb")
        r, w = os.pipe()
        self.proc = subprocess.Popen([xvfb, "-displayfd", str(w), "-screen", "0", size,
                                      "-nolisten", "tcp"], pass_fds=(w,),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        number = b""
        deadline = time.monotonic() + 15
        try:
            while not number.endswith(b"\n") and time.monotonic() < deadline:
                ready, _, _ = select.select([r], [], [], 0.1)
                if ready:
                    chunk = os.read(r, 16)
                    if not chunk:
                        break
                    number += chunk
                elif self.proc.poll() is not None:
                    break
        finally:
            os.close(r)
        if not number.strip().isdigit():
            self.stop()
            test.fail("Xvfb did not start (it reported no display number)")
        self.name = ":%d" % int(number)

    def env(self):
        return dict(os.environ, DISPLAY=self.name, NO_AT_BRIDGE="1")

    def screenshot(self, test, path, width=480):
        """Saves the whole screen, scaled to width pixels, as a small PNG."""
        imp, convert = need(test, "import", "convert")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        raw = path + ".full.png"
        subprocess.run([imp, "-display", self.name, "-window", "root", raw], check=True,
                       timeout=30, env=self.env())
        subprocess.run([convert, raw, "-trim", "-resize", "%dx" % width, "-colors", "64",
                        "-strip", path], check=True, timeout=30)
        os.unlink(raw)
        return path

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
