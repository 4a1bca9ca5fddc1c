#!/usr/bin/env bash
# Install everything the tests need and run the whole suite (extra arguments go to pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh dev,semantic
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest "$@"
