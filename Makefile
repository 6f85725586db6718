# Two entry points for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PAPERS ?= $(abspath ../shared/papers)
FUZZ_STAMP := $(VENV)/.installed-fuzz
FUZZ_SECONDS ?= 300

.PHONY: run test install bench fuzz e2e clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/streamlit run app.py

test: $(STAMP)
	QUOTELOCATE_PAPERS="$${QUOTELOCATE_PAPERS:-$(PAPERS)}" $(BIN)/python -m pytest -q

bench: $(STAMP)
	QUOTELOCATE_PAPERS="$${QUOTELOCATE_PAPERS:-$(PAPERS)}" $(BIN)/python benchmarks/locate_bench.py

$(FUZZ_STAMP): pyproject.toml | $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[fuzz]'
	touch $(FUZZ_STAMP)

# The long part of the fuzzing (the fast part, the corpus replay, runs in `make test`).
fuzz: $(FUZZ_STAMP)
	QUOTELOCATE_PAPERS="$${QUOTELOCATE_PAPERS:-$(PAPERS)}" FUZZ_SECONDS="$(FUZZ_SECONDS)" $(BIN)/python fuzz/run.py

# End to end through outside tools too heavy for `make test` (promptfoo: ~700 npm
# packages, 1.4 GB). Needs Node.js ^20.20 or >=22.22 and npm on the PATH.
PROMPTFOO_DIR := integrations/promptfoo
PROMPTFOO_STAMP := $(PROMPTFOO_DIR)/node_modules/.installed

$(PROMPTFOO_STAMP): $(PROMPTFOO_DIR)/package.json $(PROMPTFOO_DIR)/package-lock.json
	cd $(PROMPTFOO_DIR) && npm ci --no-audit --no-fund
	touch $(PROMPTFOO_STAMP)

e2e: $(STAMP) $(PROMPTFOO_STAMP)
	QUOTELOCATE_PAPERS="$${QUOTELOCATE_PAPERS:-$(PAPERS)}" PROMPTFOO_PYTHON="$(abspath $(BIN)/python)" $(BIN)/python -m pytest -q e2e

clean:
	rm -rf $(VENV) build *.egg-info $(PROMPTFOO_DIR)/node_modules
