"""`python -m pdfdesk` is the `pdfdesk` command."""

import sys

from pdfdesk.cli import main

sys.exit(main())
