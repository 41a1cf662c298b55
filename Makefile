# The two commands of the README: `make play` sets up and starts the game, `make test` sets up
# and runs every check. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup offline play play-terminal test lint typecheck bench load cluster clean i18n-update i18n-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Offline play (docs/offline.md): Pyodide fetched with npm and checked (SHA-256), our package
# archived for the page; kept out of git in src/spite_malice/web/static/offline/build/.
offline: $(STAMP)
	$(BIN)/python -m spite_malice.offline.build

setup: $(STAMP) offline

play: setup
	$(BIN)/spite-malice serve

play-terminal: $(STAMP)
	$(BIN)/spite-malice play

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

# Every Python process the tests start (servers, workers, the command line) reads our package
# as the first one compiled it, even where the environment says not to write bytecode.
# mypy (one process, 15 s from a fresh clone) runs beside the tests, which keep both CPUs busy;
# its report is printed after theirs, and either failing fails the check.
test: export PYTHONDONTWRITEBYTECODE =
test: lint offline
	@$(BIN)/mypy > $(VENV)/mypy.log 2>&1 & types=$$!; \
	$(BIN)/pytest; tests=$$?; \
	wait $$types; typed=$$?; echo "mypy:"; cat $(VENV)/mypy.log; \
	test $$tests -eq 0 && test $$typed -eq 0

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py --games 2000 --seed 1

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

load: $(STAMP)
	$(BIN)/python benchmarks/load.py --games 200 --duration 60
	$(BIN)/python benchmarks/store_moves.py

# Three instances on PostgreSQL behind HAProxy on this machine (docs/deploying.md); Ctrl-C stops them.
cluster: $(STAMP)
	bash deploy/install-services.sh
	$(BIN)/spite-malice cluster

# Translations (docs/translating.md): merge new texts into the catalogs (LANGS="it ru" for some),
# then list what is missing or wrong; the tests run the same check.
i18n-update: $(STAMP)
	$(BIN)/python -m spite_malice.i18n.catalog_tools update $(LANGS)

i18n-check: $(STAMP)
	$(BIN)/python -m spite_malice.i18n.catalog_tools check $(LANGS)
