# The two commands a newcomer runs: `make serve` and `make test`. Each makes .venv if needed:
# `serve` installs what the server runs, `test` adds the development tools.
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	2>/dev/null && { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
SERVER_STAMP := $(VENV)/.installed-server
DEV_STAMP := $(VENV)/.installed-dev

LINTERS := tools/openapi-lint
LINTERS_STAMP := $(LINTERS)/node_modules/.installed

.PHONY: serve test test-fast lint lint-openapi openapi examples bench bench-expert browser clean

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "turnpost needs Python 3.11 or newer (python3.11, python3.12, ...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(SERVER_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(SERVER_STAMP) $@

# The web client's catalogues (web/translations) and the service's (service/translations),
# compiled from their .po files; the app also compiles one that is missing or out of date when
# it starts (web/i18n.py), and a worker on its first use of a language (service/words.py).
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard web/translations/*/LC_MESSAGES/*.po service/translations/*/LC_MESSAGES/*.po))

%.mo: %.po $(SERVER_STAMP)
	$(BIN)/pybabel compile --input-file $< --output-file $@

PORT ?= 8000

serve: $(SERVER_STAMP) $(CATALOGUES)
	$(BIN)/turnpost serve --port $(PORT)

lint: $(DEV_STAMP) lint-openapi
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# Redocly and Spectral, pinned in tools/openapi-lint/package-lock.json, installed with npm ci.
$(LINTERS_STAMP): $(LINTERS)/package.json $(LINTERS)/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "lint-openapi needs node and npm"; exit 1; }
	npm ci --prefix $(LINTERS) --no-audit --no-fund --loglevel=error
	touch $(LINTERS_STAMP)

lint-openapi: $(LINTERS_STAMP)
	$(LINTERS)/node_modules/.bin/redocly lint openapi/openapi.json \
		--config $(LINTERS)/redocly.yaml --format=stylish
	$(LINTERS)/node_modules/.bin/spectral lint openapi/openapi.json \
		--ruleset $(LINTERS)/.spectral.yaml --fail-severity=error

# The real browser the browser tests drive (Playwright for Python with Debian's headless
# Chromium: Playwright's own download server cannot be reached from here).
BROWSER := /usr/bin/chromium-headless-shell

$(BROWSER):
	apt-get install -y --no-install-recommends chromium-headless-shell || \
		{ apt-get update && apt-get install -y --no-install-recommends chromium-headless-shell; }

browser: $(BROWSER)

# axe-core, pinned in tools/axe/package-lock.json: the browser tests run it on every page.
AXE := tools/axe
AXE_STAMP := $(AXE)/node_modules/.installed

$(AXE_STAMP): $(AXE)/package.json $(AXE)/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "the accessibility check needs node and npm"; exit 1; }
	npm ci --prefix $(AXE) --no-audit --no-fund --loglevel=error
	touch $(AXE_STAMP)

# Python's compiled modules (and pytest's rewritten test modules) are kept between runs even
# where the environment says not to write them: a run then starts in seconds, not half a minute.
unexport PYTHONDONTWRITEBYTECODE

test: $(DEV_STAMP) $(CATALOGUES) lint $(BROWSER) $(AXE_STAMP)
	$(BIN)/python -m pytest -n 4 -q --durations=25

# The loop while working: every test but the slow, end-to-end, browser, fault and cluster ones
# (their markers: pyproject.toml), in parallel, no linters; `make test` stays the whole suite.
FAST := not (slow or e2e or browser or faults or cluster)

test-fast: $(DEV_STAMP) $(CATALOGUES)
	$(BIN)/python -m pytest -n 2 -q -m "$(FAST)" --ignore=tests/e2e --ignore=tests/faults \
		--ignore=tests/cluster

openapi: $(DEV_STAMP)
	$(BIN)/turnpost openapi

examples: $(DEV_STAMP)
	$(BIN)/turnpost examples
	$(BIN)/turnpost openapi

# The move's cost is compared with the code before issue 13's rewrite, checked out apart;
# the worker's cost of deliveries with the code before its batches.
BEFORE := /tmp/before
BEFORE_DELIVERIES := /tmp/before-deliveries

bench: $(DEV_STAMP)
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.profile_requests
	$(BIN)/python -m bench.move_channels
	$(BIN)/python -m bench.finished_games
	$(BIN)/python -m bench.games
	$(BIN)/python -m bench.bots
	$(BIN)/python -m bench.ratings
	test -d $(BEFORE) || git worktree add --detach $(BEFORE) 1854caf
	$(BIN)/python -m bench.move_cost --before $(BEFORE)
	$(BIN)/python -m bench.timers
	$(BIN)/python -m bench.timers --mix
	$(BIN)/python -m bench.notify
	$(BIN)/python -m bench.push
	test -d $(BEFORE_DELIVERIES) || git worktree add --detach $(BEFORE_DELIVERIES) 8d9a3c1
	$(BIN)/python -m bench.deliveries --before $(BEFORE_DELIVERIES)
	$(BIN)/python -m bench.soak --minutes 60

# bot:expert against the heuristic: 200 games per title at 1 s a move, hours on this machine.
bench-expert: $(DEV_STAMP)
	$(BIN)/python -m bench.expert

clean:
	rm -rf $(VENV) data .pytest_cache $(LINTERS)/node_modules $(AXE)/node_modules
