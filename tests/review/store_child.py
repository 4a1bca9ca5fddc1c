"""A separate process writing notes, for the tests that need real concurrency and a real kill.

    python -m tests.review.store_child burst DB COUNT TAG GO_FILE   add COUNT notes once GO_FILE exists
    python -m tests.review.store_child open DB GO_FILE               open DB the moment GO_FILE exists
    python -m tests.review.store_child loop DB                      add notes until killed, printing
                                                                     each id after its commit
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pdfdesk.review.records import NewAnnotation
from pdfdesk.review.store import open_store


def note(tag: str, number: int) -> NewAnnotation:
    return NewAnnotation(fingerprint="fp-" + tag, path=f"/docs/{tag}.pdf", page=1 + number % 7,
                         rects=((72.0, 100.0 + number, 300.0, 112.0 + number),), quote=f"quote {number}",
                         note=f"{tag} note {number}", tags=(tag,))


def wait_for(go: Path) -> None:
    deadline = time.monotonic() + 30
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.0005)


def main(argv: list[str]) -> int:
    mode, db = argv[0], Path(argv[1])
    if mode == "open":
        wait_for(Path(argv[2]))
        open_store(db)
        return 0
    store = open_store(db)
    if mode == "burst":
        count, tag = int(argv[2]), argv[3]
        wait_for(Path(argv[4]))
        for number in range(count):
            store.add(note(tag, number))
        return 0
    number = 0
    while True:
        added = store.add(note("loop", number))
        sys.stdout.write(added.id + "\n")
        sys.stdout.flush()
        number += 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
