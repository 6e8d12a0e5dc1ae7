"""`make dist`'s archive installs and runs a lab with no network.

The slow part starts in the background as soon as this test is collected (conftest.py), while
the book builds: scripts/make_dist.py collects the wheelhouse, then a fresh venv is made and
`pip install --no-index --find-links <wheelhouse> attention-scaling jupyterlab` runs in it,
cut off from the network. The test then builds the archive from the built book with that same
wheelhouse, unzips it, checks that its wheels are those very files, that pip resolves the whole
install from the unzipped wheels/ alone, and runs a lab from the unzipped labs/ top to bottom
in the venv's kernel, still offline. "Offline" means pip is told so (--no-index, no config
file, no PIP_* variables) and, where this user may make one, a network namespace holding only
loopback (`unshare -n`).

    python tests/system/test_dist.py background TMP   (what the background run executes)
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from book_files import html_page, instructor_pages, learner_toc_files

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "make_dist.py"
LAB = "lab-predict-then-move-the-slider.ipynb"
ROOTS = ("attention-scaling", "jupyterlab")
MAX_ZIP_BYTES = 150_000_000  # wheels are about 95 MB of it (JupyterLab, numpy, Babel ...)
_RUN: dict = {}

# Run by the venv's own Python: the lab, plus one cell that says which Python and which copy of
# the package the kernel used. Errors are kept in the outputs, to be reported, not raised.
DRIVER = r"""
import json, sys
from pathlib import Path
import nbformat
from nbclient import NotebookClient
path, out = Path(sys.argv[1]), sys.argv[2]
nb = nbformat.read(path, as_version=4)
nb.cells.append(nbformat.v4.new_code_cell(
    "import json, sys, attention_scaling\n"
    "print(json.dumps({'prefix': sys.prefix, 'package': attention_scaling.__file__}))"))
NotebookClient(nb, timeout=900, allow_errors=True,
               resources={"metadata": {"path": str(path.parent)}}).execute()
nbformat.write(nb, out)
"""


def _offline_prefix() -> list[str]:
    """A command prefix that runs in a new network namespace with only loopback up, where
    this user may make one (root may); else nothing, and pip's flags alone keep it offline."""
    cmd = ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"']
    try:
        probe = subprocess.run([*cmd, "true"], capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return []
    return cmd if probe.returncode == 0 else []


def _offline_env(tmp: Path) -> dict[str, str]:
    """No pip configuration at all, no index, and Jupyter's and matplotlib's state in tmp."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "JUPYTER_"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               JUPYTER_DATA_DIR=str(tmp / "jupyter-data"), JUPYTER_CONFIG_DIR=str(tmp / "jupyter-config"),
               JUPYTER_RUNTIME_DIR=str(tmp / "jupyter-runtime"), MPLCONFIGDIR=str(tmp / "mpl"))
    return env


def _run(cmd: list[str], step: str, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise SystemExit(f"{step} failed ({proc.returncode}): {' '.join(cmd)}\n"
                         f"{proc.stderr[-3000:]}\n--- its output ---\n{proc.stdout[-2000:]}")
    return proc


def background(tmp: Path) -> None:
    """Collect the wheelhouse (with the registry), then a fresh venv installed from it offline."""
    times = {}
    start = time.monotonic()
    _run([sys.executable, str(SCRIPT), "--wheels-only", "--wheelhouse", str(tmp / "wheelhouse")],
         "collecting the wheels", cwd=ROOT)
    times["wheels_s"] = time.monotonic() - start
    offline, env = _offline_prefix(), _offline_env(tmp)
    mark = time.monotonic()
    _run([*offline, sys.executable, "-m", "venv", str(tmp / "venv")], "python -m venv", env=env, cwd=tmp)
    py = str(tmp / "venv" / "bin" / "python")
    _run([*offline, py, "-m", "pip", "install", "--no-index", "--find-links", str(tmp / "wheelhouse"),
          *ROOTS], "the offline install", env=env, cwd=tmp)
    _run([*offline, py, "-m", "pip", "check"], "pip check", env=env, cwd=tmp)
    times["venv_install_s"] = time.monotonic() - mark
    times["namespace"] = bool(offline)
    (tmp / "times.json").write_text(json.dumps(times))


def start_background_install() -> None:
    """Start the background run once (conftest.py calls this when the suite is collected)."""
    if "proc" not in _RUN:
        tmp = Path(tempfile.mkdtemp(prefix="dist-test-"))
        _RUN.update(tmp=tmp, log=tempfile.TemporaryFile(), started=time.monotonic())
        # run as a script, it finds tests/'s helpers (book_files) on PYTHONPATH, as pytest does
        env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
        _RUN["proc"] = subprocess.Popen([sys.executable, __file__, "background", str(tmp)], cwd=ROOT, env=env,
                                        stdout=_RUN["log"], stderr=subprocess.STDOUT, start_new_session=True)
        atexit.register(_clean_up)


def _clean_up() -> None:
    """At exit (the test deselected or stopped early): no run left behind, no venv in /tmp."""
    if _RUN["proc"].poll() is None:  # its pip and venv steps too: they share its process group
        os.killpg(_RUN["proc"].pid, signal.SIGKILL)
        _RUN["proc"].wait()
    shutil.rmtree(_RUN["tmp"], ignore_errors=True)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _site_files(site: Path) -> dict[str, Path]:
    """The built site's files a reader needs: everything but hidden files and caches."""
    skip = {"__pycache__", "jupyter_execute"}
    return {p.relative_to(site).as_posix(): p for p in sorted(site.rglob("*"))
            if p.is_file() and not any(part.startswith(".") or part in skip
                                       for part in p.relative_to(site).parts)}


def _installed(py: str, env: dict, cwd: Path) -> set[tuple[str, str]]:
    out = _run([py, "-m", "pip", "list", "--format", "json"], "pip list", env=env, cwd=cwd).stdout
    return {(re.sub(r"[-_.]+", "-", d["name"]).lower(), d["version"]) for d in json.loads(out)
            if d["name"] not in ("pip", "setuptools")}


def _wheel_ids(names) -> set[tuple[str, str]]:
    ids = set()
    for name in names:
        dist, version = Path(name).name.split("-")[:2]
        ids.add((re.sub(r"[-_.]+", "-", dist).lower(), version))
    return ids


def test_the_archive_installs_and_runs_a_lab_offline(learner_site):
    """The archive is for students: the learner's edition (make dist reads _build/html)."""
    site = learner_site
    start_background_install()  # already running when the whole suite is collected
    proc, tmp = _RUN["proc"], _RUN["tmp"]
    try:
        try:
            proc.wait(timeout=1800)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        with _RUN["log"] as fh:  # closed here, not left to the interpreter (a ResourceWarning at exit)
            fh.seek(0)
            log = fh.read().decode(errors="replace")
        assert proc.returncode == 0, "the background wheels + venv + offline install failed:\n" + log[-6000:]
        waited = time.monotonic() - _RUN["started"]
        _check_archive(site, tmp, waited)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _check_archive(site: Path, tmp: Path, waited: float) -> None:
    times = json.loads((tmp / "times.json").read_text())
    mark = time.monotonic()
    made = subprocess.run([sys.executable, str(SCRIPT), "--site", str(site), "--out", str(tmp / "out"),
                           "--wheelhouse", str(tmp / "wheelhouse")], cwd=ROOT, capture_output=True, text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    zips = list((tmp / "out").glob("*.zip"))
    assert len(zips) == 1, zips
    version = re.search(r'^__version__ = "([^"]+)"$', (ROOT / "src" / "attention_scaling" / "__init__.py").read_text(),
                        re.M).group(1)
    short = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                           text=True).stdout.strip()
    top = zips[0].stem
    assert re.fullmatch(rf"attention-scaling-{re.escape(version)}-{short}(-dirty)?", top), top
    size = zips[0].stat().st_size
    assert size < MAX_ZIP_BYTES, f"the archive is {size / 1e6:.1f} MB"
    with zipfile.ZipFile(zips[0]) as zf:
        names = zf.namelist()
        assert all(n.startswith(f"{top}/") for n in names), "everything sits in one folder"
        zf.extractall(tmp / "unzipped")
    here = tmp / "unzipped" / top
    files = {p.relative_to(here).as_posix() for p in here.rglob("*") if p.is_file()}

    # The site: index.html and every page of the built book, byte for byte; no caches.
    built = _site_files(site)
    pages = [k for k in built if k.endswith(".html")]
    assert "index.html" in pages and len(pages) >= 10, pages
    zipped_site = {f[len("site/"):] for f in files if f.startswith("site/")}
    assert set(built) - zipped_site == set(), "pages or assets missing from the archive"
    assert zipped_site - set(built) == set(), "the archive's site holds files the book does not"
    changed = [k for k, p in built.items() if (here / "site" / k).read_bytes() != p.read_bytes()]
    assert changed == []
    toc_pages = {html_page(p) for p in learner_toc_files()}
    assert toc_pages <= zipped_site, toc_pages - zipped_site
    assert not {f"{p}.html" for p in instructor_pages()} & zipped_site

    # The labs and the chapters as notebooks, as committed.
    only = {p.rsplit("/", 1)[-1] + ".ipynb" for p in instructor_pages()}  # not the instructor page's
    for folder, source in (("labs", ROOT / "notebooks"), ("labs/chapters", ROOT / "notebooks" / "chapters")):
        want = {p.name: p.read_bytes() for p in source.glob("*.ipynb") if p.name not in only}
        got = {p.name: p.read_bytes() for p in (here / folder).glob("*.ipynb")}
        assert want and got == want, (folder, sorted(want), sorted(got))

    # The wheels are the very files the venv was installed from.
    wheels = {p.name: _sha(p.read_bytes()) for p in (here / "wheels").glob("*.whl")}
    house = {p.name: _sha(p.read_bytes()) for p in (tmp / "wheelhouse").glob("*.whl")}
    assert wheels == house, (sorted(set(house) - set(wheels)), sorted(set(wheels) - set(house)))
    assert files == ({"README.txt", "constraints.txt"} | {f"site/{k}" for k in built}
                     | {f"wheels/{w}" for w in wheels}
                     | {f"labs/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")}
                     | {f"labs/chapters/{p.name}" for p in (ROOT / "notebooks" / "chapters").glob("*.ipynb")
                        if p.name not in only})

    # README.txt: the commit, the commands for Linux/macOS and Windows, the book, other platforms.
    readme = (here / "README.txt").read_text()
    for needle in (short, "-m venv venv", "pip install --no-index --find-links wheels attention-scaling jupyterlab",
                   "venv/bin/jupyter lab labs/", "venv\\Scripts\\python -m pip install", "site/index.html",
                   "pip download", f"CPython {sys.version_info.major}.{sys.version_info.minor}"):
        assert needle in readme, needle

    offline, env = _offline_prefix(), _offline_env(tmp)
    py = str(tmp / "venv" / "bin" / "python")
    # pip resolves the whole install from the unzipped wheels/ alone, and needs every one of them.
    _run([*offline, py, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--report",
          str(tmp / "report.json"), "--no-index", "--find-links", str(here / "wheels"), *ROOTS],
         "resolving from the unzipped wheels", env=env, cwd=here)
    report = json.loads((tmp / "report.json").read_text())
    resolved = {(re.sub(r"[-_.]+", "-", i["metadata"]["name"]).lower(), i["metadata"]["version"])
                for i in report["install"]}
    assert resolved == _wheel_ids(wheels), (resolved ^ _wheel_ids(wheels))
    assert _installed(py, env, tmp) == resolved

    # One lab from the unzipped labs/, top to bottom, in the venv's kernel, offline.
    lab_mark = time.monotonic()
    (tmp / "driver.py").write_text(DRIVER)
    _run([*offline, py, str(tmp / "driver.py"), str(here / "labs" / LAB), str(tmp / "ran.ipynb")],
         f"running {LAB}", env=env, cwd=here / "labs", timeout=1200)
    ran = json.loads((tmp / "ran.ipynb").read_text())
    code = [c for c in ran["cells"] if c["cell_type"] == "code"]
    outputs = [o for c in code for o in c.get("outputs", [])]
    errors = [o for o in outputs if o["output_type"] == "error" or o.get("name") == "stderr"]
    assert errors == [], errors
    assert all(c.get("execution_count") for c in code), "a cell did not run"
    probe = json.loads("".join(code[-1]["outputs"][0]["text"]))
    assert Path(probe["prefix"]).resolve() == (tmp / "venv").resolve(), probe
    assert Path(probe["package"]).resolve().is_relative_to((tmp / "venv").resolve()), probe
    times.update(archive_and_checks_s=lab_mark - mark, lab_s=time.monotonic() - lab_mark,
                 background_awaited_s=waited, zip_mb=size / 1e6)
    print("test_dist:", json.dumps({k: round(v, 1) if isinstance(v, float) else v for k, v in times.items()}))


def _make_dist(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True)


def test_a_missing_built_book_says_to_run_make_book(tmp_path):
    proc = _make_dist("--site", str(tmp_path / "html"), "--out", str(tmp_path / "out"))
    assert proc.returncode == 1
    assert "no built book" in proc.stderr and "run `make book`" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_book_built_from_another_commit_is_refused(tmp_path):
    """The archive is named by the checkout's commit, so its site must come from it too."""
    site = tmp_path / "html"
    site.mkdir()
    (site / "index.html").write_text(
        '<p class="asb-build">Built on 2026-01-01 from commit <code class="asb-commit" '
        f'data-sha="{"0" * 40}">0000000</code>.</p>')
    proc = _make_dist("--site", str(site), "--out", str(tmp_path / "out"),
                      "--wheelhouse", str(tmp_path / "wheels"))
    assert proc.returncode == 1
    assert "from commit 0000000" in proc.stderr and "run `make book`" in proc.stderr, proc.stderr
    assert not (tmp_path / "wheels").exists() and not (tmp_path / "out").exists()


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "background":
        raise SystemExit(__doc__)
    os.environ.pop("PYTHONPATH", None)  # tests/ was only for this script's own imports
    background(Path(sys.argv[2]))
