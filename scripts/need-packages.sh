#!/bin/sh
# Install the Debian packages that provide the given commands or files when they are missing
# (as root, or with sudo); otherwise say in one line what to install.
#   need-packages.sh /usr/bin/chromium:chromium fc-list:fontconfig
set -eu
missing=""
for pair in "$@"; do
  what=${pair%%:*}; pkg=${pair#*:}
  case "$what" in
    /*) [ -e "$what" ] && continue ;;
    *) command -v "$what" >/dev/null 2>&1 && continue ;;
  esac
  missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "zhushu: missing Debian packages:$missing (install them: apt-get install$missing)" >&2; exit 1
fi
echo "zhushu: installing$missing" >&2
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq $missing >/dev/null
