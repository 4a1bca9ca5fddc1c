"""A separate reviewer process adding notes to the team database (real processes, real kills).

    python -m tests.team.team_writer burst FINGERPRINT COUNT TAG GO_FILE   add COUNT notes once GO_FILE exists
    python -m tests.team.team_writer loop FINGERPRINT TAG                  add notes until killed, printing
                                                                           each id once its add returned
    python -m tests.team.team_writer flush                                 send what the queue holds

The login and the queue's folder come from PDFDESK_TEAM_DATABASE and PDFDESK_HOME.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pdfdesk.review.records import NewAnnotation
from pdfdesk.review.store import open_store
from pdfdesk.review.team_store import TeamAnnotationStore


def note(fingerprint: str, tag: str, number: int) -> NewAnnotation:
    return NewAnnotation(fingerprint=fingerprint, path=f"/docs/{tag}.pdf", page=1 + number % 2,
                         rects=((72.0, 100.0 + number % 500, 300.0, 112.0 + number % 500),),
                         note=f"{tag} note {number}", tags=(tag,), kind="note")


def main(argv: list[str]) -> int:
    store = open_store()
    assert isinstance(store, TeamAnnotationStore)
    mode = argv[0]
    if mode == "flush":
        print(store.flush(), store.pending(), flush=True)
        return 0
    if mode == "burst":
        fingerprint, count, tag, go = argv[1], int(argv[2]), argv[3], Path(argv[4])
        deadline = time.monotonic() + 60
        while not go.exists() and time.monotonic() < deadline:
            time.sleep(0.001)
        for number in range(count):
            store.add(note(fingerprint, tag, number))
        store.flush()
        print(store.pending(), flush=True)
        return 0
    fingerprint, tag = argv[1], argv[2]
    number = 0
    while True:
        added = store.add(note(fingerprint, tag, number))
        print(added.id, flush=True)
        number += 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
