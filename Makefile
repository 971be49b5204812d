# make run: install everything and start the web app on 127.0.0.1:8000.
# make test: install everything (browser included) and run lint and the test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install browser lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

install: $(STAMP)

# Debian's chromium drives the browser tests (Playwright uses it; it downloads no browser).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

run: install
	$(BIN)/raten serve --host 127.0.0.1 --port 8000

lint: install
	$(BIN)/ruff check src tests bench

test: install browser lint
	$(BIN)/python -m pytest -q

bench: install
	$(BIN)/python bench/bench_rank.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
