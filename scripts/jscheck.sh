#!/usr/bin/env bash
# The front end's checks, without a build step: TypeScript type-checks js/widget.js as it is
# (its JSDoc types, jsconfig.json) and Biome lints js/ (biome.jsonc). Both come from npm,
# pinned in package-lock.json, for development only: nothing of node_modules/ ships or is
# loaded by the widget.
#
# `npm ci` runs only when node_modules/ was not installed from this very lock file, so a
# second run starts the checks at once (and npm's own cache makes a first run on a machine
# that has seen these packages quick too).
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=node_modules/.installed-from-lock.json
if ! cmp -s package-lock.json "$stamp" 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi

status=0
node_modules/.bin/tsc -p jsconfig.json || status=1
node_modules/.bin/biome ci --colors=off --error-on-warnings js || status=1
[ "$status" -eq 0 ] && echo "js checks: types and lint clean"
exit "$status"
