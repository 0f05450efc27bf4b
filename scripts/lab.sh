#!/usr/bin/env bash
# Open the example notebooks in JupyterLab, from a fresh clone or again later.
#
# The first run makes .venv and installs the package with JupyterLab and the compiled engine
# core (numba) into it. Each run copies the notebooks of examples/ that are not there yet into
# notebooks/ (ignored by git) and serves that folder: what JupyterLab saves, and any notebook
# you make, stays there, and examples/ stays exactly as the repository has it. A notebook you changed is never
# overwritten; delete it from notebooks/ to get the example back. Extra arguments go to
# jupyter lab (e.g. --port 8890 --no-browser).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! .venv/bin/python -c "import reversi_widget, jupyterlab, numba" 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q -e ".[notebook,fast]"
fi

mkdir -p notebooks
for example in examples/*.ipynb; do
  copy="notebooks/$(basename "$example")"
  [ -e "$copy" ] || cp "$example" "$copy"
done

root_flag=""
[ "$(id -u)" -eq 0 ] && root_flag="--allow-root"
exec .venv/bin/jupyter lab $root_flag --ServerApp.root_dir=notebooks "$@"
