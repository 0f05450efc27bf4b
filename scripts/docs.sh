#!/usr/bin/env bash
# Build the documentation site from this clone, offline: the example notebooks executed
# (docs/notebooks.py; a notebook is run again only when it or the package changed), then Sphinx
# with every warning an error (-W) and every cross-reference checked (-n), then every internal
# link of the built pages (docs/check_links.py).
#
#   bash scripts/docs.sh          # the docs alone, in docs/_build/site/docs/
#   bash scripts/docs.sh --lite   # and the JupyterLite site (lite/_output/, from scripts/lite.sh)
#                                 # beside them in docs/_build/site/lite/, where "Try it" leads
#
# docs/_build/site/ is then the folder to publish on any static host. The Python used is
# $DOCS_PYTHON when set (one with the docs extra installed), else .venv/bin/python, made and given
# the docs and fast extras the first time.
set -euo pipefail
cd "$(dirname "$0")/.."

with_lite=0
for arg in "$@"; do
  case "$arg" in
    --lite) with_lite=1 ;;
    *) echo "usage: bash scripts/docs.sh [--lite]" >&2; exit 2 ;;
  esac
done

python=${DOCS_PYTHON:-}
if [ -z "$python" ]; then
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/python -m pip install -q -e ".[docs,fast]"
  python=.venv/bin/python
fi

start=$SECONDS
"$python" docs/notebooks.py
rm -rf docs/_build/html docs/_build/doctrees docs/api/generated
"$python" -m sphinx -W -n --keep-going -q -b html -d docs/_build/doctrees docs docs/_build/html

site=docs/_build/site
rm -rf "$site"
mkdir -p "$site"
cp -r docs/_build/html "$site/docs"
printf '<!doctype html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0; url=docs/index.html">\n<title>reversi-widget</title>\n<a href="docs/index.html">reversi-widget documentation</a>\n' >"$site/index.html"
if [ "$with_lite" = 1 ]; then
  [ -f lite/_output/jupyter-lite.json ] || { echo "scripts/docs.sh: --lite: no site in lite/_output/ (build it with bash scripts/lite.sh)" >&2; exit 1; }
  cp -r lite/_output "$site/lite"
fi
"$python" docs/check_links.py "$site" --unbuilt lite
echo "built $site/docs/index.html in $((SECONDS - start)) s"
