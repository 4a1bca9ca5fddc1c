"""The per-document position store: keyed by fingerprint with the path as fallback, bounded,
merged newest-wins, and harmless when its file is damaged, odd or cannot be written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from pdfdesk.core import positions, state_file
from pdfdesk.core.positions import DocumentPosition, Remembered

HERE = DocumentPosition(12, 1.5, "custom", 10.0, 230.5)


def store_file():
    return positions._file()


def test_a_position_comes_back_by_fingerprint_wherever_the_file_is_now():
    assert positions.remember([Remembered("/docs/a.pdf", "fp-a", HERE)])
    assert positions.recall("/elsewhere/renamed.pdf", "fp-a") == HERE
    assert positions.recall("/docs/a.pdf") == HERE  # the fingerprint not known yet: found by path
    assert positions.recall("/docs/b.pdf", "fp-b") is None


def test_a_path_entry_becomes_the_fingerprints_when_that_is_known():
    positions.remember([Remembered("/docs/a.pdf", None, HERE)])
    assert positions.PATH_KEY + "/docs/a.pdf" in json.loads(store_file().read_text())["documents"]
    assert positions.adopt("/docs/a.pdf", "fp-a")
    documents = json.loads(store_file().read_text())["documents"]
    assert list(documents) == ["fp-a"] and positions.recall("/moved.pdf", "fp-a") == HERE
    later = DocumentPosition(3, 1.0, "fit_width")
    positions.remember([Remembered("/docs/a.pdf", None, later)])
    positions.remember([Remembered("/docs/a.pdf", "fp-a", later)])  # the path entry is folded in
    assert list(json.loads(store_file().read_text())["documents"]) == ["fp-a"]


def test_the_newer_entry_wins_whoever_writes_last():
    new = DocumentPosition(40, 1.0, "fit_page")
    positions.remember([Remembered("/a.pdf", "fp", new, at=2000.0)])
    positions.remember([Remembered("/a.pdf", "fp", HERE, at=1000.0)])  # a slow, older save
    assert positions.recall("/a.pdf", "fp") == new


def test_the_store_keeps_the_most_recently_read_documents(monkeypatch):
    monkeypatch.setattr(positions, "MAX_DOCUMENTS", 5)
    positions.remember(Remembered(f"/d{n}.pdf", f"fp{n}", HERE, at=1000.0 + n) for n in range(8))
    documents = json.loads(store_file().read_text())["documents"]
    assert sorted(documents) == [f"fp{n}" for n in range(3, 8)]


@pytest.mark.parametrize("entry", [
    {"page": 0, "zoom": 1.0, "mode": "custom"}, {"page": "3", "zoom": 1.0, "mode": "custom"},
    {"page": 2, "zoom": -1, "mode": "custom"}, {"page": 2, "zoom": 1.0, "mode": "sideways"},
    {"page": 2, "zoom": 1.0, "mode": "custom", "y": "top"}, {"page": True, "zoom": 1.0, "mode": "custom"}, [],
])
def test_a_damaged_entry_is_no_position(entry):
    assert DocumentPosition.from_json(entry) is None


@pytest.mark.parametrize("content", [b"", b"{not json", b"\xff\xfe", b"[1, 2]", b'{"documents": 7}',
                                     b'{"documents": {"fp": "page 3"}}'])
def test_a_damaged_store_reads_as_empty_and_is_replaced(content):
    store_file().write_bytes(content)
    assert positions.recall("/a.pdf", "fp") is None
    assert positions.remember([Remembered("/a.pdf", "fp", HERE)])
    assert positions.recall("/a.pdf", "fp") == HERE


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_place_of_the_store_does_not_hang():
    os.mkfifo(store_file())
    done = []
    reader = threading.Thread(target=lambda: done.append(positions.recall("/a.pdf", "fp")), daemon=True)
    reader.start()
    reader.join(5)
    assert done == [None]
    assert positions.remember([Remembered("/a.pdf", "fp", HERE)]) and positions.recall("/a.pdf", "fp") == HERE


def test_a_store_that_cannot_be_written_reports_false():
    store_file().mkdir()  # a folder where the file should be: neither readable nor replaceable
    assert positions.recall("/a.pdf") is None
    assert positions.remember([Remembered("/a.pdf", "fp", HERE)]) is False
    assert state_file.write_state(store_file(), {}) is False


def test_two_processes_writing_at_once_leave_a_valid_store(tmp_path):
    script = ("import sys\nfrom pdfdesk.core.positions import DocumentPosition, Remembered, remember\n"
              "for n in range(60):\n"
              "    remember([Remembered(f'/{sys.argv[1]}{n}.pdf', f'{sys.argv[1]}{n}',\n"
              "                         DocumentPosition(n + 1, 1.0, 'custom'))])\n")
    procs = [subprocess.Popen([sys.executable, "-c", script, name], env=dict(os.environ)) for name in ("a", "b")]
    assert [p.wait(120) for p in procs] == [0, 0]
    documents = json.loads(store_file().read_text())["documents"]  # whole, parseable JSON
    assert documents  # last writer wins: an entry written between another's read and write may be lost
    assert all(DocumentPosition.from_json(entry) is not None for entry in documents.values())
    assert not [p for p in store_file().parent.iterdir() if p.name.endswith(".tmp")]
