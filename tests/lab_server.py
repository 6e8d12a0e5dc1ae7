"""A real JupyterLab server for the tests and `make bench`, served from the repository root.

:func:`jupyterlab` starts ``jupyter lab`` from this venv on a free port with a random token
and no browser. Its config, data, runtime, settings, workspaces, checkpoint and IPython
directories are a fresh temporary directory, so a user's own settings never leak in and
nothing is written into the repository; JupyterLab's news and update checks are off, and so
is autosave (a lab run by the tests never has its outputs saved). On leaving, the server's
kernels are shut down, then the server itself (by its process group if it does not stop),
and the temporary directory is removed.

Also here: :func:`lab_url` (the path a launch button opens) and :data:`CHROMIUM_ARGS`,
shared by tests/system/test_jupyterlab.py and benchmarks/bench.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from chromium_flags import CHROMIUM_ARGS  # noqa: E402,F401  (the browser tests' flags; bench.py imports them here)

# User settings written into the temporary settings directory: no news or update check
# (no request leaves the machine, no toast covers the notebook), and no autosave (a lab run
# by the tests never has its outputs saved into the repository).
SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    # Every cell stays in the page, so the checks read a long chapter's outputs and explorers
    # wherever they are (by default JupyterLab may leave cells far below the view unrendered).
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


# True once the notebook's kernel is idle (the status bar reads "Python 3 (ipykernel) | Idle").
KERNEL_IDLE_JS = """() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]
                  .some(e => /\\|\\s*Idle\\s*$/.test(e.textContent.trim()))"""
# True once Run All has finished: the kernel is idle and every code cell has an execution
# count, or a cell ended in an error (Run All stops there). Read from the notebook's model,
# not from the prompts: a cell whose input is collapsed (hidden in the book) shows no prompt,
# and the kernel is briefly idle between two cells.
RAN_ALL_JS = """() => {
    const app = window.jupyterapp, panel = app && app.shell.currentWidget;
    if (!panel || !panel.content || !panel.sessionContext) return false;
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    if (!kernel || kernel.status !== 'idle') return false;
    const cells = panel.content.widgets.filter(c => c.model.type === 'code');
    if (cells.some(c => c.model.outputs.toJSON().some(o => o.output_type === 'error'))) return true;
    return cells.length > 0 && cells.every(c => c.model.executionCount !== null);
}"""


# Opens a repository file in the JupyterLab already running in the page, as its file browser
# does (docmanager:open), after closing every open document with its changes dropped (nothing
# is ever saved). A launch URL's path is resolved only when the app starts (JupyterLab's tree
# resolver), so the first page of a session is opened by its URL and the others this way.
OPEN_IN_APP_JS = """async path => {
    const app = window.jupyterapp;
    for (const w of [...app.shell.widgets('main')]) {
        if (w.context) w.context.model.dirty = false;
        w.close();
    }
    const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
    await panel.context.ready;
    await panel.sessionContext.ready;
}"""


def open_and_run_all(page, server, urlpath: str, in_app: bool = False) -> dict:
    """Open ``urlpath`` in ``page`` (by its URL, a new JupyterLab; or, ``in_app``, in the
    JupyterLab the page runs already), wait for its kernel, then Run → Run All Cells and wait
    until every cell has run. Returns the seconds each step took."""
    if not urlpath.startswith("lab/tree/"):
        raise ValueError(f"urlpath must be a lab/tree/ path (lab_url), got {urlpath!r}")
    times = {}
    start = time.monotonic()
    if in_app:
        page.evaluate(OPEN_IN_APP_JS, urlpath.removeprefix("lab/tree/"))
    else:
        page.goto(server.page(urlpath))
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
    page.wait_for_function(KERNEL_IDLE_JS, timeout=90_000)
    times["open"] = time.monotonic() - start
    start = time.monotonic()
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").click()
    page.locator(".lm-Menu .lm-Menu-itemLabel", has_text="Run All Cells").filter(has_not_text="Restart").click()
    page.wait_for_function(RAN_ALL_JS, timeout=180_000, polling=200)
    times["run"] = time.monotonic() - start
    return times


@dataclass
class LabServer:
    """A running server: ``url`` (no trailing slash), ``token``, its process and log file."""

    url: str
    token: str
    process: subprocess.Popen
    log: Path
    root: Path

    def api(self, path: str, method: str = "GET", timeout: float = 10.0):
        """JSON from ``/api/<path>`` with the token (None for an empty answer)."""
        request = urllib.request.Request(f"{self.url}/api/{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            body = answer.read()
        return json.loads(body) if body else None

    def forget_workspaces(self) -> None:
        """Delete the saved workspaces, so the next page load opens only its own document
        (JupyterLab otherwise reopens every notebook of the last visit, each with a kernel)."""
        request = urllib.request.Request(f"{self.url}/lab/api/workspaces",
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            listed = json.loads(answer.read())
        for workspace in listed.get("workspaces", {}).get("ids", []):
            request = urllib.request.Request(f"{self.url}/lab/api/workspaces/{workspace}", method="DELETE",
                                             headers={"Authorization": f"token {self.token}"})
            urllib.request.urlopen(request, timeout=10).close()

    def page(self, urlpath: str) -> str:
        """The browser address of a ``urlpath`` (as Binder's ``?urlpath=``), token included."""
        return f"{self.url}/{urlpath.lstrip('/')}?token={self.token}"

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""


def lab_url(path: str) -> str:
    """The JupyterLab URL path a launch button opens for a repository file (Binder's urlpath)."""
    if not isinstance(path, str) or not path or path.startswith("/"):
        raise ValueError(f"path must be a relative repository path, got {path!r}")
    return f"lab/tree/{path}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(server: LabServer, timeout: float = 15.0) -> None:
    """Shut down every kernel, then the server; kill its process group if it lingers."""
    proc = server.process
    if proc.poll() is None:
        with contextlib.suppress(OSError, urllib.error.URLError, ValueError):
            for kernel in server.api("kernels"):
                with contextlib.suppress(OSError, urllib.error.URLError):
                    server.api(f"kernels/{kernel['id']}", method="DELETE")
        with contextlib.suppress(OSError, urllib.error.URLError):
            server.api("shutdown", method="POST")
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
    # anything the server started in its session (a kernel it failed to stop) goes too
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


@contextlib.contextmanager
def jupyterlab(root: Path = ROOT, startup_timeout: float = 90.0, python: str | Path = sys.executable):
    """Run ``jupyter lab`` serving ``root`` for the duration of the ``with`` block, from the venv
    of ``python`` (its kernel runs there too: this venv's, or .venv-otter's for the graded lab)."""
    root = Path(root)
    if not root.is_dir():
        raise ValueError(f"root must be a directory, got {root}")
    home = Path(tempfile.mkdtemp(prefix="jlab-"))
    dirs = {name: home / name for name in ("config", "data", "runtime", "settings", "workspaces", "ipython",
                                           "checkpoints")}
    for d in dirs.values():
        d.mkdir()
    for rel, values in SETTINGS.items():
        target = dirs["settings"] / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values), encoding="utf-8")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(dirs["config"]), JUPYTER_DATA_DIR=str(dirs["data"]),
               JUPYTER_RUNTIME_DIR=str(dirs["runtime"]), JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]),
               JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]), IPYTHONDIR=str(dirs["ipython"]),
               PYTHONUNBUFFERED="1")
    env.pop("ATTENTION_BOOK_STATIC", None)  # live widgets, never the static players
    token = secrets.token_hex(24)
    port = _free_port()
    log = home / "server.log"
    cmd = [str(python), "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
           f"--ServerApp.root_dir={root}", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           "--LabApp.news_url=None", "--LabApp.extension_manager=readonly", "--ServerApp.terminals_enabled=False",
           # window.jupyterapp: RAN_ALL_JS reads each cell's execution count from the model
           "--LabApp.expose_app_in_browser=True",
           # opening a notebook writes a checkpoint: into the temporary directory, not the repository
           f"--FileCheckpoints.checkpoint_dir={dirs['checkpoints']}", "--allow-root"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    server = LabServer(f"http://127.0.0.1:{port}", token, proc, log, root)
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {proc.returncode}:\n{server.log_text()[-3000:]}")
            try:
                server.api("status", timeout=2)
                break
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"jupyter lab did not answer /api/status within {startup_timeout:.0f} s:\n"
                                       f"{server.log_text()[-3000:]}") from None
                time.sleep(0.25)
        yield server
    finally:
        try:
            _stop(server)
        finally:
            shutil.rmtree(home, ignore_errors=True)
