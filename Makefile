# Each target sets itself up on a fresh machine: `make verify` and `make test` install first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install verify test lint typecheck bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

verify: install
	$(BIN)/hoaregpu verify --expect specs/*.cu specs/*.cl
	$(BIN)/hoaregpu verify --expect specs/races/
	$(BIN)/hoaregpu verify --expect --timeout 120 specs/showcase/

lint: install
	$(BIN)/ruff check hoaregpu tests bench
	$(BIN)/ruff format --check hoaregpu tests bench

typecheck: install
	$(BIN)/mypy

test: lint typecheck
	$(BIN)/pytest

bench: install
	$(BIN)/python bench/verify_specs.py
	$(BIN)/python bench/solvers.py
	$(BIN)/python bench/interp.py
	$(BIN)/python bench/parse_speed.py
	$(BIN)/python bench/refutations.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hoaregpu-cache
