# The two commands a new user runs on a fresh clone: `make demo` and `make test`.
# Both create .venv if missing and install the package with its extras from the package registry.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.moshjit-installed

.PHONY: test demo venv clean

venv: $(STAMP)

$(STAMP): setup.py pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	@touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

demo: $(STAMP)
	$(BIN)/python -m benchmarks.bert.demo

clean:
	rm -rf $(VENV) build *.egg-info
