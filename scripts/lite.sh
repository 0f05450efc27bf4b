#!/usr/bin/env bash
# Build lite/_output/: a static JupyterLite site with the example notebooks, where Python
# (Pyodide) runs in the browser and this package is loaded before the first cell. The site
# loads nothing from outside itself: Pyodide's core comes from the `pyodide` npm package, every
# wheel from PyPI, and the build fails (leaving any previous site untouched) when a piece is
# missing. Publish the folder on any static host.
#
# Needs: Python 3.12 or newer (jupyterlite-pyodide-kernel's lock add-on), npm, and access to
# PyPI and the npm registry. The Python is, in order: $LITE_PYTHON, python3.14/3.13/3.12 on the
# PATH, python3 if new enough, then the newest pyenv version (under $PYENV_ROOT or ~/.pyenv).
set -euo pipefail
cd "$(dirname "$0")/.."

JUPYTERLITE=0.8.6      # jupyterlite-core and jupyterlite-pyodide-kernel, released together
ANYWIDGET=0.11.0       # the front ends of the widgets, as JupyterLab extensions
JUPYTERLAB_WIDGETS=3.0.17

LITE=lite
CACHE=$LITE/.cache
OUTPUT=$LITE/_output

die() {
  echo "scripts/lite.sh: $*" >&2
  exit 1
}
# A tool the build needs is not on this machine (exit status 3, so tests can tell it apart).
missing() {
  echo "scripts/lite.sh: $*" >&2
  exit 3
}

new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; }

find_python() {
  if [ -n "${LITE_PYTHON:-}" ]; then
    new_enough "$LITE_PYTHON" || missing "LITE_PYTHON=$LITE_PYTHON is not a Python 3.12 or newer"
    echo "$LITE_PYTHON"
    return
  fi
  local candidate
  for candidate in python3.14 python3.13 python3.12 python3; do
    if command -v "$candidate" >/dev/null && new_enough "$candidate"; then
      command -v "$candidate"
      return
    fi
  done
  local root=${PYENV_ROOT:-$HOME/.pyenv}
  for candidate in $(ls -d "$root"/versions/3.* 2>/dev/null | sort -V -r); do
    if new_enough "$candidate/bin/python3"; then
      echo "$candidate/bin/python3"
      return
    fi
  done
  missing "no Python 3.12 or newer found (the build needs one; python3 here is $(python3 -V 2>&1)).
Install one (Debian 13: apt-get install python3; any system: pyenv install 3.12) or point
LITE_PYTHON at one, then run this script again."
}

command -v npm >/dev/null || missing "npm not found: it fetches Pyodide's core from the npm registry (apt-get install npm)"
python=$(find_python)
echo "building with $python ($("$python" -V))"

# The build tools, in their own environment, installed again only when a pin changes.
venv=$CACHE/venv
pins="jupyterlite-core[contents]==$JUPYTERLITE jupyterlite-pyodide-kernel[lock]==$JUPYTERLITE"
if [ "$(cat "$venv/pins" 2>/dev/null)" != "$python $pins" ]; then
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
  # shellcheck disable=SC2086
  "$venv/bin/python" -m pip install -q $pins
  echo "$python $pins" >"$venv/pins"
fi

# Pyodide's core from npm, the version this kernel was made for, where the build looks for it.
# Its lock lists hundreds of packages that would load from a CDN: it starts empty here, and the
# build fills it with local wheels from PyPI, held to the versions Pyodide ships where it ships
# one (its jedi is a third of the newest one's size).
pyodide_version=$("$venv/bin/python" -c 'from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION as v; print(v)')
pyodide=$LITE/static/pyodide
if [ "$(cat "$CACHE/pyodide-version" 2>/dev/null)" != "$pyodide_version" ] || [ ! -f "$pyodide/pyodide-lock.json" ] || [ ! -f "$CACHE/pyodide-constraints.txt" ]; then
  rm -rf "$pyodide" "$CACHE/npm" "$CACHE/pyodide-version"
  mkdir -p "$CACHE/npm" "$pyodide"
  npm pack --silent --pack-destination "$CACHE/npm" "pyodide@$pyodide_version" >/dev/null ||
    die "could not fetch pyodide@$pyodide_version from the npm registry"
  tar -xzf "$CACHE/npm/pyodide-$pyodide_version.tgz" -C "$CACHE/npm"
  for file in pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip package.json; do
    [ -f "$CACHE/npm/package/$file" ] || die "pyodide@$pyodide_version from npm has no $file"
    cp "$CACHE/npm/package/$file" "$pyodide/"
  done
  "$venv/bin/python" - "$CACHE/npm/package/pyodide-lock.json" "$pyodide/pyodide-lock.json" "$CACHE/pyodide-constraints.txt" <<'PY'
import json, sys
lock = json.load(open(sys.argv[1], encoding="utf-8"))
pure = sorted(f"{p['name']}=={p['version']}" for p in lock["packages"].values() if p["file_name"].endswith("-none-any.whl"))
open(sys.argv[3], "w", encoding="utf-8").write("\n".join(pure) + "\n")
lock["packages"] = {}
json.dump(lock, open(sys.argv[2], "w", encoding="utf-8"), indent=2)
PY
  echo "$pyodide_version" >"$CACHE/pyodide-version"
fi

# Wheels: this package, built from this clone, and the widget front ends from PyPI.
wheels=$CACHE/wheels
rm -rf "$wheels"
mkdir -p "$wheels"
"$venv/bin/python" -m pip wheel -q --no-deps -w "$wheels" . || die "could not build the reversi-widget wheel"
"$venv/bin/python" -m pip download -q --no-deps --only-binary=:all: -d "$wheels" \
  "anywidget==$ANYWIDGET" "jupyterlab_widgets==$JUPYTERLAB_WIDGETS" ||
  die "could not download anywidget==$ANYWIDGET and jupyterlab_widgets==$JUPYTERLAB_WIDGETS from PyPI"
one_wheel() {
  local found
  found=$(ls "$wheels"/"$1"-*-py3-none-any.whl 2>/dev/null | head -n 1)
  [ -n "$found" ] || die "missing wheel: $1 (looked in $wheels)"
  echo "$found"
}
package_wheel=$(one_wheel reversi_widget)
anywidget_wheel=$(one_wheel anywidget)
lab_widgets_wheel=$(one_wheel jupyterlab_widgets)
# The kernel ships an empty stand-in for the classic notebook's widget files.
stub=$venv/share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi/widgetsnbextension-4.0.999-py3-none-any.whl
[ -f "$stub" ] || die "missing wheel: $stub (from jupyterlite-pyodide-kernel $JUPYTERLITE)"

# Build beside the old site, check it, then swap: a failed build never leaves a half site.
# run-when-ready/ is the site's own small plugin: a Run All asked for while Python starts waits
# for it (JupyterLab would run nothing and say nothing), and says so meanwhile.
staging=$CACHE/staging
rm -rf "$staging" "$LITE/.jupyterlite.doit.db"
(
  cd "$LITE"
  ../"$venv"/bin/jupyter lite build \
    --output-dir "../$staging" \
    --LiteBuildConfig.federated_extensions="../$anywidget_wheel" \
    --LiteBuildConfig.federated_extensions="../$lab_widgets_wheel" \
    --LiteBuildConfig.federated_extensions=run-when-ready \
    --pyodide-lock-wheels "../$package_wheel" \
    --pyodide-lock-wheels "../$stub"
) || die "jupyter lite build failed (see above); $OUTPUT is unchanged"
"$venv/bin/python" "$LITE/check_site.py" "$staging" || die "the built site is incomplete (see above); $OUTPUT is unchanged"

rm -rf "$OUTPUT"
mv "$staging" "$OUTPUT"
echo "built $OUTPUT: $(du -sh "$OUTPUT" | cut -f1) in $(find "$OUTPUT" -type f | wc -l) files"
echo "try it: python3 -m http.server -d $OUTPUT -b 127.0.0.1 8000, then open http://127.0.0.1:8000/lab/index.html"
