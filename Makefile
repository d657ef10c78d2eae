# make test · make demo · make bench · make leaderboard — each sets up .venv on first use.
#
# torch is installed first, on its own, so that a CPU build is used by default:
#   make test TORCH="torch==2.13.0"           (the default)
#   make test TORCH="torch --index-url https://download.pytorch.org/whl/cu124"   (a CUDA build)

PYTHON ?= python3
VENV   ?= .venv
TORCH  ?= torch==2.13.0
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed

.PHONY: test test-all demo bench leaderboard lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstalls only when the package metadata or this file changes.
$(STAMP): pyproject.toml Makefile | $(PY)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install $(TORCH)
	$(PY) -m pip install -e ".[train,ray,dev]"
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m ruff check boardgame_envs agents training tests
	$(PY) -m pytest -n 2 -m "not slow" tests

test-all: $(STAMP)
	$(PY) -m pytest -n 2 tests

demo: $(STAMP)
	$(VENV)/bin/boardgame-envs demo

bench: $(STAMP)
	$(VENV)/bin/boardgame-envs bench

# Regenerates docs/leaderboard.md (and the README's top rows): about 40 minutes on 2 cores.
leaderboard: $(STAMP)
	$(VENV)/bin/boardgame-envs leaderboard --workers 2

lint: $(STAMP)
	$(PY) -m ruff check boardgame_envs agents training tests

clean:
	rm -rf $(VENV) runs bench_results .pytest_cache
