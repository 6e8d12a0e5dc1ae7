"""Drop the cached executions of some pages, so that the next build executes them again.

    python scripts/forget_executions.py CACHE PAGE...

CACHE is the jupyter-cache folder (_build/.jupyter_cache); each PAGE is a source path
relative to the book's root (book/teach-with-this-book.md). A record is matched by the end
of the path it was cached from, so a cache copied from another clone of the book works too.
The page's executed notebook under _build/jupyter_execute goes as well.
"""

from __future__ import annotations

import sys
from pathlib import Path


def forget(cache: Path, pages: list[str]) -> list[str]:
    """Remove the records of ``pages`` from the jupyter-cache at ``cache``; return their URIs."""
    from jupyter_cache import get_cache
    from jupyter_cache.cache.db import NbCacheRecord

    if not cache.is_dir():
        raise ValueError(f"cache must be a jupyter-cache folder, got {cache}")
    wanted = [Path(p).as_posix().lstrip("./") for p in pages]
    db = get_cache(str(cache))
    gone = []
    for record in db.list_cache_records():
        if any(record.uri.endswith("/" + page) for page in wanted):
            try:
                db.remove_cache(record.pk)
            except KeyError:  # its executed copy is gone already (an interrupted run): the record goes
                NbCacheRecord.remove_records([record.pk], db.db)
            gone.append(record.uri)
    for page in wanted:
        Path(cache.parent, "jupyter_execute", page).with_suffix(".ipynb").unlink(missing_ok=True)
    return gone


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for uri in forget(Path(sys.argv[1]), sys.argv[2:]):
        print(f"forget_executions: dropped {uri}")
