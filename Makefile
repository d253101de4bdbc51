# The two commands a newcomer runs: `make serve` and `make test`. Each makes .venv if needed.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

LINTERS := tools/openapi-lint
LINTERS_STAMP := $(LINTERS)/node_modules/.installed

.PHONY: serve test lint lint-openapi openapi examples bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "needs $(PYTHON)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/turnpost serve

lint: $(STAMP) lint-openapi
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

test: $(STAMP) lint
	$(BIN)/python -m pytest -n 2 -q

openapi: $(STAMP)
	$(BIN)/turnpost openapi

examples: $(STAMP)
	$(BIN)/turnpost examples
	$(BIN)/turnpost openapi

bench: $(STAMP)
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.games
	$(BIN)/python -m bench.timers
	$(BIN)/python -m bench.notify

clean:
	rm -rf $(VENV) data .pytest_cache $(LINTERS)/node_modules
