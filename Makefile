# make test · make demo · make bench · make leaderboard · make docs — each sets up .venv on first use,
# compiling the native engines (C++17; BOARDGAME_ENVS_PURE_PYTHON=1 skips them).
#
# torch is installed first, on its own, so that a CPU build is used by default:
#   make test TORCH="torch==2.13.0"           (the default)
#   make test TORCH="torch --index-url https://download.pytorch.org/whl/cu124"   (a CUDA build)

PYTHON ?= python3
VENV   ?= .venv
TORCH  ?= torch==2.13.0
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed
NATIVE  = $(VENV)/.native
BUILD_REQUIRES = "scikit-build-core>=0.10" "nanobind>=2.4" "ninja>=1.11" "cmake>=3.18"
# The docs extra of pyproject.toml (make docs installs it on first use).
DOCS_REQUIRES = "mkdocs>=1.6" "mkdocs-material>=9.5" "mkdocstrings[python]>=0.26"
DOCS_STAMP = $(VENV)/.docs
# The extension is rebuilt in place (incrementally, in build/native) when a source changes.
NATIVE_SOURCES := $(shell find native -name '*.cc' -o -name '*.h' -o -name CMakeLists.txt)
EDITABLE = $(PY) -m pip install --no-build-isolation -C build-dir=build/native -e
# Development builds of some games only, loaded with BOARDGAME_ENVS_NATIVE_PATH=$(NATIVE_DEV):
#   make native-dev GAMES=wasabi NATIVE_DEV=build/dev-wasabi   (empty: every game CMake finds)
GAMES      ?=
NATIVE_DEV ?= build/dev
SANITIZE_BUILD = build/sanitize
CMAKE = PATH="$(abspath $(VENV))/bin:$$PATH" cmake

.PHONY: test test-all test-sanitize test-rllib native-dev demo bench leaderboard docs lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstalls only when the package metadata or this file changes.
$(STAMP): pyproject.toml Makefile | $(PY)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install $(TORCH)
	$(PY) -m pip install $(BUILD_REQUIRES)
	$(EDITABLE) ".[train,ray,dev]"
	touch $(STAMP)

$(NATIVE): $(STAMP) $(NATIVE_SOURCES)
	$(EDITABLE) . --no-deps
	touch $(NATIVE)

LINTED = boardgame_envs agents training tests examples scripts

test: $(NATIVE)
	$(PY) -m ruff check $(LINTED)
	$(PY) -m ruff format --check $(LINTED)
	$(PY) -m pytest -n 2 -m "not slow" tests

test-all: $(NATIVE)
	$(PY) -m pytest -n 2 tests

# The native engines built with AddressSanitizer and UndefinedBehaviorSanitizer, running the
# equivalence, agent and fuzz tests of make test (the slow ones' thousands of games more would
# take CI past its time; the interpreter itself is not instrumented: libasan is preloaded).
test-sanitize: $(STAMP)
	$(CMAKE) -S native -B $(SANITIZE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DBGE_SANITIZE=ON \
		-DPython_EXECUTABLE="$(abspath $(PY))"
	$(CMAKE) --build $(SANITIZE_BUILD)
	BOARDGAME_ENVS_NATIVE_PATH=$(SANITIZE_BUILD) ASAN_OPTIONS=detect_leaks=0 \
		LD_PRELOAD="$$($(CXX) -print-file-name=libasan.so) $$($(CXX) -print-file-name=libubsan.so)" \
		$(PY) -m pytest -n 2 -m "native and not slow" -p no:cacheprovider tests

# The Ray RLlib example and its tests (tests/rllib/) in an environment of their own: ray[rllib]
# pins gymnasium (1.2.2 with Ray 2.60) and .venv keeps its own. torch first, as above. The
# package goes in with its pure-Python engines: RLlib's own loop sets the pace there (the
# example runs as fast on them as on the native ones), and CI skips a second compile.
RLLIB_VENV  = .venv-rllib
RLLIB_PY    = $(RLLIB_VENV)/bin/python
RLLIB_STAMP = $(RLLIB_VENV)/.installed

$(RLLIB_STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(RLLIB_VENV)
	$(RLLIB_PY) -m pip install --upgrade pip
	$(RLLIB_PY) -m pip install $(TORCH)
	$(RLLIB_PY) -m pip install $(BUILD_REQUIRES) "pytest>=8"
	BOARDGAME_ENVS_PURE_PYTHON=1 $(RLLIB_PY) -m pip install --no-build-isolation \
		-C build-dir=build/rllib -e ".[rllib]"
	touch $(RLLIB_STAMP)

# tests/test_envs.py too: the envs' API tests under RLlib's gymnasium (seconds).
test-rllib: $(RLLIB_STAMP)
	$(RLLIB_PY) -m pytest -p no:cacheprovider tests/rllib tests/test_envs.py

native-dev: $(STAMP)
	$(CMAKE) -S native -B $(NATIVE_DEV) -G Ninja -DCMAKE_BUILD_TYPE=Release -DBGE_GAMES="$(GAMES)" \
		-DPython_EXECUTABLE="$(abspath $(PY))"
	$(CMAKE) --build $(NATIVE_DEV)

demo: $(NATIVE)
	$(VENV)/bin/boardgame-envs demo

bench: $(NATIVE)
	$(VENV)/bin/boardgame-envs bench

# Regenerates docs/leaderboard.md (and the README's top rows): hours on 2 cores; finished
# pairings are kept, so a rerun with the same engines and agents resumes (docs/benchmarking.md).
leaderboard: $(NATIVE)
	$(VENV)/bin/boardgame-envs leaderboard --workers 2 --publish

# The documentation site into build/site; --strict fails on a broken link or reference.
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir build/site

$(DOCS_STAMP): | $(PY)
	$(PY) -m pip install $(DOCS_REQUIRES)
	touch $(DOCS_STAMP)

lint: $(STAMP)
	$(PY) -m ruff check $(LINTED)
	$(PY) -m ruff format --check $(LINTED)

clean:
	rm -rf $(VENV) build runs bench_results .pytest_cache
