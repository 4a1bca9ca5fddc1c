"""Entry point of the PyInstaller bundle: the same `pdfdesk` command the pip install provides."""

import multiprocessing
import os
import sys

from pdfdesk.cli import entry_point

if __name__ == "__main__":
    multiprocessing.freeze_support()  # worker processes of a frozen app re-enter here
    # A program built without a console (pdfdesk.exe on Windows) has no stdout/stderr: writes to
    # them must go nowhere instead of raising AttributeError on None.
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))
    sys.exit(entry_point())
