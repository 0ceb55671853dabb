"""JupyterLab on 127.0.0.1 and Debian's Chromium driven by Playwright, both isolated.

The server gets its own HOME, Jupyter config/data/runtime dirs, IPython dir and
DEEPRESEARCH_HOME under a temporary folder, a free port and a random token; it is shut
down (kernels included) when the context ends, and whatever survives is killed. Every wait
is bounded, so a hang fails the test instead of stalling CI.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("BROWSER_TEST_CHROMIUM", "/usr/bin/chromium")
SERVER_READY_S = 120.0  # JupyterLab's start under a loaded CI machine
# Without the background-networking flags Chromium's own connections are refused by a
# closed network (and slow every start); the sandbox needs a user namespace root lacks.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def missing_prerequisite() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium; .ci/run does)"
    for module in ("playwright", "jupyterlab"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install -e '.[dev]')"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Lab:
    url: str  # http://127.0.0.1:PORT
    token: str
    root: Path  # the server's root folder (notebooks go here)
    home: Path  # DEEPRESEARCH_HOME of the kernels
    log: Path

    def api(self, path: str, method: str = "GET", body: dict[str, Any] | None = None) -> int:
        request = urllib.request.Request(
            f"{self.url}{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return int(response.status)

    def start_kernel(self, notebook: str) -> None:
        """A python3 kernel session for ``notebook``, so the page connects to it instead of
        asking which kernel to start (JupyterLab asks when its kernel list comes late)."""
        session = {"path": notebook, "name": notebook, "type": "notebook"}
        self.api("/api/sessions", "POST", {**session, "kernel": {"name": "python3"}})

    def page_url(self, notebook: str) -> str:
        return f"{self.url}/lab/tree/{notebook}?token={self.token}"


def _widgets_data_dir() -> Path:
    """The ``share/jupyter`` folder holding the installed ipywidgets lab extension."""
    dist = metadata.distribution("jupyterlab_widgets")
    for file in dist.files or []:
        if file.name == "package.json" and "labextensions" in file.parts:
            path = Path(dist.locate_file(file)).resolve()
            return path.parents[len(file.parts) - file.parts.index("labextensions") - 1]
    raise AssertionError("jupyterlab_widgets ships no lab extension: reinstall it")


def _isolated_env(base: Path) -> dict[str, str]:
    # DEEPRESEARCH_* variables are configuration: the kernels get none but their home.
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEEPRESEARCH_")}
    dirs = {
        "HOME": "home",
        "JUPYTER_CONFIG_DIR": "jupyter/config",
        "JUPYTER_DATA_DIR": "jupyter/data",
        "JUPYTER_RUNTIME_DIR": "jupyter/runtime",
        "IPYTHONDIR": "ipython",
        "DEEPRESEARCH_HOME": "deepresearch",
    }
    for name, sub in dirs.items():
        path = base / sub
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    # The news prompt would pop up over the page.
    labconfig = base / "jupyter/config/labconfig"
    labconfig.mkdir(parents=True, exist_ok=True)
    (labconfig / "page_config.json").write_text(
        '{"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": true}}'
    )
    env.pop("JUPYTER_CONFIG_PATH", None)
    # The widget manager's front end is installed under the prefix of the Python that
    # installed jupyterlab_widgets, which a virtualenv's JupyterLab does not search.
    env["JUPYTER_PATH"] = str(_widgets_data_dir())
    # The kernels import this checkout's package.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _wait_until_ready(lab: Lab, server: subprocess.Popen[bytes]) -> None:
    """The REST API answers (JupyterLab's page is served by the same process)."""
    deadline = time.monotonic() + SERVER_READY_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"JupyterLab exited early:\n{lab.log.read_text()[-3000:]}")
        try:
            if lab.api("/api/status") == 200:
                return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.25)
    raise TimeoutError(
        f"JupyterLab not ready in {SERVER_READY_S} s:\n{lab.log.read_text()[-3000:]}"
    )


def _descendants(pid: int) -> list[int]:
    """Child processes (kernels run in sessions of their own, so not in our group)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        kids = [p for p, pp in parents.items() if pp == parent]
        found += kids
        frontier += kids
    return found


def _stop(lab: Lab, server: subprocess.Popen[bytes]) -> None:
    children = _descendants(server.pid)
    try:
        lab.api("/api/shutdown", method="POST")  # shuts the kernels down too
        server.wait(timeout=20)
    except (urllib.error.URLError, OSError, subprocess.TimeoutExpired):
        pass
    for pid in [server.pid, *children]:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    server.wait(timeout=10)


@contextmanager
def jupyter_lab(base: Path) -> Iterator[Lab]:
    """JupyterLab serving ``base / "root"``, isolated in ``base``."""
    env = _isolated_env(base)
    root = base / "root"
    root.mkdir()
    port, token = free_port(), secrets.token_hex(16)
    log = base / "jupyterlab.log"
    lab = Lab(f"http://127.0.0.1:{port}", token, root, Path(env["DEEPRESEARCH_HOME"]), log)
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        "--allow-root", "--ServerApp.terminals_enabled=False",
        # No calls out: news and update checks would wait on a closed network.
        "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
    ]  # fmt: skip
    with log.open("wb") as log_file:
        server = subprocess.Popen(
            command, cwd=root, env=env, stdout=log_file, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            _wait_until_ready(lab, server)
            yield lab
        finally:
            _stop(lab, server)


@contextmanager
def chromium(base: Path) -> Iterator[Any]:
    """A Playwright page in headless Debian Chromium with a fresh profile."""
    from playwright.sync_api import sync_playwright

    profile = base / "chromium-profile"
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 1400},
        )
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)
