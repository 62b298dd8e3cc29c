#!/bin/sh
# Create the project's virtual environment with a Python >= 3.11, installing Debian's venv
# module when it is missing (as root, or with sudo); otherwise say in one line what to do.
set -eu
PY=${1:-python3}
VENV=${2:-.venv}
if ! command -v "$PY" >/dev/null 2>&1; then
  echo "zhushu: $PY not found; install Python >= 3.11 (apt-get install python3 python3-venv)" >&2; exit 1
fi
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "zhushu: $("$PY" -V 2>&1) is too old; Python >= 3.11 is needed (set PYTHON=python3.11)" >&2; exit 1
fi
if ! "$PY" -m venv "$VENV" >/dev/null 2>&1; then
  rm -rf "$VENV"
  pkg="python3-venv"
  if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "zhushu: cannot create $VENV; install the Debian package $pkg (needs root)" >&2; exit 1
  fi
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "$pkg" >/dev/null
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
