# Two entry points for people: `make lab` and `make test` (see README.md).
# Everything else here is plumbing that makes both idempotent: each install step
# leaves a stamp file and reruns only when the file it depends on changes.

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Folder `make lab` opens; `make lab NOTEBOOKS=tutorials/fi` for the Finnish ones.
NOTEBOOKS ?= tutorials/en
# Extra pytest arguments, e.g. `make test PYTEST_ARGS='-m "not browser"'`.
PYTEST_ARGS ?=

PY_STAMP := $(VENV)/.installed-dev
LAB_STAMP := $(VENV)/.installed-lab
LITE_STAMP := $(VENV)/.installed-lite
JS_STAMP := js/node_modules/.installed
BUNDLE := rummy_widget/static/widget.js
# The bundle also embeds the translation tables, so a new key rebuilds it too.
JS_SOURCES := $(shell find js/src js/build.mjs -type f 2>/dev/null) \
	$(wildcard rummy_widget/locales/*.json)

# anywidget's hot reloading (watchfiles) breaks under pytest: never inherit it.
unexport ANYWIDGET_HMR

# Notebook checks join the pytest run only once there are notebooks to check.
NOTEBOOK_DIRS := $(wildcard tutorials/en tutorials/fi)
HAS_NOTEBOOKS := $(shell find $(NOTEBOOK_DIRS) /dev/null -name '*.ipynb' \
	-not -path '*/.ipynb_checkpoints/*' 2>/dev/null | head -n 1)
NBVAL_ARGS := $(if $(HAS_NOTEBOOKS),--nbval $(NOTEBOOK_DIRS) \
	$(if $(wildcard tests/nbval_sanitize.cfg),--nbval-sanitize-with tests/nbval_sanitize.cfg))

.PHONY: help install lab-install trust lab test lint js-check pytest lite clean

help:
	@echo "make lab    open $(NOTEBOOKS) in JupyterLab (installs into $(VENV) first)"
	@echo "make test   lint, front-end checks, then the whole pytest suite"
	@echo "make lite   build site/: the tutorials as an offline JupyterLite site"
	@echo "make clean  remove $(VENV), js/node_modules and the built bundle"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Front-end dependencies, exactly as the lockfile pins them.
$(JS_STAMP): js/package.json js/package-lock.json
	cd js && npm ci --no-audit --no-fund
	touch $@

# A plain `pip install -e .` runs npm through hatch-jupyter-builder when js/src is newer than
# the bundle. Here npm ci above installs from the lockfile and the bundle rule below builds,
# so the hook is skipped. One stamp per extra: `make lab` installs what a teacher needs
# ([lab]), `make lite` what the site's build needs ([lite]), `make test` everything ([dev],
# which holds the other two, so installing it stamps them as well).
$(VENV)/.installed-%: pyproject.toml | $(BIN)/python
	HATCH_JUPYTER_BUILDER_SKIP_NPM=1 $(BIN)/python -m pip install --quiet -e ".[$*]"
	touch $@ $(if $(filter dev,$*),$(LAB_STAMP) $(LITE_STAMP))

# Rebuild the bundle (rummy_widget/static/) whenever a front-end source is newer than it.
$(BUNDLE): $(JS_SOURCES) $(JS_STAMP)
	cd js && npm run --silent build
	touch $@

install: $(BUNDLE) $(PY_STAMP)

lab-install: $(BUNDLE) $(LAB_STAMP)

# The tutorials as an offline JupyterLite site in site/ (docs/hosts.md).
lite: $(BUNDLE) $(LITE_STAMP)
	$(BIN)/python scripts/build_lite.py --output site

# The tutorials are saved with their outputs, and JupyterLab strips the cards' SVG from a
# notebook it does not trust: sign this checkout's own notebooks so they show as saved
# (tests/browser checks that this makes the saved cards appear).
trust: $(LAB_STAMP)
	@find $(NOTEBOOKS) -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' 2>/dev/null \
		| xargs -r $(BIN)/jupyter trust

# Jupyter refuses to run as root without --allow-root (containers, CI machines).
lab: lab-install trust
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) \
		$(if $(wildcard $(NOTEBOOKS)),$(NOTEBOOKS),.)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

js-check: $(JS_STAMP)
	cd js && npm run --silent typecheck
	cd js && npm test

# Exit code 5 means pytest collected nothing (an empty tests/ early on): say so and go on.
# Every other non-zero code is a real failure and stops make.
pytest: install
	@set +e; \
	$(BIN)/python -m pytest tests $(NBVAL_ARGS) $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests (exit 5): nothing to run yet"; rc=0; fi; \
	exit $$rc

test: lint js-check pytest

clean:
	rm -rf $(VENV) js/node_modules rummy_widget/static site build/lite
