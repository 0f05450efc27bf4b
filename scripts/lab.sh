#!/usr/bin/env bash
# Open the example notebooks in JupyterLab, from a fresh clone or again later.
#
# The first run makes .venv and installs the package with JupyterLab and the compiled engine
# core (numba) into it, saying so while it works. Each run copies the notebooks of examples/
# that are not there yet into notebooks/ (ignored by git) and serves that folder: what
# JupyterLab saves, and any notebook you make, stays there, and examples/ stays exactly as the
# repository has it. A notebook you changed is never overwritten; delete it from notebooks/ to
# get the example back. Once JupyterLab answers, the address to open (with its token) and the
# notebook to start with are printed. Extra arguments go to jupyter lab (e.g. --port 8890
# --no-browser).
set -euo pipefail
cd "$(dirname "$0")/.."

FIRST=01-play.ipynb
say() { echo "scripts/lab.sh: $*"; }

# Run "$@" and, while it works, say every 10 s that it still does.
with_ticker() {
  local started=$SECONDS
  "$@" &
  local work=$!
  while ! wait_for "$work" 10; do
    say "  still installing... ($((SECONDS - started)) s)"
  done
  wait "$work"
}
# Whether process $1 ended within $2 seconds.
wait_for() {
  local until=$((SECONDS + $2))
  while [ "$SECONDS" -lt "$until" ]; do
    running "$1" || return 0
    sleep 0.2
  done
  return 1
}
# Whether process $1 runs (an ended one its parent has not reaped yet does not).
running() {
  case "$(ps -o stat= -p "$1" 2>/dev/null)" in
    "" | Z*) return 1 ;;
    *) return 0 ;;
  esac
}

if ! .venv/bin/python -c "import reversi_widget, jupyterlab, numba" 2>/dev/null; then
  say "first run: making .venv and installing reversi-widget with JupyterLab and the compiled"
  say "engine core (numba) into it. This takes a minute or two, and only this once."
  started=$SECONDS
  python3 -m venv .venv
  with_ticker .venv/bin/python -m pip install -q -e ".[notebook,fast]"
  say "installed in $((SECONDS - started)) s."
fi

mkdir -p notebooks
copied=0
for example in examples/*.ipynb; do
  copy="notebooks/$(basename "$example")"
  if [ ! -e "$copy" ]; then
    cp "$example" "$copy"
    copied=$((copied + 1))
  fi
done
[ "$copied" -eq 0 ] || say "copied $copied example notebook(s) into notebooks/ (examples/ stays as it is)."

# Once the server answers, say where it is: JupyterLab runs as this very process (exec below),
# so the watcher looks for the server of this process id, and gives up when it is gone.
pid=$$
(
  while running "$pid"; do
    where=$(.venv/bin/python - "$pid" "$FIRST" 2>/dev/null <<'PY' || true
import sys
import urllib.request

from jupyter_server.serverapp import list_running_servers

pid, first = int(sys.argv[1]), sys.argv[2]
for info in list_running_servers():
    if info.get("pid") == pid:
        token = f"?token={info['token']}" if info.get("token") else ""
        with urllib.request.urlopen(f"{info['url']}api/status{token}", timeout=2):
            print(f"{info['url']}lab{token} {info['url']}lab/tree/{first}{token}")
PY
)
    if [ -n "$where" ]; then
      say "JupyterLab is ready at ${where%% *}"
      say "open $FIRST first: ${where#* }"
      say "(notebooks/ holds your copies of the examples; press Ctrl-C here to stop JupyterLab)"
      break
    fi
    sleep 0.5
  done
) &

root_flag=""
[ "$(id -u)" -eq 0 ] && root_flag="--allow-root"
say "starting JupyterLab on notebooks/..."
exec .venv/bin/jupyter lab $root_flag --ServerApp.root_dir=notebooks --LabApp.default_url="/lab/tree/$FIRST" "$@"
