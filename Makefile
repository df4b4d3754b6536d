# The two commands a newcomer needs: `make serve` and `make test`.
# Both create (or refresh) the virtual environment in .venv themselves.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: serve test lint bench clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## Play in the terminal against bots (the web server arrives with issue 7).
serve: $(STAMP)
	$(BIN)/intrigue play masquerade-murder

## Lint, then run every test.
test: $(STAMP) lint
	$(BIN)/python -m pytest -n 2 --dist loadfile

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

bench: $(STAMP)
	$(BIN)/python bench/playouts.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
