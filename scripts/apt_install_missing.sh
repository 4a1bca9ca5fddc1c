#!/usr/bin/env bash
# Install those of the named Debian/Ubuntu packages that are not installed yet (with sudo when not
# root); says what to install by hand and succeeds on systems without apt-get. Shared by
# scripts/bootstrap.sh and the packaging scripts.
# Usage: bash scripts/apt_install_missing.sh PACKAGE...
set -euo pipefail
command -v apt-get >/dev/null 2>&1 || { echo "no apt-get here; install these yourself if missing: $*" >&2; exit 0; }
missing=()
for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing system packages: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
