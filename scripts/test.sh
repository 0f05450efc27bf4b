#!/usr/bin/env bash
# Everything the test suite needs, from a fresh machine: Debian's Chromium for the
# browser tests, a virtual environment with the test extras and the compiled core (numba),
# then lint, types and tests; then the rules, engine, solver and perft tests once more on
# the pure-Python path, which installs without numba get.
#
# The tests run on every core (pytest-xdist; tests/conftest.py says how they are split).
# Types are checked meanwhile, and the compiled core is compiled once before the tests, so
# that each worker loads it from numba's cache instead of compiling it again.
# The JupyterLite site is built, and the front end type-checked and linted (scripts/jscheck.sh),
# while the packages install; the documentation builds while the tests run.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q chromium
fi

# The JupyterLite site that tests/test_lite.py opens builds meanwhile, from this clone: its
# downloads and its own build tools overlap the installs below (tests/lite_site.py waits for it).
# It runs in a process group of its own, ended with this script if it is still running then.
export REVERSI_LITE_BUILD_LOG
REVERSI_LITE_BUILD_LOG=$(mktemp)
setsid bash -c 'status=0; bash scripts/lite.sh >"$1" 2>&1 || status=$?; echo "$status" >"$1.part"; mv "$1.part" "$1.status"' \
  lite-build "$REVERSI_LITE_BUILD_LOG" &
lite_build=$!
trap 'kill -- "-$lite_build" 2>/dev/null || true' EXIT

# The front end's checks need only node and npm; tests/test_jscheck.py uses what they install.
js_log=$(mktemp)
bash scripts/jscheck.sh >"$js_log" 2>&1 &
js_checks=$!

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test,fast,train,docs]"

.venv/bin/ruff check .
.venv/bin/ruff format --check .

types=$(mktemp)
.venv/bin/mypy >"$types" 2>&1 &
mypy_pid=$!

.venv/bin/python -c 'from reversi_widget import native; assert all(native.wait(k) for k in native.KERNELS)'

# The documentation builds meanwhile (scripts/docs.sh, once the compiled core is cached): it runs
# the example notebooks, whose runs tests/test_examples.py then checks instead of running them
# again, and tests/test_docs_site.py opens the built site (tests/docs_site.py waits for it).
export REVERSI_DOCS_BUILD_LOG
REVERSI_DOCS_BUILD_LOG=$(mktemp)
DOCS_PYTHON=.venv/bin/python setsid bash -c 'status=0; bash scripts/docs.sh >"$1" 2>&1 || status=$?; echo "$status" >"$1.part"; mv "$1.part" "$1.status"' \
  docs-build "$REVERSI_DOCS_BUILD_LOG" &
docs_build=$!
trap 'kill -- "-$lite_build" 2>/dev/null || true; kill -- "-$docs_build" 2>/dev/null || true' EXIT

parallel=(-n auto --dist loadgroup --no-loadscope-reorder --durations=25)
status=0
wait "$js_checks" || status=1
cat "$js_log"
rm -f "$js_log"
.venv/bin/python -m pytest "${parallel[@]}" "$@" || status=$?
while [ ! -f "$REVERSI_DOCS_BUILD_LOG.status" ]; do sleep 1; done
if [ "$(cat "$REVERSI_DOCS_BUILD_LOG.status")" != 0 ]; then
  tail -n 60 "$REVERSI_DOCS_BUILD_LOG"
  status=1
fi
wait "$mypy_pid" || status=1
cat "$types"
rm -f "$types"
# These modules share no module-wide fixture: their tests are spread one by one, so that the
# longest module (test_analysis.py) does not run on one worker alone.
REVERSI_WIDGET_PURE=1 .venv/bin/python -m pytest -n auto --dist load --durations=15 tests/test_rules.py tests/test_board.py \
  tests/test_geometry.py tests/test_properties.py tests/test_perft.py tests/test_solver.py tests/test_engine.py \
  tests/test_analysis.py tests/test_search.py tests/test_explorer.py || status=$?
exit "$status"
