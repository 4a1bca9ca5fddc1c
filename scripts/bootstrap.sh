#!/usr/bin/env bash
# Shared set-up for scripts/run.sh and scripts/test.sh: system libraries (Debian/Ubuntu), then a
# virtualenv in .venv with pdfdesk installed in editable mode plus the extras given as arguments.
set -euo pipefail
cd "$(dirname "$0")/.."

# Qt's xcb/offscreen platforms need these shared libraries (Qt 6.5+ refuses to start on X11 without
# libxcb-cursor0). Tesseract recognises scanned pages: with its orientation and script data (osd)
# and the language data of the common languages (about 35 MB together). The Russian and Arabic
# thesauri (LibreOffice's, 3.5 MB) let `auto` search find pages that say a question's words in
# other words, in the scripts the built-in model cannot read.
OCR_LANGUAGES=(eng osd deu fra spa ita por rus chi-sim jpn ara)
THESAURI=(mythes-ru mythes-ar)
SYSTEM_PACKAGES=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libglib2.0-0
                 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0
                 libxcb-shape0 libxcb-randr0 libxcb-xkb1 libxcb-xfixes0
                 tesseract-ocr "${OCR_LANGUAGES[@]/#/tesseract-ocr-}" "${THESAURI[@]}")

pick_python() {
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
           "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"; return 0
        fi
    done
    echo "bootstrap: pdfdesk needs Python 3.11 or newer" >&2; exit 1
}

bash scripts/apt_install_missing.sh "${SYSTEM_PACKAGES[@]}"
if [ ! -x .venv/bin/python ]; then
    python=$(pick_python)
    "$python" -m venv .venv || { echo "bootstrap: python venv missing (Debian: apt-get install python3-venv)" >&2; exit 1; }
fi
extras="${1:-}"
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras:+[$extras]}"
