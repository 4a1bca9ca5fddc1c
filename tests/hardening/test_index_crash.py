"""A build killed at any moment leaves a correct index (or none), and readers never see half of one.

An indexing subprocess (small batches: many commits, many places to die) is SIGKILLed after a
random delay, 20 times; each restart resumes where the last committed batch ended. After every
kill the index must open, hold each indexed page exactly once, and answer every sampled page's
unique word with that page and no other. Then two reader processes search while a writer builds.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.index.builder import Target
from pdfdesk.index.search import search_document
from pdfdesk.index.store import PAGES, DocumentIndex, _searcher

PAGES_IN_DOC = 300
KILLS = 20
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def word(n: int) -> str:
    """A word only page n holds: letters only, so the analyzer keeps it whole (qzbaad...)."""
    letters = ""
    while True:
        n, digit = divmod(n, 26)
        letters += chr(97 + digit)
        if n == 0:
            break
    return f"qz{letters}vy"


@pytest.fixture(scope="module")
def marked_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    doc = pymupdf.open()
    for n in range(1, PAGES_IN_DOC + 1):
        page = doc.new_page(width=400, height=300)
        page.insert_text((30, 40), f"Page marker {word(n)} and common filler words", fontsize=9)
        page.insert_textbox(pymupdf.Rect(30, 60, 370, 280), "the supplier shall deliver goods " * 12, fontsize=7)
    path = tmp_path_factory.mktemp("crash") / "marked.pdf"
    doc.save(path, garbage=1, deflate=True)
    doc.close()
    return path


BUILDER = textwrap.dedent("""
    import sys
    from pdfdesk.core.config import Config, set_config
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index import builder
    set_config(Config(semantic=False))
    builder.BATCH_PAGES = int(sys.argv[2])  # small batches: many commits to die between
    builder.LOCK_SLICE = 5
    with open_pdf(sys.argv[1]) as opened:
        target = builder.Target(opened.source, None, opened.fingerprint)
    print("start", flush=True)
    state = builder.build_index(target, wait=True)
    print("done", state.pages_indexed, state.sections_indexed, flush=True)
""")


def run_builder(pdf: Path, home: Path, batch: int) -> subprocess.Popen:
    env = {**os.environ, "PDFDESK_HOME": str(home), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", BUILDER, str(pdf), str(batch)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def target_of(pdf: Path) -> Target:
    with open_pdf(str(pdf)) as opened:
        return Target(opened.source, None, opened.fingerprint)


def check_index(target: Target, rng: random.Random) -> int:
    """Assert the on-disk index is whole and right; returns how many pages it says it holds."""
    index = DocumentIndex(target.fingerprint)
    state = index.read_state()
    if state is None:
        return 0
    assert state.pages_total == PAGES_IN_DOC and 0 <= state.pages_indexed <= PAGES_IN_DOC
    if state.pages_indexed == 0 and not state.sections_indexed:
        return 0
    opened = index.open_existing()
    assert opened is not None, "a committed index cannot be opened"
    with _searcher(index.folder, PAGES, index.whoosh(PAGES)) as searcher:
        keys = [fields["key"] for fields in searcher.all_stored_fields()]
    assert len(keys) == len(set(keys)), "a page is in the index twice"
    numbers = sorted(int(k.split(":")[1]) for k in keys)
    assert numbers[:state.pages_indexed] == list(range(1, state.pages_indexed + 1)), "an indexed page is missing"
    sample = rng.sample(range(1, state.pages_indexed + 1), min(12, state.pages_indexed)) if state.pages_indexed else []
    for n in sample:
        hits = index.search(index.parse(word(n), "page"), "page", 5)
        assert [h["page"] for h in hits] == [n], (n, hits)
    return state.pages_indexed


def test_sigkill_at_20_random_points_never_corrupts_the_index(marked_pdf, pdfdesk_home):
    target = target_of(marked_pdf)
    rng = random.Random(20)
    progress: list[int] = []
    started = time.monotonic()
    for _ in range(KILLS):
        proc = run_builder(marked_pdf, pdfdesk_home, batch=15)
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "start", proc.stderr.read() if proc.stderr else ""
        time.sleep(rng.uniform(0.0, 0.8))  # somewhere inside extraction, a commit or a state write
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=10)  # reaps it and closes its pipes
        indexed = check_index(target, rng)
        progress.append(indexed)
        if indexed == PAGES_IN_DOC:  # finished before the kill: start over so the next kill lands mid-build
            DocumentIndex(target.fingerprint).delete()
    assert any(0 < p < PAGES_IN_DOC for p in progress), f"no kill landed mid-build: {progress}"
    final = run_builder(marked_pdf, pdfdesk_home, batch=60)
    out, err = final.communicate(timeout=60)
    assert final.returncode == 0 and "done 300 True" in out, err
    assert check_index(target, rng) == PAGES_IN_DOC
    for n in range(1, PAGES_IN_DOC + 1, 7):  # through the search layer as a tool sees it
        found = search_document(target, PAGES_IN_DOC, word(n), "keyword", "page", 5, "snippet", 50)
        assert [m.page for m in found.matches] == [n]
    assert time.monotonic() - started < 90


READER = textwrap.dedent("""
    import json, random, sys, time
    from pdfdesk.core.config import Config, set_config
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.core.pages import parse_page_spec
    from pdfdesk.index.builder import Target
    from pdfdesk.index.search import search_document
    from tests.hardening.test_index_crash import word
    set_config(Config(semantic=False))
    with open_pdf(sys.argv[1]) as opened:
        target = Target(opened.source, None, opened.fingerprint)
        total = opened.page_count
    rng = random.Random(int(sys.argv[2]))
    deadline = time.monotonic() + float(sys.argv[3])
    searches, wrong = 0, []
    while time.monotonic() < deadline:
        n = rng.randint(1, total)
        try:
            found = search_document(target, total, word(n), "keyword", "page", 5, "snippet", 40)
        except Exception as exc:
            wrong.append(f"{n}: {type(exc).__name__}: {exc}")
            continue
        pages = [m.page for m in found.matches]
        skipped = found.details.get("pages_not_searched", "")
        not_searched = set(parse_page_spec(skipped, total)) if skipped else set()
        if pages != [n] and not (pages == [] and n in not_searched):  # only "not reached in time" may miss
            wrong.append(f"{n}: {pages} (not searched: {skipped})")
        searches += 1
    print(json.dumps({"searches": searches, "wrong": wrong[:10]}))
""")


def test_readers_never_see_a_partial_index_while_a_writer_builds(marked_pdf, pdfdesk_home):
    env = {**os.environ, "PDFDESK_HOME": str(pdfdesk_home), "PYTHONPATH": str(ROOT)}
    writer = run_builder(marked_pdf, pdfdesk_home, batch=10)
    readers = [subprocess.Popen([sys.executable, "-c", READER, str(marked_pdf), str(seed), "6"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for seed in (1, 2)]
    out, err = writer.communicate(timeout=90)
    assert writer.returncode == 0 and "done 300" in out, err
    for reader in readers:
        out, err = reader.communicate(timeout=90)
        assert reader.returncode == 0, err
        report = json.loads(out.strip().splitlines()[-1])
        assert report["searches"] >= 3 and report["wrong"] == [], report
