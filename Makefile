# The two commands a newcomer runs: `make serve` and `make test`. Each makes .venv if needed.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve test lint openapi examples bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "needs $(PYTHON)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/turnpost serve

lint: $(STAMP)
	$(BIN)/lint-imports

test: $(STAMP) lint
	$(BIN)/python -m pytest -n 2 -q

openapi: $(STAMP)
	$(BIN)/turnpost openapi

examples: $(STAMP)
	$(BIN)/turnpost examples
	$(BIN)/turnpost openapi

# The move's cost is compared with the code before issue 13's rewrite, checked out apart.
BEFORE := /tmp/before

bench: $(STAMP)
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.games
	test -d $(BEFORE) || git worktree add --detach $(BEFORE) 1854caf
	$(BIN)/python -m bench.move_cost --before $(BEFORE)
	$(BIN)/python -m bench.timers
	$(BIN)/python -m bench.notify

clean:
	rm -rf $(VENV) data .pytest_cache
