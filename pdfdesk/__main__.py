"""`python -m pdfdesk` is the `pdfdesk` command."""

import sys

from pdfdesk.cli import entry_point

sys.exit(entry_point())
