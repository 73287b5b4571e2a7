"""Fixtures of the browser tests: a database of the bundled sample games, `qipu serve` on it
(any free port, imports allowed) and a headless Chromium driven by Selenium."""
import os
import re
import subprocess
import tempfile

import pytest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(SOURCE, "data", "world-championships.pgn")


def pytest_addoption(parser):
    parser.addoption("--qipu", required=True, help="the qipu program to test")
    parser.addoption("--screenshots", default=os.path.join(SOURCE, "docs", "screenshots"),
                     help="where the screenshots of the viewer and the explorer go")


class Qipu:
    """Runs the program under test on the test database."""

    def __init__(self, binary, db):
        self.binary, self.db = binary, db

    def run(self, *args):
        out = subprocess.run([self.binary, *args], capture_output=True, text=True, timeout=120)
        assert out.returncode in (0, 1), out.stderr
        return out.stdout

    def db_run(self, *args):
        return self.run(*args, "--db", self.db)


@pytest.fixture(scope="session")
def qipu(request, tmp_path_factory):
    binary = os.path.abspath(request.config.getoption("--qipu"))
    db = str(tmp_path_factory.mktemp("db") / "games.db")
    subprocess.run([binary, "import", "--db", db, SAMPLE], check=True, capture_output=True, timeout=300)
    return Qipu(binary, db)


@pytest.fixture(scope="session")
def server(qipu):
    proc = subprocess.Popen([qipu.binary, "serve", "--db", qipu.db, "--port", "0", "--allow-import"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.search(r"(http://\S+/)", line)
    assert match, "qipu serve printed no URL: " + line + proc.stderr.read()
    yield match.group(1)
    proc.terminate()
    assert proc.wait(timeout=30) == 0


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    from selenium import webdriver
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
                "--lang=en-US"):
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # for a failure's report
    from selenium.webdriver.chrome.service import Service
    # Chromium leaves an empty org.chromium.Chromium.* folder in TMPDIR each run: in pytest's
    # temporary folder, which pytest prunes, rather than in /tmp for good.
    env = dict(os.environ, TMPDIR=str(tmp_path_factory.mktemp("chromium")))
    service = Service(executable_path="/usr/bin/chromedriver", env=env)
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def screenshots(request):
    path = request.config.getoption("--screenshots")
    os.makedirs(path, exist_ok=True)
    return path
