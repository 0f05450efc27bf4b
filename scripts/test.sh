#!/usr/bin/env bash
# Everything the test suite needs, from a fresh machine: Debian's Chromium for the
# browser tests, a virtual environment with the test extras and the compiled core (numba),
# then lint, types and tests; then the rules, engine, solver and perft tests once more on
# the pure-Python path, which installs without numba get.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q chromium
fi

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test,fast,train]"

.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
REVERSI_WIDGET_PURE=1 .venv/bin/python -m pytest tests/test_rules.py tests/test_board.py tests/test_geometry.py \
  tests/test_properties.py tests/test_perft.py tests/test_solver.py tests/test_engine.py tests/test_analysis.py \
  tests/test_search.py
