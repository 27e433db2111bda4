# The two commands a new user runs on a fresh clone: `make demo` and `make test`.
# Both create .venv if missing and install the package with its extras from the package registry.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.moshjit-installed

.PHONY: test demo venv clean wheel-smoke

venv: $(STAMP)

$(STAMP): setup.py pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	@touch $(STAMP)

test: $(STAMP) wheel-smoke
	$(BIN)/python -m pytest -n 2 -q

demo: $(STAMP)
	$(BIN)/python -m benchmarks.bert.demo

# The package as users get it: a wheel built as `pip wheel .` builds it, installed with its dependencies into a
# fresh venv, then tests/smoke/wheel_smoke.py run from outside the repository with an empty cache.
SMOKE := build/wheel-smoke
wheel-smoke: $(STAMP)
	rm -rf $(SMOKE) && mkdir -p $(SMOKE)
	$(BIN)/python -m pip wheel --quiet --no-deps -w $(SMOKE)/dist .
	@$(PYTHON) -m venv $(SMOKE)/venv || python3 -m venv $(SMOKE)/venv
	$(SMOKE)/venv/bin/python -m pip install --quiet $(SMOKE)/dist/moshjit-*.whl
	cd $(SMOKE) && MOSHJIT_CACHE_DIR=$(CURDIR)/$(SMOKE)/cache venv/bin/python $(CURDIR)/tests/smoke/wheel_smoke.py

clean:
	rm -rf $(VENV) build dist *.egg-info moshjit/runtime/*.so moshjit/runtime/prebuilt.json
