# The two commands a newcomer needs: `make serve` and `make test`.
# Both create (or refresh) the virtual environment in .venv themselves.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# `make serve` needs only the server's packages (no test, lab or learning set): its own stamp.
SERVE_STAMP := $(VENV)/.serving
HOST   ?= 127.0.0.1
PORT   ?= 8000
# Debian's Chromium drives the browser test (Playwright uses it; no browser download).
CHROMIUM := /usr/bin/chromium
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo -n)
# The `rl` extra (Stable-Baselines3) needs PyTorch. Installed first and pinned to the release
# this machine keeps as a CPU build, so pip does not fetch a much larger GPU build; elsewhere
# override it, e.g. `make test TORCH=torch`.
TORCH    ?= torch==2.13.0

.PHONY: serve test lint bench clean venv chromium axe compiled

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet '$(TORCH)'
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(SERVE_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	test -f $(STAMP) || $(BIN)/python -m pip install --quiet -e '.[server,compile]'
	touch $(SERVE_STAMP)

# The modules a move and a search run, compiled with Cython (src/intrigue/compiled.py): rebuilt
# when a source changes. Without Cython or a C compiler the sources run as they are.
COMPILED := src/intrigue/_compiled.json
COMPILED_SOURCES := $(shell find src/intrigue/engine src/intrigue/games src/intrigue/bots \
  src/intrigue/server/tables src/intrigue/server/transport src/intrigue/server/storage \
  -name '*.py' -not -path '*/migrations/*')
compiled: $(COMPILED)
$(COMPILED): $(COMPILED_SOURCES) | $(SERVE_STAMP)
	$(BIN)/python -m intrigue.compiling || \
	  echo "warning: could not compile; the sources run as they are (slower)"

## The web server on the embedded default database (SQLite file intrigue.sqlite3); it prints
## its address. `make serve PORT=9000 HOST=0.0.0.0` for another address.
## Terminal play: .venv/bin/intrigue play masquerade-murder
serve: $(SERVE_STAMP) compiled
	$(BIN)/intrigue serve --host $(HOST) --port $(PORT)

## Lint, then run every test.
test: $(STAMP) lint chromium axe compiled
	$(BIN)/python -m pytest -n 2 --dist loadfile

## Install Debian's chromium when it is missing; if that is impossible the browser test skips.
chromium:
	@test -x $(CHROMIUM) || { $(SUDO) apt-get update -q && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } || \
	  echo "warning: could not install chromium; the browser test will be skipped"

## axe-core (npm), which the accessibility test injects into every page; if npm cannot fetch
## it, that test is skipped.
AXE := node_modules/axe-core/axe.min.js
axe:
	@test -f $(AXE) || npm install --no-save --no-audit --no-fund axe-core@4 || \
	  echo "warning: could not install axe-core; the accessibility test will be skipped"

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

bench: $(STAMP)
	$(BIN)/python bench/playouts.py

clean:
	find src/intrigue -name '*.so' -delete
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis build src/intrigue/_compiled.json
