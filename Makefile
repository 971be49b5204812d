# make run:   install everything and start the web app on 127.0.0.1:8000.
# make cluster: nginx + 3 nodes + PostgreSQL + Redis on loopback ports, to try a deployment (docs/deploy.md).
# make install: the virtual environment, then `raten cache warm` compiles the numba kernels (a minute or
#             two once), so the first real command is fast.
# make test:  install everything (browser, Debian dictionaries and postgresql included), lint, the device engine's
#             node tests, and the whole suite with branch coverage.
# make check: lint, the device engine's node tests, the suite without the slow and browser tests (the loop
#             before every commit, meant for under a minute: docs/design.md#tests),
#             and the docs site built with --strict.
# make docs:  regenerate docs/cli.md from --help (a test fails when it is stale).
# make site:  build the docs site (mkdocs.yml, Material theme) into .cache/site; broken links fail.
# make dictionaries: Debian's dictionaries and tools that `raten words build` reads (German, --lang).
# make postgres: Debian's PostgreSQL server, which the store's tests start a throwaway copy of.
# make redis, make nginx: Debian's redis-server and nginx, which the tests of several nodes start copies of.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST := $(BIN)/python -m pytest

# Branch coverage of src/raten that `make test` must reach (measured 91%, kernels excluded:
# see [tool.coverage] in pyproject.toml). Raise it when the figure rises; never lower it quietly.
COV_FLOOR := 89
COVERAGE := --cov=raten --cov-branch --cov-report=term-missing:skip-covered --cov-fail-under=$(COV_FLOOR)

.PHONY: run cluster test check install warm-start browser dictionaries postgres redis nginx axe lint docs site bench clean constraints

# constraints.txt pins every package `make install` installs (so two machines get the same
# versions); pyproject.toml keeps the floors. To refresh it after changing dependencies:
#   make clean && make install CONSTRAINTS= && make constraints
# (install unpinned into a fresh .venv, then freeze it; raten itself is left out).
CONSTRAINTS ?= -c constraints.txt

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet $(CONSTRAINTS) -e '.[all,dev]'
	$(BIN)/raten cache warm
	touch $(STAMP)

install: $(STAMP)

constraints: install
	$(BIN)/python -m pip freeze --exclude-editable --exclude raten > constraints.txt

# Debian's chromium drives the browser tests (Playwright uses it; it downloads no browser).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# Debian's German dictionaries and tools that `raten words build` reads (wngerman, the frami
# hunspell dictionary, unmunch and hunspell to expand it), for the German build's tests, and the
# hunspell dictionaries `raten words build --lang` reads for the other languages' lists
# (src/raten/wordlists/languages.py), for the tests that rebuild them byte for byte.
# hunspell-de-de-frami conflicts with hunspell-de-de, whose forms are wngerman's anyway.
GERMAN_DEBS := wngerman hunspell-de-de-frami hunspell-tools hunspell
LANGUAGE_DEBS := hunspell-en-us hunspell-fr hunspell-es hunspell-it hunspell-nl hunspell-pt-br
DICTIONARY_DEBS := $(GERMAN_DEBS) $(LANGUAGE_DEBS)
dictionaries:
	@dpkg-query -W -f='$${Status}\n' $(DICTIONARY_DEBS) 2>/dev/null | grep -c '^install ok installed$$' \
		| grep -qx $(words $(DICTIONARY_DEBS)) || { \
		echo "installing Debian's $(DICTIONARY_DEBS) for the word lists' build tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DICTIONARY_DEBS) >/dev/null; }

# Debian's PostgreSQL server: the store's tests run on SQLite and on a throwaway PostgreSQL that
# tests/postgres_server.py starts in a temporary folder (initdb and pg_ctl from /usr/lib/postgresql).
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
		echo "installing Debian's postgresql for the store's tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }

# Debian's redis-server and nginx: the tests start their own copies in temporary folders on free
# loopback ports (tests/redis_server.py, tests/web/cluster.py); the packages' own services are not used.
redis:
	@command -v redis-server >/dev/null 2>&1 || { \
		echo "installing Debian's redis-server for the tests of several nodes"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; }

nginx:
	@command -v nginx >/dev/null 2>&1 || { \
		echo "installing Debian's nginx for the tests of several nodes"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; }

# axe-core from the npm registry, for the browser tests' accessibility checks (kept in .cache,
# never committed; tests/web/e2e/conftest.py fetches the same version when it is missing).
AXE_VERSION := 4.14.1
AXE := .cache/axe-core/$(AXE_VERSION)/axe.min.js
$(AXE):
	mkdir -p $(dir $(AXE))
	cd $(dir $(AXE)) && npm pack axe-core@$(AXE_VERSION) --silent >/dev/null \
		&& tar -xzf axe-core-$(AXE_VERSION).tgz --strip-components=1 package/axe.min.js \
		&& rm axe-core-$(AXE_VERSION).tgz

axe: $(AXE)

run: install
	$(BIN)/raten serve --host 127.0.0.1 --port 8000

# The whole deployment on loopback ports until Ctrl-C: nginx + 3 nodes + PostgreSQL + Redis (docs/deploy.md).
cluster: install postgres redis nginx
	$(BIN)/python deploy/localcluster.py

lint: install
	$(BIN)/ruff check src tests bench checker deploy
	$(BIN)/ruff format --check src tests bench checker deploy
	$(BIN)/mypy  # the package, as [tool.mypy] in pyproject.toml says

# The solver's engine on the device (src/raten/web/static/device/engine.js), under node's test runner.
NODE_TEST := node --test tests/web/js/

# TEST_WORKERS=N runs the suite in N pytest-xdist processes, a test file to a worker, each with
# one numba thread (two workers with two threads each made numba-heavy tests 3.5 times slower on
# 2 cores). It is off by default: on this shared 2-core machine even that was slower than one
# process (docs/benchmarks.md, running the tests in parallel). --durations shows where the time goes.
TEST_WORKERS ?= 0
ONE_THREAD := $(if $(filter 0,$(TEST_WORKERS)),,NUMBA_NUM_THREADS=1)
XDIST := $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)

# The numba kernels the suite needs, compiled into numba's cache in the background while the
# browser, dictionaries, axe, lint, site and node steps run (tests/warm_kernels.py: on a fresh clone
# the first browser test's server compiled them itself, 67 s of its setup against 5 s after this);
# `test` and `check` wait for it before pytest (WARM_WAIT: until the process has ended, not for a
# time). If it fails the tests compile what they need, as before. With a warm cache it only
# checks its stamp in the cache folder and ends.
WARM_PID := .cache/warm-kernels.pid
WARM_LOG := .cache/warm-kernels.log
warm-start: install
	@mkdir -p .cache
	@$(BIN)/python tests/warm_kernels.py > $(WARM_LOG) 2>&1 & echo $$! > $(WARM_PID)
WARM_WAIT = @while kill -0 $$(cat $(WARM_PID)) 2>/dev/null; do sleep 0.5; done; \
	grep -qx warm $(WARM_LOG) || { echo "the kernel warm-up did not finish; the tests compile instead:"; tail -3 $(WARM_LOG); }

# RATEN_NEED_DEBIAN=1: a test that needs the Debian packages (dictionaries, postgresql, redis-server,
# nginx) fails instead of skipping.
test: install warm-start browser dictionaries postgres redis nginx axe lint
	$(NODE_TEST)
	$(WARM_WAIT)
	RATEN_NEED_DEBIAN=1 $(ONE_THREAD) $(PYTEST) -q $(XDIST) --durations=15 $(COVERAGE)

# The loop before every commit (docs/design.md#tests: its time, idle and loaded, first and warm).
check: install warm-start lint site
	$(NODE_TEST)
	$(WARM_WAIT)
	$(PYTEST) -q -m "not slow and not e2e" --durations=10

docs: install
	$(BIN)/python -m raten.cli.reference docs/cli.md

# The docs site from docs/ (about 3 s). --strict fails on a broken link or anchor and on a page
# left out of the nav; the site goes to .cache/site (git-ignored), so the tree stays clean.
# tests/test_docs.py builds it too, so `make test` checks it as well.
SITE_DIR := .cache/site
site: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir $(SITE_DIR)

bench: install
	$(BIN)/python bench/bench_rank.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .coverage .coverage.*
