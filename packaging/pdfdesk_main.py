"""Entry point of the PyInstaller bundle: the same `pdfdesk` command the pip install provides."""

import multiprocessing
import sys

from pdfdesk.cli import entry_point

if __name__ == "__main__":
    multiprocessing.freeze_support()  # worker processes of a frozen app re-enter here
    sys.exit(entry_point())
