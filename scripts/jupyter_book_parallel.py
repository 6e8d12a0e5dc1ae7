"""`jupyter-book build` with Sphinx reading, and so executing, pages in parallel.

    python scripts/jupyter_book_parallel.py JOBS CACHE build . -W -n --keep-going

Jupyter Book 1's command line never passes Sphinx's ``-j``; this runs the same command with
``jobs`` set, so two chapters' notebooks execute at once (scripts/build-book). CACHE is the
jupyter-cache folder: its database is made here first, because two reader processes that
both find it missing would both try to make it. ``attention_book.chapter_notebooks``
keeps the writing serial and lets Sphinx read the extensions in parallel.

``BOOK_EDITION`` (``learner``, the default, or ``instructor``) becomes the Sphinx tag of that
name (attention_book.edition). The instructor's edition is written to
``_build/html-instructor``, with Sphinx's saved environment in ``_build/.doctrees-instructor``,
beside the learner's ``_build/html``; both read the one execution cache.
"""

import multiprocessing
import os
import sys
from pathlib import Path

import jupyter_book.sphinx
from jupyter_book.cli.main import main
from jupyter_cache.cache.db import create_db

if __name__ == "__main__":
    jobs, cache = int(sys.argv.pop(1)), sys.argv.pop(1)
    if jobs < 1:
        raise SystemExit(f"JOBS must be at least 1, got {jobs}")
    from attention_book.edition import EDITIONS

    edition = os.environ.get("BOOK_EDITION") or EDITIONS[0]
    if edition not in EDITIONS:
        raise SystemExit(f"BOOK_EDITION must be one of {', '.join(EDITIONS)}, got {edition!r}")
    create_db(cache).dispose()
    build_sphinx = jupyter_book.sphinx.build_sphinx

    def build_edition(sourcedir, outputdir, **kwargs):
        if edition == "instructor":
            build = Path(outputdir).parent
            outputdir, kwargs["doctreedir"] = build / "html-instructor", build / ".doctrees-instructor"
            print(f"Edition: the instructor's, written to {outputdir}", flush=True)
        return build_sphinx(sourcedir, outputdir, jobs=jobs, tags=[edition], **kwargs)

    jupyter_book.sphinx.build_sphinx = build_edition
    code = 1
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        # A failed parallel build can leave a reader process waiting on a kernel that never
        # started (two kernels drew the same port): it must not keep the build from ending.
        for child in multiprocessing.active_children():
            child.terminate()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
