#!/usr/bin/env bash
# Install pdfdesk into .venv and start it (on the bundled sample PDF when no file is given).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec .venv/bin/pdfdesk "$@"
