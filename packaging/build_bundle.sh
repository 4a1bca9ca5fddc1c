#!/usr/bin/env bash
# Build the PyInstaller one-folder bundle dist/pdfdesk/ from a clean virtualenv (regular install,
# no test tools), so the bundle holds exactly what `pip install .` brings.
# Usage: bash packaging/build_bundle.sh            (PDFDESK_BUNDLE_SEMANTIC=1 adds fastembed)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build="$root/build/bundle"

# Qt's xcb platform plugin links these; PyInstaller copies them into the bundle only if present here.
if command -v apt-get >/dev/null 2>&1; then
    missing=()
    for pkg in libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-xkb1 libxkbcommon-x11-0 \
               libxcb-shape0 libxcb-randr0 libxcb-cursor0 libegl1 libgl1 libfontconfig1 libdbus-1-3; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
fi

python=${PYTHON:-python3}
[ -x "$build/venv/bin/python" ] || "$python" -m venv "$build/venv"
pip=("$build/venv/bin/python" -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" --upgrade pip >/dev/null
extras=""; [ "${PDFDESK_BUNDLE_SEMANTIC:-0}" = 1 ] && extras="[semantic]"
"${pip[@]}" "$root$extras" "pyinstaller>=6.10"

started=$(date +%s)
"$build/venv/bin/pyinstaller" --noconfirm --clean --log-level WARN \
    --distpath "$root/dist" --workpath "$build/work" packaging/pdfdesk.spec
echo "bundle: dist/pdfdesk ($(du -sh dist/pdfdesk | cut -f1)) built in $(( $(date +%s) - started )) s"
