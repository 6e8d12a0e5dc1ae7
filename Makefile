# The book's commands. `make book` builds it, `make test` checks it.
SHELL := /bin/bash
.DEFAULT_GOAL := help
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HTML := _build/html

# `make publish` commits the built site to this branch and pushes it to this remote.
PAGES_BRANCH ?= gh-pages
REMOTE ?= origin

.PHONY: help venv venv-test book serve test bench pdf publish clean

help:
	@echo "make book   build the book strictly into $(HTML) (creates $(VENV) on first use)"
	@echo "make serve  serve the built book on http://127.0.0.1:$(PORT)"
	@echo "make test   unit, notebook, strict-build and browser tests"
	@echo "make bench  slider latency, frame export, build time, page weight (table + JSON line)"
	@echo "make bench-class  kernels, memory and slider latency for a class of 5-40 on this machine"
	@echo "make publish  build, then push $(HTML) to the $(PAGES_BRANCH) branch of $(REMOTE) (ghp-import)"
	@echo "make pdf    print the book (or PAGES=\"book/intro.html ...\") to _build/handout.pdf"
	@echo "make clean  remove _build (keeps $(VENV))"

venv:
	@scripts/ensure-venv $(VENV) requirements.txt

venv-test:
	@scripts/ensure-venv $(VENV) requirements-test.txt requirements-hub.txt

book: venv
	scripts/build-book $(PY)
	@echo
	@echo "Built. Open file://$(CURDIR)/$(HTML)/index.html, or run: make serve"

serve:
	@test -f $(HTML)/index.html || { echo "No built book: run make book first"; exit 1; }
	@echo "Serving http://127.0.0.1:$(PORT)/ (Ctrl-C stops)"
	$(PY) -m http.server --bind 127.0.0.1 --directory $(HTML) $(PORT)

# The browser is found (or installed) first; pytest's summary line is the last output.
# configurable-http-proxy (npm) for the hub test is found or installed the same way.
test: venv-test
	@CHROMIUM="$$(scripts/find-chromium $(PY))" CHP="$$(scripts/find-chp $(VENV))" $(PY) -m pytest

# JupyterHub's proxy from npm, into $(VENV)/chp (the hub test; `make test` does this itself).
.PHONY: chp
chp: venv-test
	@scripts/find-chp $(VENV)

# A PDF handout printed by the same headless Chromium as the tests (no LaTeX).
pdf: venv-test book
	@CHROMIUM="$$(scripts/find-chromium $(PY))" $(PY) scripts/make_pdf.py $(PAGES)

bench: venv
	$(PY) benchmarks/bench.py

# A class on one server: 5-40 students' kernels dragging the explorer's slider at once;
# prints a table and writes benchmarks/results/class.json (the instructor page reads it).
.PHONY: bench-class
bench-class: venv
	$(PY) benchmarks/bench_class.py

# Publishing without GitHub Actions: the built site becomes the only commit of the
# $(PAGES_BRANCH) branch (-o: no history, so old frames do not pile up; -f: force-push it),
# with a .nojekyll file so GitHub Pages serves _static/ and _images/ as they are (-n).
publish: book
	@git diff --quiet HEAD -- || echo "publish: warning: uncommitted changes; the footer says so"
	$(VENV)/bin/ghp-import -n -o -f -p -r $(REMOTE) -b $(PAGES_BRANCH) \
	  -m "Publish the book built from $$(git rev-parse --short HEAD)" $(HTML)
	@echo "Pushed $(HTML) to $(REMOTE)/$(PAGES_BRANCH)."

clean:
	rm -rf _build
