"""The OCR bench's corpus: scans written as a scanner gives them back and the same bytes on every
run, known-item phrases that only their page holds, and the scoring finding a scanned page by
words of its born-digital original (real Tesseract)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pymupdf

from bench.indexing import answer_rank, mrr
from bench.ocr_corpus import (
    DPIS,
    TURNS,
    born_digital_copy,
    degradations,
    fold,
    page_lines,
    phrase_queries,
    scan_copy,
    tokens,
    word_recall,
)
from pdfdesk.core.config import Config, set_config
from pdfdesk.core.documents import open_pdf
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.recognition import build_recognition

TEXTS = [
    "Harbour pilots board every tanker outside the breakwater before dawn. " * 4
    + "The lighthouse keeper logs visibility, swell height and passing vessels each evening.",
    "Orchard growers prune apricot trees during dry winter weeks. " * 4
    + "Blossom frost damages young fruit when cold air settles in the valley hollows.",
    "Violin makers season spruce tops for several decades before carving. " * 4
    + "Varnish recipes guarded by workshops mix amber resin with linseed oil.",
]


def born_digital(path: Path, texts: list[str]) -> Path:
    with pymupdf.open() as doc:
        for text in texts:
            page = doc.new_page()
            page.insert_textbox(pymupdf.Rect(72, 90, 520, 780), text, fontsize=12)
        doc.save(path)
    return path


def target_of(path: Path) -> Target:
    with open_pdf(str(path)) as opened:
        return Target(opened.source, None, opened.fingerprint)


def test_degradations_are_seeded_and_cover_every_resolution_and_turn() -> None:
    pages = degradations("slice", 15)
    assert pages == degradations("slice", 15)
    assert pages != degradations("another slice", 15)
    assert Counter(p.dpi for p in pages) == dict.fromkeys(DPIS, 5)
    assert sorted(p.turn for p in pages if p.turn) == sorted(TURNS)
    assert all(0.3 <= abs(p.skew) <= 1.5 for p in pages)
    assert {p.dpi for p in degradations("slice", 15, dpi=300)} == {300}


def test_a_scanned_copy_is_only_images_turned_as_the_scanner_saw_them_and_the_same_bytes(tmp_path: Path) -> None:
    source = born_digital(tmp_path / "source.pdf", TEXTS)
    first = tmp_path / "scan-1.pdf"
    again = tmp_path / "scan-2.pdf"
    how = scan_copy(source, [1, 2, 3], first, "tiny")
    scan_copy(source, [1, 2, 3], again, "tiny")
    assert first.read_bytes() == again.read_bytes()
    with pymupdf.open(first) as scan:
        for page, degradation in zip(scan, how, strict=True):
            assert page.get_text().strip() == ""
            (info,) = page.get_image_info()
            assert round(72 * info["width"] / page.rect.width) == degradation.dpi
            assert (page.rect.width > page.rect.height) == (degradation.turn in (90, 270))


def test_phrase_queries_name_words_only_their_page_holds_together() -> None:
    pages = [
        [["Alpha", "bravo", "charlie", "delta"], ["page", "7"]],
        [["alpha", "bravo", "charlie"]],
        [["echo", "foxtrot,", "golf", "hotel"], ["x-ray", "2024", "item", "kilo"]],
    ]
    queries = phrase_queries(pages, "seed")
    assert queries == phrase_queries(pages, "seed")
    vocabularies = [{t for line in lines for word in line for t in tokens(word)} for lines in pages]
    assert {q.page for q in queries} == {1, 3}  # page 2's only phrase is on page 1 too
    for query in queries:
        words = {fold(w) for w in query.text.split()}
        assert len(words) == 3 and words <= vocabularies[query.page - 1]
        assert not any(words <= v for i, v in enumerate(vocabularies, 1) if i != query.page)
        assert all(w.isalpha() and len(w) >= 4 for w in words)


def test_word_recall_counts_each_word_as_often_as_the_original_has_it() -> None:
    assert word_recall("The cat saw the hat.", "the hat") == (2, 5)
    assert word_recall("Größe", "GRÖSSE") == (1, 1)


def test_a_scanned_page_is_found_by_words_of_its_original(tmp_path: Path) -> None:
    set_config(Config(semantic=False, ocr_languages="eng"))
    source = born_digital(tmp_path / "source.pdf", TEXTS)
    original = tmp_path / "original.pdf"
    scan = tmp_path / "scan.pdf"
    born_digital_copy(source, 1, len(TEXTS), original)
    scan_copy(source, list(range(1, len(TEXTS) + 1)), scan, "tiny")
    build_index(target_of(original))
    target = target_of(scan)
    build_index(target)
    build_recognition(target, wait=True, workers=lambda: 2)
    with pymupdf.open(original) as doc:
        queries = phrase_queries([page_lines(page) for page in doc], "tiny")
    assert {q.page for q in queries} == {1, 2, 3}
    born = [answer_rank(original, q.text, q.page, "keyword") for q in queries]
    scanned = [answer_rank(scan, q.text, q.page, "keyword") for q in queries]
    assert mrr(born) == 1.0
    assert mrr(scanned) >= 0.9 * mrr(born), list(zip(queries, scanned, strict=True))
