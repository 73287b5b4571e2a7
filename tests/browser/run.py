#!/usr/bin/env python3
"""Runs the browser tests of qipu serve (test_page.py) with pytest: python3 run.py QIPU [SCREENSHOTS_DIR].

Without Chromium, its driver, Selenium or pytest (Debian: chromium chromium-driver
python3-selenium python3-pytest) it prints one line starting "SKIPPED: needs" and exits 0,
which ctest reports as skipped (SKIP_REGULAR_EXPRESSION in CMakeLists.txt).
"""
import importlib.util
import os
import shutil
import sys
import tempfile


def missing():
    need = [m for m in ("pytest", "selenium") if importlib.util.find_spec(m) is None]
    need += [p for p in ("chromium", "chromedriver") if shutil.which(p) is None]
    return need


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: run.py QIPU [SCREENSHOTS_DIR]")
    lacking = missing()
    system = "/usr/bin/python3"  # Debian's python3-selenium and python3-pytest are its modules
    if lacking and os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system):
        os.execv(system, [system, *sys.argv])
    if lacking:
        print("SKIPPED: needs " + ", ".join(lacking) + " (apt-get install chromium chromium-driver python3-selenium python3-pytest)")
        return 0
    import pytest
    here = os.path.dirname(os.path.abspath(__file__))
    # pytest's temporary folders in one of our own, removed after the run: by default they
    # stay in /tmp/pytest-of-USER, the last three runs' (the database, Chromium's profile).
    base = tempfile.mkdtemp(prefix="qipu-browser-")
    args = [here, "-q", "-p", "no:cacheprovider", "--basetemp", base, "--qipu", sys.argv[1]]
    if len(sys.argv) > 2:
        args += ["--screenshots", sys.argv[2]]
    try:
        return pytest.main(args)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
