# boneyard: `make run` starts the main job, `make test` runs everything CI runs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What playing needs (make run), and everything the tests and benchmarks need on top.
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
SOURCES := pyproject.toml hatch_build.py boneyard/games/rummikub/_rummikub_dp.c boneyard/rl/_observe.c
# make run HOST=0.0.0.0 serves other machines on the LAN too (see README).
HOST ?= 127.0.0.1
PORT ?= 8000
# make run HOST=0.0.0.0 PUBLIC_URL=http://my-laptop:8000: the address the copy-link buttons give out.
PUBLIC_URL ?=

.PHONY: run test bench build lint chromium postgres redis compiler clean

# The engines mypyc compiles at install (hatch_build.py's ENGINE_SOURCES).
ENGINES := $(wildcard boneyard/tiles.py boneyard/rules.py boneyard/errors.py boneyard/draws.py boneyard/games/base.py \
	boneyard/games/*/engine.py boneyard/games/*/analysis.py boneyard/games/*/sampling.py \
	boneyard/games/rummikub/solver.py boneyard/games/rummikub/groups.py boneyard/sim/loop.py boneyard/bots/basic.py \
	boneyard/rl/encoding.py $(filter-out boneyard/rl/encodings/__init__.py,$(wildcard boneyard/rl/encodings/*.py)) \
	boneyard/rl/core.py boneyard/rl/lane.py \
	$(filter-out boneyard/bots/tricks/__init__.py,$(wildcard boneyard/bots/tricks/*.py)) \
	$(filter-out boneyard/bots/playouts/__init__.py,$(wildcard boneyard/bots/playouts/*.py)))

$(VENV)/bin/python:
	$(PY) -m venv $(VENV) || (apt-get update && apt-get install -y python3-venv && $(PY) -m venv $(VENV))
	$(BIN)/python -m pip install -q --upgrade pip

# The install compiles the engines with mypyc and the C modules (Rummikub search, RL
# observations); redone when any of them changes, and it says once which engines run.
$(STAMP): $(SOURCES) $(ENGINES) | compiler $(VENV)/bin/python
	$(BIN)/python -m pip install -q -e .
	@$(BIN)/python -c "import boneyard.compiled as c; print('boneyard engines:', c.describe())"
	touch $(STAMP)

# torch first, pinned to the release whose CPU build this machine keeps on disk: asked for
# through the deeprl extra alone, pip would take a CUDA build of several GB.
$(DEV_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q 'torch==2.13.0'
	$(BIN)/python -m pip install -q -e '.[dev,rl,deeprl]'
	touch $(DEV_STAMP)

# (Re)build the compiled engines and C modules in place when their sources changed.
build: $(STAMP)

run: $(STAMP)
	$(BIN)/boneyard serve --host $(HOST) --port $(PORT) --db sqlite:///boneyard.db $(if $(PUBLIC_URL),--public-url $(PUBLIC_URL))

# A C compiler and Python's headers for the compiled modules (Debian's gcc).
compiler:
	@command -v cc >/dev/null 2>&1 || (apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev)
	@$(PY) -c "import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" || \
		(apt-get update && apt-get install -y --no-install-recommends python3-dev)

# Debian's Chromium for the browser tests (never a downloaded browser build).
chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update && apt-get install -y --no-install-recommends chromium)

# Debian's PostgreSQL for the server's persistence tests (started by the tests themselves).
postgres:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		(apt-get update && apt-get install -y --no-install-recommends postgresql)

# Debian's Redis for the shared-limits tests (started by the tests themselves).
redis:
	@command -v redis-server >/dev/null 2>&1 || (apt-get update && apt-get install -y --no-install-recommends redis-server)

lint: $(DEV_STAMP)
	$(BIN)/ruff check boneyard tests benchmarks
	$(BIN)/mypy

# The suite runs against the compiled engines (a test fails if they are not in use);
# tests/test_compiled.py also runs the conformance suite on the pure-Python engines.
test: $(DEV_STAMP) chromium postgres redis lint
	BONEYARD_REQUIRE_COMPILED=1 $(BIN)/pytest -n 2 --durations=25

# The peers are installed only here (the tests never need them); one that cannot be
# installed is reported as such in the table.
PEERS := 'dominoes>=6.0' 'open_spiel>=1.5' 'rlcard>=1.2' 'pygame>=2.1'

# make bench BASE=REV: the revision the report measures this checkout against (before_after.py builds it).
BASE ?= HEAD~1

bench: $(DEV_STAMP)
	@for p in $(PEERS); do $(BIN)/python -m pip install -q "$$p" || echo "could not install $$p"; done
	$(BIN)/python benchmarks/peers.py --base $(BASE) --write docs/performance.md
	$(BIN)/python benchmarks/server_load.py --write docs/performance.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache boneyard/_compiled.json
	find boneyard -name '*.so' -delete  # the compiled engines and C modules: build products only
