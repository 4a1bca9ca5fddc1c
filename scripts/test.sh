#!/usr/bin/env bash
# Install everything the tests need, lint and type-check, then run the whole suite (extra arguments
# go to pytest). A lint or type finding fails the run before any test starts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh dev,semantic
# programs only the tests name: the .desktop file's validator, the virtual screen and input
# driver bench/screens.py runs the window with (Xvfb from xvfb, xdotool; its tests check how it
# does without them), groff, the table bench's third PDF producer (bench/table_documents_groff.py),
# and PostgreSQL's server, whose throwaway cluster the team tests start (tests/pg_cluster.py)
bash scripts/apt_install_missing.sh desktop-file-utils xvfb xdotool groff postgresql
.venv/bin/ruff check pdfdesk tests bench
.venv/bin/mypy pdfdesk  # settings and strictness per package: [tool.mypy] in pyproject.toml
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest "$@"
