#!/usr/bin/env bash
# Build the PyInstaller one-folder bundle dist/pdfdesk/ from a fresh virtualenv (regular install,
# no test tools), so the bundle holds exactly what `pip install .` brings — never a stale package
# left in an old build venv.
# Usage: bash packaging/build_bundle.sh     (PDFDESK_BUNDLE_SEMANTIC=1 adds fastembed, ~120 MB)
# Also used by packaging/macos/build_app.sh (PyInstaller then also writes dist/pdfdesk.app).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build="$root/build/bundle"

# PyInstaller copies into the bundle the shared libraries Qt's xcb platform plugin links, but only
# those present on the build machine (libxcb-icccm4 and libxcb-keysyms1 are not there by default).
# It also needs objdump (binutils), and Debian's python3 needs python3-venv for `-m venv`.
bash scripts/apt_install_missing.sh python3-venv binutils libxcb-icccm4 libxcb-keysyms1 libxcb-image0 \
    libxcb-render-util0 libxcb-xkb1 libxkbcommon-x11-0 libxcb-shape0 libxcb-randr0 libxcb-cursor0 libegl1 libgl1 \
    libfontconfig1 libdbus-1-3

started=$(date +%s)
python=${PYTHON:-python3}
rm -rf "$build/venv" "$root/build/lib" "$root/build/bdist."*   # setuptools reuses build/lib: no stale modules
"$python" -m venv "$build/venv"
pip=("$build/venv/bin/python" -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" --upgrade pip >/dev/null
extras=""; [ "${PDFDESK_BUNDLE_SEMANTIC:-0}" = 1 ] && extras="[semantic]"
"${pip[@]}" "$root$extras" "pyinstaller>=6.10"
installed=$(date +%s)

"$build/venv/bin/pyinstaller" --noconfirm --clean --log-level WARN \
    --distpath "$root/dist" --workpath "$build/work" packaging/pdfdesk.spec
finished=$(date +%s)
qt=$("$build/venv/bin/python" -c "import PySide6; print(PySide6.__version__)")
echo "bundle: dist/pdfdesk ($(du -sh dist/pdfdesk | cut -f1), PySide6 $qt) in $(( finished - started )) s" \
     "($(( installed - started )) s venv + pip, $(( finished - installed )) s PyInstaller)"
