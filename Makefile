# Two entry points for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PAPERS ?= $(abspath ../shared/papers)

.PHONY: run test install bench fuzz clean

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

clean:
	rm -rf $(VENV) build *.egg-info
