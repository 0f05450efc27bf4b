#!/usr/bin/env bash
# Install the package with JupyterLab into .venv and open the example notebooks.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q -e ".[notebook]"
root_flag=""
[ "$(id -u)" -eq 0 ] && root_flag="--allow-root"
exec .venv/bin/jupyter lab $root_flag examples/ "$@"
