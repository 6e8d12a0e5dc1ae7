"""`make dist`: the book for a student with no network, as one zip in _build/dist/.

    python scripts/make_dist.py [--site DIR] [--out DIR] [--wheelhouse DIR] [--wheels-only]

The archive, attention-scaling-<version>-<short commit>.zip, holds one folder of the
same name with:

- site/        the built book (_build/html without hidden files, caches or doctrees),
               which opens from disk at site/index.html;
- labs/        the labs (notebooks/*.ipynb) and the chapters as notebooks (labs/chapters/);
- wheels/      a wheel of the package and of everything it and JupyterLab need at run time,
               at the versions installed in this venv (which requirements.txt pins), for
               this CPython and platform; constraints.txt pins the same versions;
- README.txt   how to install and run it with no network, and the commit it was built from.

The runtime closure is read from the installed distributions' metadata (Requires-Dist,
with markers evaluated for this interpreter, and extras followed where a requirement
names them), starting from attention-scaling and jupyterlab: no resolver runs. Each
member must be pinned to the same version in requirements.txt. pip (with its cache and
the configured registry) fetches each wheel with --no-deps; a project published only as
an sdist is built into a wheel here. --wheelhouse keeps the wheels between runs: a
third-party wheel of the right version is not fetched again, and the package's wheel is
rebuilt unless its files equal the source.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import hashlib
import importlib.metadata as md
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
import zipfile
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "attention-scaling"
ROOTS = (PACKAGE, "jupyterlab")
# Never copied into the archive's site: Sphinx's and Jupyter's caches and build state.
SKIP_DIRS = {"__pycache__", "jupyter_execute", ".doctrees", ".jupyter_cache"}


class DistError(RuntimeError):
    """The archive cannot be made as asked (no built book, a missing pin or wheel)."""


def _name(name: str) -> str:
    return canonicalize_name(name)


def runtime_closure(roots: tuple[str, ...] = ROOTS) -> dict[str, str]:
    """Every distribution the roots need at run time, as {canonical name: installed version}.

    Read from the metadata of this interpreter's installed distributions: each Requires-Dist
    whose marker holds here (with no extra, or with an extra that a requirement asked for)
    is followed. A requirement that is not installed, or whose installed version does not
    satisfy it, is an error: the venv is not the pinned environment.
    """
    if not roots or any(not isinstance(r, str) or not r.strip() for r in roots):
        raise ValueError(f"roots must be non-empty distribution names, got {roots!r}")
    env = default_environment()
    found: dict[str, str] = {}
    seen: set[tuple[str, str]] = set()
    todo = [(_name(r), "") for r in roots]
    while todo:
        name, extra = todo.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            raise DistError(f"{name} is needed at run time but is not installed in {sys.prefix}") from None
        found[name] = dist.version
        for spec in dist.requires or []:
            req = Requirement(spec)
            if req.marker is not None and not req.marker.evaluate({**env, "extra": extra}):
                continue
            if extra and (req.marker is None or "extra" not in str(req.marker)):
                continue  # the base requirements were followed without the extra
            try:
                version = md.version(req.name)
            except md.PackageNotFoundError:
                raise DistError(f"{req.name} (required by {name}) is not installed in {sys.prefix}") from None
            if req.specifier and not req.specifier.contains(version, prereleases=True):
                raise DistError(f"{req.name} {version} is installed, but {name} requires {req}")
            todo.append((_name(req.name), ""))
            todo.extend((_name(req.name), e) for e in req.extras)
    return dict(sorted(found.items()))


def requirement_pins(path: Path) -> dict[str, str]:
    """The `name==version` lines of a requirements file, as {canonical name: version}."""
    if not Path(path).is_file():
        raise ValueError(f"path: no requirements file at {path}")
    pins = {}
    for line in Path(path).read_text().splitlines():
        if m := re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9_.-]*)==([^\s;#]+)", line.split("#")[0].strip()):
            pins[_name(m[1])] = m[2]
    return pins


def check_pins(closure: dict[str, str], pins: dict[str, str]) -> None:
    """Every member but the package itself is pinned, to the version installed."""
    wrong = {n: (v, pins.get(n)) for n, v in closure.items() if n != PACKAGE and pins.get(n) != v}
    if wrong:
        lines = ", ".join(f"{n} installed {v}, pinned {p}" for n, (v, p) in wrong.items())
        raise DistError(f"the venv is not the pinned environment (requirements.txt): {lines}")


def _wheels(folder: Path) -> dict[str, tuple[str, Path]]:
    out = {}
    for path in sorted(Path(folder).glob("*.whl")):
        name, version, _, _ = parse_wheel_filename(path.name)
        out[_name(name)] = (str(version), path)
    return out


def _source_files() -> dict[str, bytes]:
    src = ROOT / "src"
    return {str(p.relative_to(src)): p.read_bytes() for p in sorted((src / "attention_scaling").rglob("*.py"))}


def _package_wheel_is_fresh(path: Path) -> bool:
    """The wheel holds exactly the package's source files, its version and its requirements."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    with zipfile.ZipFile(path) as zf:
        names = [n for n in zf.namelist() if not n.split("/")[0].endswith(".dist-info")]
        files = {n: zf.read(n) for n in names}
        meta_name = next((n for n in zf.namelist() if n.endswith(".dist-info/METADATA")), None)
        meta = zf.read(meta_name).decode() if meta_name else ""
    requires = sorted(line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Requires-Dist:"))
    wanted = sorted(str(Requirement(d)) for d in project["dependencies"])
    return (files == _source_files() and f"\nVersion: {source_version()}\n" in meta
            and sorted(str(Requirement(r)) for r in requires) == wanted)


def _pip(*args: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise DistError(f"pip {' '.join(args[:3])} ... failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")


def build_package_wheel(dest: Path) -> Path:
    """A wheel of the package built from a clean copy of its source (no build/ in the tree)."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "src-copy"
        (copy / "src").mkdir(parents=True)
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, copy / name)
        shutil.copytree(ROOT / "src" / "attention_scaling", copy / "src" / "attention_scaling",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        out = Path(tmp) / "out"
        _pip("wheel", "--no-deps", "--wheel-dir", str(out), str(copy))
        built = list(out.glob("*.whl"))
        if len(built) != 1:
            raise DistError(f"pip built {len(built)} wheels of the package, expected one")
        for old in dest.glob("attention_scaling-*.whl"):
            old.unlink()
        return Path(shutil.copy2(built[0], dest / built[0].name))


def collect_wheels(wheelhouse: Path, closure: dict[str, str]) -> list[Path]:
    """Make `wheelhouse` hold exactly one wheel per closure member, at its version.

    Wheels already there at the right version are kept; the others are removed, and the
    missing ones fetched with pip (cache, then registry) or built from an sdist.
    """
    if not closure or PACKAGE not in closure:
        raise ValueError(f"closure must contain {PACKAGE}, got {sorted(closure)[:5]}...")
    wheelhouse = Path(wheelhouse)
    wheelhouse.mkdir(parents=True, exist_ok=True)
    for name, (version, path) in _wheels(wheelhouse).items():
        if closure.get(name) != version:
            path.unlink()
    have = _wheels(wheelhouse)
    if PACKAGE not in have or not _package_wheel_is_fresh(have[PACKAGE][1]):
        build_package_wheel(wheelhouse)
    missing = [f"{n}=={v}" for n, v in closure.items() if n != PACKAGE and n not in have]
    if missing:
        with tempfile.TemporaryDirectory() as tmp:
            reqs = Path(tmp) / "pins.txt"
            reqs.write_text("\n".join(missing) + "\n")
            _pip("wheel", "--no-deps", "--wheel-dir", str(wheelhouse), "-r", str(reqs))
    have = _wheels(wheelhouse)
    wrong = {n: v for n, v in closure.items() if have.get(n, ("",))[0] != v}
    extra = sorted(set(have) - set(closure))
    if wrong or extra:
        raise DistError(f"the wheelhouse {wheelhouse} lacks {wrong} and has extra {extra}")
    return [have[n][1] for n in closure]


def commit() -> tuple[str, str, bool]:
    """HEAD's full and short hash, and whether tracked files differ from it (the footer's rule)."""
    def git(*args: str) -> str:
        proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        if proc.returncode != 0:
            raise DistError(f"git {args[0]} failed, no commit to name the archive by: {proc.stderr.strip()}")
        return proc.stdout.strip()
    return git("rev-parse", "HEAD"), git("rev-parse", "--short", "HEAD"), bool(
        git("status", "--porcelain", "--untracked-files=no"))


STAMP = re.compile(r'class="asb-commit" data-sha="([0-9a-f]*)">[^<]*</code>( with uncommitted changes)?')


def site_commit(site: Path) -> tuple[str, bool]:
    """The commit every page's footer names, and whether it says "with uncommitted changes"."""
    stamps = set()
    for page in sorted(Path(site).rglob("*.html")):
        if not any(p.startswith(".") for p in page.relative_to(site).parts):
            stamps.update((sha, bool(dirty)) for sha, dirty in STAMP.findall(page.read_text(errors="replace")))
    if len(stamps) != 1:
        raise DistError(f"the pages of {site} name {len(stamps)} builds {sorted(stamps)}, not one: run `make book`")
    return stamps.pop()


def site_files(site: Path) -> list[Path]:
    """The built site's files, relative to it: no hidden files or folders, no caches."""
    site = Path(site)
    if not (site / "index.html").is_file():
        raise DistError(f"no built book in {site} (no index.html): run `make book` first")
    out = []
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site)
        if path.is_file() and not any(p.startswith(".") or p in SKIP_DIRS for p in rel.parts):
            out.append(rel)
    return out


LEGACY_MANYLINUX = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def _glibc(platform: str) -> tuple[int, int] | None:
    if m := re.fullmatch(r"manylinux_(\d+)_(\d+)_\w+", platform):
        return int(m[1]), int(m[2])
    return LEGACY_MANYLINUX.get(platform.split("_")[0])


def platform_line(wheels: list[Path]) -> str:
    """The CPython version and platform the wheels are for, read from their tags: with
    manylinux wheels, the oldest glibc that every one of them runs on."""
    if not wheels:
        raise ValueError("wheels must not be empty")
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    line = f"CPython {version} on {sysconfig.get_platform()}"
    needs = []
    for path in wheels:
        glibcs = [g for tag in parse_wheel_filename(path.name)[3] if (g := _glibc(tag.platform))]
        if glibcs:
            needs.append(min(glibcs))
    if needs:
        line += " with glibc %d.%d or newer" % max(needs)
    return line


README = """\
{title}
{underline}

Why attention divides by sqrt(d_k): the book, its labs and everything needed to run
them, with no network. Built on {date} from commit {commit}{dirty}
(package attention-scaling {version}).

  site/            the book as a static site: open site/index.html.
  labs/            the four labs (lab-*.ipynb) and the chapters as notebooks
                   (labs/chapters/).
  wheels/          the package's wheel and the wheels of everything the labs need
                   in JupyterLab, for {platform}.
  constraints.txt  the exact versions of those wheels.

Read the book
-------------
Open site/index.html in a browser (double-click it, or drag it into a window). Every
page, slider player, quiz and formula works from disk, with no network.

Run the labs with no network
----------------------------
Linux and macOS, in a terminal, in this folder (the one that holds this README):

    python{pyver} -m venv venv
    venv/bin/python -m pip install --no-index --find-links wheels attention-scaling jupyterlab
    venv/bin/jupyter lab labs/lab-predict-then-move-the-slider.ipynb

Windows, in a Command Prompt or PowerShell, in this folder:

    py -{pyver} -m venv venv
    venv\\Scripts\\python -m pip install --no-index --find-links wheels attention-scaling jupyterlab
    venv\\Scripts\\jupyter lab labs\\lab-predict-then-move-the-slider.ipynb

JupyterLab opens in your browser at a 127.0.0.1 address; nothing leaves your machine.
Open any notebook in labs/ from its file browser and run it with Run > Run All Cells.
The labs:
{labs}

The chapters as notebooks (labs/chapters/) are for reading beside the book, with every
number written out. Their hidden cells use myst-nb, one of the book's build tools,
which is not in wheels/: to run them too, install it once with network
(venv/bin/python -m pip install myst-nb=={myst_nb}). The instructor page's notebook
also needs the book's repository around it.

Another platform or another Python
----------------------------------
The wheels here are for {platform},
the system the archive was built on. Elsewhere (Windows, macOS, another Linux or another
Python version) the install above stops with "No matching distribution found". Then,
once and with a network, after making the venv as above, fetch the wheels that fit:

    venv/bin/python -m pip download --dest wheels --find-links wheels -c constraints.txt attention-scaling jupyterlab

(on Windows: venv\\Scripts\\python -m pip download ... with the same arguments), and run
the install line again: from then on nothing needs the network. The package's own wheel,
{package_wheel}, is pure Python and installs anywhere with Python >= 3.11;
constraints.txt keeps every other version as in the book's environment.

Built from commit {full_commit}{dirty}.
"""


def make_readme(name: str, version: str, short: str, full: str, dirty: bool, wheels: list[Path],
                labs: list[str]) -> str:
    platform = platform_line(wheels)
    package_wheel = next(p.name for p in wheels if p.name.startswith("attention_scaling-"))
    myst = md.version("myst-nb") if _installed("myst-nb") else "1.4.0"
    return README.format(
        title=name, underline="=" * len(name), date=datetime.date.today().isoformat(), commit=short,
        full_commit=full, dirty=" (with uncommitted changes)" if dirty else "", version=version,
        platform=platform, pyver=f"{sys.version_info.major}.{sys.version_info.minor}",
        labs="".join(f"    labs/{n}\n" for n in labs), myst_nb=myst, package_wheel=package_wheel)


def _installed(name: str) -> bool:
    try:
        md.distribution(name)
    except md.PackageNotFoundError:
        return False
    return True


def source_version() -> str:
    """The package's version as its source writes it (``__version__`` in its ``__init__.py``,
    which pyproject.toml names as the dynamic version), read without importing it."""
    tree = ast.parse((ROOT / "src" / "attention_scaling" / "__init__.py").read_text())
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and getattr(node.targets[0], "id", None) == "__version__"):
            return ast.literal_eval(node.value)
    raise DistError("src/attention_scaling/__init__.py sets no __version__")


def make_archive(site: Path, out: Path, wheelhouse: Path | None = None) -> Path:
    """Build the zip into `out` and return its path (see the module's docstring)."""
    site, out = Path(site), Path(out)
    files = site_files(site)
    closure = runtime_closure()
    check_pins(closure, requirement_pins(ROOT / "requirements.txt"))
    version = closure[PACKAGE]
    project_version = source_version()
    if version != project_version:
        raise DistError(f"the installed package is {version}, its source says {project_version}:"
                        " reinstall it (make venv)")
    full, short, dirty = commit()
    built = site_commit(site)
    if built != (full, dirty):
        said = f"{built[0][:7]}{' with uncommitted changes' if built[1] else ''}"
        now = f"{short}{' with uncommitted changes' if dirty else ''}"
        raise DistError(f"the built book in {site} is from commit {said}, the checkout is at {now}:"
                        " run `make book` first")
    name = f"{PACKAGE}-{version}-{short}{'-dirty' if dirty else ''}"
    with tempfile.TemporaryDirectory() as tmp:
        wheels = collect_wheels(Path(wheelhouse) if wheelhouse else Path(tmp) / "wheels", closure)
        labs = sorted((ROOT / "notebooks").glob("*.ipynb"))
        chapters = learner_chapters()
        if not labs or not chapters:
            raise DistError("no labs in notebooks/ or no chapters in notebooks/chapters/")
        readme = make_readme(name, version, short, full, dirty, wheels, [p.name for p in labs])
        constraints = "".join(f"{n}=={v}\n" for n, v in closure.items() if n != PACKAGE)
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob(f"{PACKAGE}-*.zip"):
            old.unlink()
        target = out / f"{name}.zip"
        partial = target.with_suffix(".zip.partial")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
            zf.writestr(f"{name}/README.txt", readme)
            zf.writestr(f"{name}/constraints.txt", constraints)
            for rel in files:
                zf.write(site / rel, f"{name}/site/{rel.as_posix()}")
            for path in labs:
                zf.write(path, f"{name}/labs/{path.name}")
            for path in chapters:
                zf.write(path, f"{name}/labs/chapters/{path.name}")
            for path in wheels:  # already compressed
                zf.write(path, f"{name}/wheels/{path.name}", compress_type=zipfile.ZIP_STORED)
        partial.replace(target)
    return target


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def learner_chapters() -> list[Path]:
    """The chapters as notebooks, without those of the pages only the instructor's edition has
    (_config.yml, book_instructor_pages): the archive is the learner's edition."""
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    only = {p.rsplit("/", 1)[-1] for p in config["sphinx"]["config"].get("book_instructor_pages", [])}
    return sorted(p for p in (ROOT / "notebooks" / "chapters").glob("*.ipynb") if p.stem not in only)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "_build" / "html", help="the built book")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "dist", help="where the zip goes")
    parser.add_argument("--wheelhouse", type=Path, default=ROOT / "_build" / "wheelhouse",
                        help="where wheels are collected and kept between runs")
    parser.add_argument("--wheels-only", action="store_true",
                        help="only collect the wheelhouse (no built book needed)")
    args = parser.parse_args(argv)
    try:
        if args.wheels_only:
            wheels = collect_wheels(args.wheelhouse, runtime_closure())
            print(f"{len(wheels)} wheels in {args.wheelhouse}")
            return 0
        target = make_archive(args.site, args.out, args.wheelhouse)
    except DistError as exc:
        print(f"make_dist: {exc}", file=sys.stderr)
        return 1
    size = target.stat().st_size
    print(f"Wrote {target} ({size / 1e6:.1f} MB). Unzip it and read README.txt inside.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
