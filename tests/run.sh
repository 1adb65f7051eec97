#!/usr/bin/env bash
# Install everything the tests need (a venv in .venv, Debian's Chromium when missing) and run them.
# Extra arguments go to pytest, e.g. `bash tests/run.sh -k lifetimes`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -r tests/requirements.txt

if ! command -v chromium >/dev/null 2>&1; then
  # Playwright cannot download its own browser here; the browser tests drive Debian's.
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

exec .venv/bin/python -m pytest -q "$@"
