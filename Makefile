# The two commands a new user runs on a fresh clone: `make demo` and `make test`.
# Both create .venv if missing and install the package with its extras from the package registry.
# `make test` also runs the suite on the other supported CPythons this machine has (SUPPORTED_PYTHONS in
# moshjit/_version.py; found by .ci/pythons.py), each in its own venv .venv-X.Y, one version after the other so
# that the two cores stay busy without being oversubscribed; the versions share the tests out (below). `make demo`
# stays on the default interpreter.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.moshjit-installed
INSTALLED := .moshjit-installed

OTHER_PYTHONS := $(shell $(PYTHON) .ci/pythons.py)
OTHER_VENVS := $(foreach found,$(OTHER_PYTHONS),.venv-$(firstword $(subst =, ,$(found))))
python_for = $(lastword $(subst =, ,$(filter $(1)=%,$(OTHER_PYTHONS))))

.PHONY: test demo venv venvs clean wheel-smoke

venv: $(STAMP)

venvs: $(STAMP) $(OTHER_VENVS:%=%/$(INSTALLED))

# The runtime modules are compiled in place by the install: a change to their sources reinstalls.
RUNTIME_SOURCES := $(wildcard moshjit/runtime/*.pyx moshjit/runtime/*.pxd moshjit/runtime/*.py)

$(STAMP): setup.py pyproject.toml $(RUNTIME_SOURCES)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	@touch $(STAMP)

.venv-%/$(INSTALLED): setup.py pyproject.toml $(RUNTIME_SOURCES)
	@test -x .venv-$*/bin/python || $(call python_for,$*) -m venv .venv-$*
	.venv-$*/bin/python -m pip install --quiet --upgrade pip
	.venv-$*/bin/python -m pip install --quiet -e '.[test,bench]'
	@touch $@

# Each CPython runs the tests that read version-specific bytecode, AST or positions, and one part of the rest
# (tests/conftest.py, MOSHJIT_TEST_SHARD): every test runs once in all, the version-specific ones on every version,
# which keeps a cold run on three versions inside CI's time. `make test SPREAD=0` runs every test on every version.
SPREAD ?= 1
VERSION_VENVS := $(VENV) $(OTHER_VENVS)

test: venvs wheel-smoke
	@status=0; part=0; parts=$(words $(VERSION_VENVS)); for venv in $(VERSION_VENVS); do \
	    part=$$((part + 1)); shard=; [ "$(SPREAD)" = 0 ] || [ $$parts = 1 ] || shard=$$part/$$parts; \
	    echo "== $$($$venv/bin/python -c 'import sys; print("CPython", sys.version.split()[0])') ($$venv, tests: $${shard:-all})"; \
	    MOSHJIT_TEST_SHARD=$$shard $$venv/bin/python -m pytest -n 2 -q || status=1; \
	done; exit $$status

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
	rm -rf $(VENV) $(OTHER_VENVS) build dist *.egg-info moshjit/runtime/*.so moshjit/runtime/prebuilt*.json
