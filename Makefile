# boneyard: `make run` starts the main job, `make test` runs everything CI runs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint chromium clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV) || (apt-get update && apt-get install -y python3-venv && $(PY) -m venv $(VENV))
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/boneyard play rounce --players 4 --bots random

# Debian's Chromium for the browser tests (never a downloaded browser build).
chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update && apt-get install -y --no-install-recommends chromium)

lint: $(STAMP)
	$(BIN)/ruff check boneyard tests benchmarks
	$(BIN)/mypy

test: $(STAMP) chromium lint
	$(BIN)/pytest -n 2

# The peers are installed only here (the tests never need them); one that cannot be
# installed is reported as such in the table.
PEERS := 'dominoes>=6.0' 'open_spiel>=1.5' 'rlcard>=1.2'

bench: $(STAMP)
	@for p in $(PEERS); do $(BIN)/python -m pip install -q "$$p" || echo "could not install $$p"; done
	$(BIN)/python benchmarks/peers.py --write docs/performance.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
