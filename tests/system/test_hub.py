"""A class on one server, end to end (issue 14).

A real JupyterHub on free ports (configurable-http-proxy from npm, found by
scripts/find-chp; a local process spawner whose users' homes are temporary folders; a
shared-password authenticator with two students) serves this repository from a local git
URL: a bare repository in a temporary folder holding the working tree's HEAD, so
uncommitted work does not matter.

For each student, Chromium logs in through the hub's form and opens the nbgitpuller link
that the instructor page builds (``attention_book.repository.nbgitpuller_link``). The test
checks that the repository lands in the student's home, that the lab opens in JupyterLab
and runs top to bottom with no error output, and that its d_k slider (ArrowRight) changes
the readout. Then the instructor commits a change (a new file, and a markdown cell of
another lab), one student edits a cell of their lab and saves it in JupyterLab, and both
pull again with the same link: the edit survives and the new commit arrives, as
nbgitpuller's merge promises.

Everything runs in temporary folders and stops in a ``finally``; the test fails if a
process it started (hub, proxy, servers, kernels) outlives it. Marked ``hub``: skipped
when JupyterHub, JupyterLab, nbgitpuller, the proxy or Chromium are missing, except with
CI=true, where that is a failure.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from attention_book.repository import nbgitpuller_link

pytestmark = pytest.mark.hub

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
LAB = "notebooks/lab-predict-then-move-the-slider.ipynb"
OTHER_LAB = "notebooks/lab-break-the-softmax.ipynb"
NEW_FILE = "notebooks/NOTES-for-this-class.md"
BRANCH = "class"
NAME = "attention-scaling"  # the served repository's folder name, so the clone's name
STUDENTS = ("ada", "grace")
STUDENT_EDIT = "# ada's note: the spread grows like the square root of d_k"
INSTRUCTOR_EDIT = "**Update from your instructor:** start with Task 2 today."
GIT_ID = {"GIT_AUTHOR_NAME": "Instructor", "GIT_AUTHOR_EMAIL": "instructor@example.edu",
          "GIT_COMMITTER_NAME": "Instructor", "GIT_COMMITTER_EMAIL": "instructor@example.edu"}


def _missing(message: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def _chp() -> str:
    """configurable-http-proxy: $CHP (set by `make test`), else scripts/find-chp."""
    path = os.environ.get("CHP", "").strip()
    if not path:
        path = subprocess.run([str(ROOT / "scripts" / "find-chp"), str(BIN.parent)],
                              capture_output=True, text=True, timeout=300).stdout.strip()
    if not path:
        _missing("no configurable-http-proxy: run `make test` (it installs it with npm) or set $CHP")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def git(*args: str, cwd: Path, env: dict | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ID, **(env or {})}, timeout=120).stdout.strip()


@dataclass
class Hub:
    url: str
    password: str
    homes: Path
    repo: str  # the git URL the students pull from
    served: Path  # the bare repository behind it

    def home(self, user: str) -> Path:
        return self.homes / user

    def link(self) -> str:
        return nbgitpuller_link(self.url, self.repo, BRANCH, LAB)


CONFIG = """
c = get_config()  # noqa
c.JupyterHub.bind_url = {bind!r}
c.JupyterHub.hub_bind_url = {hub_bind!r}
c.JupyterHub.db_url = {db!r}
c.JupyterHub.cookie_secret_file = {cookie!r}
c.JupyterHub.pid_file = {pid!r}
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.ConfigurableHTTPProxy.api_url = {proxy_api!r}
c.ConfigurableHTTPProxy.auth_token = {proxy_token!r}
c.ConfigurableHTTPProxy.pid_file = {proxy_pid!r}
c.JupyterHub.authenticator_class = "jupyterhub.authenticators.shared.SharedPasswordAuthenticator"
c.SharedPasswordAuthenticator.user_password = {password!r}
c.Authenticator.allowed_users = {users!r}
c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
c.SimpleLocalProcessSpawner.home_dir_template = {homes!r} + "/{{username}}"
c.Spawner.ip = "127.0.0.1"
c.Spawner.cmd = [{singleuser!r}]
c.Spawner.default_url = "/lab"
# window.jupyterapp: wait_ran reads each cell's execution count from the notebook model
c.Spawner.args = ["--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                  "--LabApp.expose_app_in_browser=True"] + {root_args!r}
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.environment = {{"MPLBACKEND": "agg", "PYDEVD_DISABLE_FILE_VALIDATION": "1"}}
"""


def _descendants(pid: int) -> list:
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _running(procs: list, timeout: float) -> list:
    """The processes of ``procs`` still running after up to ``timeout`` s. A zombie has ended: an
    orphan's is reaped only by the machine's init, which in a container may never do it, so
    psutil.wait_procs would wait out its whole timeout for one."""
    import psutil

    def running(p):
        try:
            return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False
    deadline = time.monotonic() + timeout
    alive = [p for p in procs if running(p)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [p for p in alive if running(p)]
    return alive


def _stop(proc: subprocess.Popen, seen: dict) -> list[str]:
    """Stop the hub (it stops the servers and the proxy), then anything it left behind.
    Returns the processes that had to be killed by hand."""
    import psutil

    for p in _descendants(proc.pid):
        seen.setdefault(p.pid, p)
    leftovers = []
    # The hub exits without waiting for the servers (they run in sessions of their own,
    # and answer its SIGINT with a "Shut down?" prompt that no one reads). Stop them first,
    # as an administrator would, with SIGTERM, while the hub still answers them: a server
    # then shuts its kernels down. (Stopped after the hub, a server once outlived 30 s in a
    # fresh-clone run, still talking to a hub that was gone.)
    servers = []
    for p in seen.values():
        try:
            if "jupyterhub-singleuser" in " ".join(p.cmdline()):
                p.terminate()
                servers.append(p)
        except psutil.NoSuchProcess:
            pass
    _running(servers, timeout=30)
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    # Kill whatever is still there after that, and report it.
    alive = _running(list(seen.values()), timeout=30)
    for p in alive:
        leftovers.append(" ".join(p.cmdline()[:3]))
        p.kill()
    _running(alive, timeout=10)
    return leftovers


@pytest.fixture
def hub(tmp_path):
    for module in ("jupyterhub", "jupyterlab", "nbgitpuller", "psutil"):
        try:
            __import__(module)
        except ImportError:
            _missing(f"{module} is not installed: `make test` installs requirements-hub.txt")
    chp = _chp()
    if not (BIN / "jupyterhub").exists() or not (BIN / "jupyterhub-singleuser").exists():
        _missing("the jupyterhub commands are not in the venv")

    # The served repository: this working tree's HEAD, pushed as branch `class` into a
    # bare repository in the temporary folder (the checkout here is never touched).
    served = tmp_path / "served" / NAME
    git("init", "--quiet", "--bare", str(served), cwd=tmp_path)
    git("push", "--quiet", str(served), f"HEAD:refs/heads/{BRANCH}", cwd=ROOT)
    git("symbolic-ref", "HEAD", f"refs/heads/{BRANCH}", cwd=served)

    state, homes = tmp_path / "hub", tmp_path / "home"
    state.mkdir()
    for user in STUDENTS:
        (homes / user).mkdir(parents=True)
    port, hub_port, api_port = _free_port(), _free_port(), _free_port()
    password = secrets.token_urlsafe(12)
    (state / "jupyterhub_config.py").write_text(CONFIG.format(
        bind=f"http://127.0.0.1:{port}", hub_bind=f"http://127.0.0.1:{hub_port}",
        db=f"sqlite:///{state / 'jupyterhub.sqlite'}", cookie=str(state / "cookie_secret"),
        pid=str(state / "hub.pid"), chp=chp, proxy_api=f"http://127.0.0.1:{api_port}",
        proxy_token=secrets.token_hex(32), proxy_pid=str(state / "proxy.pid"),
        password=password, users=set(STUDENTS), homes=str(homes),
        singleuser=str(BIN / "jupyterhub-singleuser"),
        # CI on this machine runs as root, which Jupyter Server refuses without this flag.
        root_args=["--allow-root"] if os.geteuid() == 0 else []))
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("JUPYTERHUB_API_TOKEN", None)
    log = (state / "hub.log").open("w")
    proc = subprocess.Popen([str(BIN / "jupyterhub"), "-f", str(state / "jupyterhub_config.py")],
                            cwd=state, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    seen: dict = {}
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"JupyterHub exited ({proc.returncode}):\n{(state / 'hub.log').read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/hub/api", timeout=2) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"JupyterHub did not answer in 60 s:\n{(state / 'hub.log').read_text()[-3000:]}")
            time.sleep(0.3)
        yield Hub(url, password, homes, served.as_uri(), served)
        for p in _descendants(proc.pid):  # the servers and kernels running now
            seen.setdefault(p.pid, p)
    finally:
        leftovers = _stop(proc, seen)
        log.close()
    assert not leftovers, f"processes outlived the hub's shutdown: {leftovers}"
    assert proc.returncode is not None


# --- what a student does in the browser ----------------------------------------------------


def log_in(page, hub: Hub, user: str, next_url: str):
    from urllib.parse import quote

    path = next_url[len(hub.url):]
    page.goto(f"{hub.url}/hub/login?next={quote(path, safe='')}")
    page.fill("#username_input", user)
    page.fill("#password_input", hub.password)
    page.click("#login_submit")


def stuck(page, what: str):
    """Fail with what the page shows (and a screenshot) instead of a bare timeout."""
    shot = ROOT / "_build" / "screenshots" / "hub-stuck.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot))
    text = page.inner_text("body")[-1500:]
    pytest.fail(f"{what}; the page is {page.url} ({shot}):\n{text}", pytrace=False)


def wait(page, what: str, js: str, arg=None, timeout=120_000):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(js, arg=arg, timeout=timeout)
    except PlaywrightTimeout:
        stuck(page, what)


def wait_for_lab(page, timeout=120_000):
    """JupyterLab has opened the lab and its kernel is idle."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_url("**/lab/tree/**", timeout=timeout)
        page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=timeout)
    except PlaywrightTimeout:
        stuck(page, "JupyterLab did not open the lab")
    # The status bar says "Python 3 (ipykernel) | Idle" once the kernel is connected
    # (before that, Run All would ask which kernel to start).
    wait(page, "the lab's kernel did not start",
        """() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]
                 .some(e => /Python 3.*\\| Idle/.test(e.textContent))""", timeout=timeout)


def run_all(page):
    """Run → Run All Cells (returns at once; ``wait_ran`` waits for the end)."""
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.click(".lm-Menu-itemLabel:text-is('Run All Cells')")


def wait_ran(page, timeout=240_000):
    """Every code cell of the open lab has an execution count, read from the notebook's
    model, not from the prompts: a cell whose input is collapsed (the labs' own checks,
    hidden so that their claims do not give the answers away) shows an empty prompt. A cell
    that ended in an error stops Run All, so the cells after it never get a count."""
    wait(page, "the lab did not run to the end",
        """() => {
            const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            if (!panel || !panel.content || !panel.content.widgets) return false;
            const cells = panel.content.widgets.filter(c => c.model.type === 'code');
            return cells.length > 0 && cells.every(c => c.model.executionCount !== null);
        }""", timeout=timeout)


#: What an explorer shows: its readout sentence (its view redraws in the page: attention_view.js).
SHOWN = ".jp-OutputArea .asb-widget .asb-said"
SHOWN_JS = "els => els.map(e => e.textContent).join(' ')"


def shown(page) -> str:
    """What the page's explorers show now (see SHOWN)."""
    return page.eval_on_selector_all(SHOWN, SHOWN_JS)


def save(page, path: Path, done, what: str):
    """Save with the notebook toolbar's save button; wait until the file says ``done``."""
    page.click(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-NotebookPanel-toolbar"
               " [data-command='docmanager:save']")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if done(json.loads(path.read_text())):
                return
        except json.JSONDecodeError:  # caught mid-write
            pass
        time.sleep(0.2)
    stuck(page, f"saving did not write {what} to {path.name}")


def ran(nb) -> bool:
    return all(c["execution_count"] for c in nb["cells"] if c["cell_type"] == "code")


def edited(nb) -> bool:
    return any(STUDENT_EDIT in "".join(c["source"]) for c in nb["cells"])


# --- the test ----------------------------------------------------------------------------------


def test_a_class_pulls_runs_and_keeps_its_work(hub, browser, tmp_path):
    pages = {}
    try:
        a_class(hub, browser, tmp_path, pages)
    finally:  # students close their tabs, so their servers stop promptly with the hub
        for page in pages.values():
            page.context.close()


def a_class(hub, browser, tmp_path, pages):
    start = time.perf_counter()
    link = hub.link()
    assert "/hub/user-redirect/git-pull?" in link
    phases = {}

    def phase(name):
        phases[name] = round(time.perf_counter() - start, 1)

    # The two students work side by side, as in a class: each step is started for both,
    # then awaited for both (the hub spawns their servers and runs their kernels at once).
    for user in STUDENTS:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.set_default_timeout(120_000)
        pages[user] = page
        log_in(page, hub, user, link)
    for user, page in pages.items():
        wait_for_lab(page)
        phase(f"{user}: lab open")
        assert f"/user/{user}/lab/tree/{NAME}/{LAB}" in page.url
        clone = hub.home(user) / NAME
        assert (clone / LAB).is_file(), f"the repository did not land in {user}'s home"
        assert git("rev-parse", "HEAD", cwd=clone) == git("rev-parse", BRANCH, cwd=hub.served)
        run_all(page)
    for user, page in pages.items():
        wait_ran(page)
        phase(f"{user}: lab ran")
        before = shown(page)
        handle = page.locator(".jp-OutputArea .widget-slider .noUi-handle").first
        handle.focus()
        page.keyboard.press("ArrowRight")
        wait(page, "the slider did not change the readout",
             f"before => ({SHOWN_JS})([...document.querySelectorAll({SHOWN!r})]) !== before",
             arg=before, timeout=30_000)
        assert shown(page) != before

        # Save what ran: the file on disk then records every cell's outputs.
        clone = hub.home(user) / NAME
        save(page, clone / LAB, ran, "every cell's execution count")
        nb = json.loads((clone / LAB).read_text())
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        errors = [o for c in code for o in c["outputs"]
                  if o["output_type"] == "error" or o.get("name") == "stderr"]
        assert not errors, f"{user}'s lab wrote errors: {errors}"
        phase(f"{user}: slider, saved")

    # The instructor fixes something: a new file and a markdown cell of another lab.
    work = tmp_path / "instructor"
    git("clone", "--quiet", "--branch", BRANCH, hub.repo, str(work), cwd=tmp_path)
    (work / NEW_FILE).write_text("# Notes for this class\n\nBring a laptop.\n")
    other = json.loads((work / OTHER_LAB).read_text())
    first_md = next(c for c in other["cells"] if c["cell_type"] == "markdown")
    first_md["source"] = [*first_md["source"], "\n", "\n", INSTRUCTOR_EDIT]
    (work / OTHER_LAB).write_text(json.dumps(other, indent=1, ensure_ascii=False) + "\n")
    git("add", "-A", cwd=work)
    git("commit", "--quiet", "-m", "Notes for this class", cwd=work)
    git("push", "--quiet", "origin", BRANCH, cwd=work)
    fix = git("rev-parse", "HEAD", cwd=work)

    # Ada edits a cell of her lab in JupyterLab and saves it.
    page = pages["ada"]
    editor = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .cm-content").first
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    page.keyboard.insert_text(STUDENT_EDIT)
    page.keyboard.press("Escape")
    save(page, hub.home("ada") / NAME / LAB, edited, "the student's edit")

    # Both pull again with the same link.
    for page in pages.values():
        page.goto(link)
    for user, page in pages.items():
        wait_for_lab(page)
        clone = hub.home(user) / NAME
        assert (clone / NEW_FILE).is_file(), f"{user}: the new file did not arrive"
        assert INSTRUCTOR_EDIT in (clone / OTHER_LAB).read_text(), f"{user}: the fix did not arrive"
        history = git("log", "--format=%H", cwd=clone).split()
        assert fix in history, f"{user}: the instructor's commit is not in the clone"
        phase(f"{user}: pulled again")
    assert STUDENT_EDIT in (hub.home("ada") / NAME / LAB).read_text(), "ada's edit was lost"
    assert STUDENT_EDIT not in (hub.home("grace") / NAME / LAB).read_text()
    print(f"hub test: seconds after the hub started: {phases}")
