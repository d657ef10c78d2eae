# make test · make demo · make bench · make leaderboard — each sets up .venv on first use,
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
# The extension is rebuilt in place (incrementally, in build/native) when a source changes.
NATIVE_SOURCES := $(shell find native -name '*.cc' -o -name '*.h' -o -name CMakeLists.txt)
EDITABLE = $(PY) -m pip install --no-build-isolation -C build-dir=build/native -e
# Development builds of some games only, loaded with BOARDGAME_ENVS_NATIVE_PATH=$(NATIVE_DEV):
#   make native-dev GAMES=wasabi NATIVE_DEV=build/dev-wasabi
GAMES      ?= factors_multiples cornucopia carcassonne_castle tahiti wasabi
NATIVE_DEV ?= build/dev
SANITIZE_BUILD = build/sanitize
CMAKE = PATH="$(abspath $(VENV))/bin:$$PATH" cmake

.PHONY: test test-all test-sanitize native-dev demo bench leaderboard lint clean

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

test: $(NATIVE)
	$(PY) -m ruff check boardgame_envs agents training tests
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

native-dev: $(STAMP)
	$(CMAKE) -S native -B $(NATIVE_DEV) -G Ninja -DCMAKE_BUILD_TYPE=Release -DBGE_GAMES="$(GAMES)" \
		-DPython_EXECUTABLE="$(abspath $(PY))"
	$(CMAKE) --build $(NATIVE_DEV)

demo: $(NATIVE)
	$(VENV)/bin/boardgame-envs demo

bench: $(NATIVE)
	$(VENV)/bin/boardgame-envs bench

# Regenerates docs/leaderboard.md (and the README's top rows): about 40 minutes on 2 cores.
leaderboard: $(NATIVE)
	$(VENV)/bin/boardgame-envs leaderboard --workers 2

lint: $(STAMP)
	$(PY) -m ruff check boardgame_envs agents training tests

clean:
	rm -rf $(VENV) build runs bench_results .pytest_cache
