"""Exports: an annotated copy any PDF reader shows, and Markdown/HTML/JSON that stay inert."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import PERMISSION_DENIED, VALIDATION_ERROR, PdfDeskError
from pdfdesk.review.anchoring import anchor_area, anchor_quote, document_path
from pdfdesk.review.export import export_review
from pdfdesk.review.formats import RFC3778, W3C_CONTEXT, md_text
from pdfdesk.review.records import PALETTE, NewAnnotation
from pdfdesk.review.store import AnnotationStore
from tests.machine_faults import read_only
from tests.review.conftest import lines_pdf

PAGES = [["The warranty lasts twelve months from delivery.", "Returns need a receipt."],
         ["Shipping is paid by the buyer.", "Disputes go to the courts of Ghent."]]
HOSTILE_QUOTE = "# Heading\n[x](javascript:alert(1)) <script>alert('q')</script> & <b>"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def reviewed(store: AnnotationStore, tmp_path: Path):
    """A two-page PDF with a highlight, a tagged highlight, an area, a page note and a pinned answer."""
    path = lines_pdf(tmp_path / "contract.pdf", PAGES)
    with open_pdf(str(path)) as opened:
        where = (opened.fingerprint, document_path(opened))

        def quoted(page: int, quote: str, **extra) -> None:
            a = anchor_quote(opened.doc, page, quote)
            store.add(NewAnnotation(*where, a.page, a.rects, a.quote, a.prefix, a.suffix, a.start, **extra))

        quoted(1, "twelve months", note="Too short?", color="pink")
        quoted(2, "paid by the buyer", note="Check with sales", tags=("money", "todo"), color="blue")
        area = anchor_area(opened.doc, 2, (60, 80, 400, 110))
        store.add(NewAnnotation(*where, 2, area.rects, area.quote, area.prefix, area.suffix, area.start,
                                note="whole clause", kind="area", color="green"))
        store.add(NewAnnotation(*where, 1, note="Sign on this page", kind="note"))
        store.add(NewAnnotation(*where, 2, kind="answer", answer={
            "question": "Who pays shipping?", "text": "The buyer.",
            "citations": [{"file": "contract.pdf", "page": 2}]}))
    return path


def items_for(store: AnnotationStore, path: Path, opened) -> list:
    return [(opened, store.for_document(opened.fingerprint, document_path(opened)))]


def test_pdf_export_puts_standard_annotations_on_a_copy(store, reviewed, tmp_path):
    before = digest(reviewed)
    out = tmp_path / "out" / "contract-review.pdf"
    with open_pdf(str(reviewed)) as opened:
        notes = store.for_document(opened.fingerprint)
        result = export_review([(opened, notes)], "pdf", out)
    assert (result.path, result.format, result.documents, result.annotations) == (out, "pdf", 1, 5)
    assert digest(reviewed) == before  # the original is never written
    doc = pymupdf.open(out)
    try:
        by_page = {n: [(a.type[1], a.info["content"], a.info["title"], a.rect, a.colors["stroke"])
                       for a in doc[n - 1].annots()] for n in (1, 2)}
        highlights = [(n, a) for n in (1, 2) for a in by_page[n] if a[0] == "Highlight"]
        assert [(n, content) for n, (_, content, *_) in highlights] == [(1, "Too short?"), (2, "Check with sales")]
        quotes = ["twelve months", "paid by the buyer"]
        for (n, (_, _, title, rect, _stroke)), quote in zip(highlights, quotes, strict=False):
            under = doc[n - 1].get_textbox(rect)
            assert all(word in under for word in quote.split()), under
            assert title == "pdfdesk"
        assert highlights[0][1][4] == pytest.approx(tuple(int(PALETTE["pink"][i:i + 2], 16) / 255 for i in (1, 3, 5)),
                                                     abs=0.01)
        squares = [a for a in by_page[2] if a[0] == "Square"]
        assert len(squares) == 1 and squares[0][1] == "whole clause"
        texts = [a[1] for n in (1, 2) for a in by_page[n] if a[0] == "Text"]
        assert "Sign on this page" in texts
        assert any("Who pays shipping?" in t and "The buyer." in t and "contract.pdf p. 2" in t for t in texts)
    finally:
        doc.close()


def test_json_export_is_a_w3c_annotation_collection(store, reviewed, tmp_path):
    out = tmp_path / "review.json"
    with open_pdf(str(reviewed)) as opened:
        export_review(items_for(store, reviewed, opened), "json", out)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["@context"] == W3C_CONTEXT and data["type"] == "AnnotationCollection" and data["total"] == 5
    items = data["first"]["items"]
    assert data["first"]["type"] == "AnnotationPage" and len(items) == 5
    money = next(i for i in items if any(b.get("value") == "money" for b in i.get("body", [])))
    assert money["type"] == "Annotation" and money["target"]["source"] == reviewed.resolve().as_uri()
    selectors = {s["type"]: s for s in money["target"]["selector"]}
    quote, position, fragment = (selectors["TextQuoteSelector"], selectors["TextPositionSelector"],
                                 selectors["FragmentSelector"])
    assert quote["exact"] == "paid by the buyer" and quote["prefix"].endswith("Shipping is ")
    assert quote["suffix"].startswith(". Disputes")
    assert position["end"] - position["start"] == len("paid by the buyer")
    assert fragment["conformsTo"] == RFC3778 and re.fullmatch(r"page=2&viewrect=[\d.]+,[\d.]+,[\d.]+,[\d.]+",
                                                              fragment["value"])
    bodies = {(b["purpose"], b["value"]) for b in money["body"]}
    assert bodies == {("commenting", "Check with sales"), ("tagging", "money"), ("tagging", "todo")}
    page_note = next(i for i in items if any(b.get("value") == "Sign on this page" for b in i.get("body", [])))
    assert [s["type"] for s in page_note["target"]["selector"]] == ["FragmentSelector"]


def hostile(store: AnnotationStore, tmp_path: Path):
    path = lines_pdf(tmp_path / "hostile.pdf", [["Some text."]])
    with open_pdf(str(path)) as opened:
        store.add(NewAnnotation(opened.fingerprint, document_path(opened), 1, ((72, 60, 200, 75),), HOSTILE_QUOTE,
                                note="- [ ] </div><img src=x onerror=alert(2)>\n## not a heading",
                                tags=("<i>tag</i>",)))
    return path


def hostile_export(store: AnnotationStore, tmp_path: Path, fmt: str, name: str) -> tuple[Path, str]:
    """The hostile note exported as `fmt`: the PDF's path and the export's text."""
    path = hostile(store, tmp_path)
    with open_pdf(str(path)) as opened:
        export_review(items_for(store, path, opened), fmt, tmp_path / name)
    return path, (tmp_path / name).read_text(encoding="utf-8")


def test_html_export_escapes_hostile_text(store, tmp_path):
    path, page = hostile_export(store, tmp_path, "html", "review.html")
    assert "<script>" not in page and "<img" not in page and "<i>tag" not in page and "</div><img" not in page
    assert "&lt;script&gt;alert(&#x27;q&#x27;)&lt;/script&gt;" in page and "&amp; &lt;b&gt;" in page
    assert "default-src 'none'" in page
    assert f'href="{path.resolve().as_uri()}#page=1"' in page


def test_markdown_export_neutralises_line_starts_links_and_html(store, tmp_path):
    path, text = hostile_export(store, tmp_path, "markdown", "review.md")
    own = {"# Review of hostile.pdf", "## hostile\\.pdf", f"### [Page 1](<{path.resolve().as_uri()}#page=1>)"}
    headings = [line for line in text.splitlines() if line.lstrip().startswith("#")]
    assert set(headings) <= {h.replace("hostile.pdf", "hostile\\.pdf", 1) if h.startswith("# ") else h for h in own}
    body = "\n".join(line for line in text.splitlines() if not line.startswith("### [Page"))
    assert re.findall(r"(?<!\\)[<\[\]()]", body) == []  # no unescaped tag, link or autolink opener
    assert "\\[x\\]\\(javascript\\:alert\\(1\\)\\)" in text and "\\<script\\>" in text
    assert "  > \\# Heading" in text and "\\#\\# not a heading" in text
    assert md_text("1. item\n* star\n> quote") == ["1\\. item", "\\* star", "\\> quote"]


def test_several_documents_in_markdown_and_pdf_refuses_them(store, reviewed, tmp_path):
    other = lines_pdf(tmp_path / "other.pdf", [["Other text."]])
    out = tmp_path / "both.md"
    with open_pdf(str(reviewed)) as first:
        items = items_for(store, reviewed, first)
        with open_pdf(str(other)) as second:
            items.append((second, []))
            result = export_review(items, "markdown", out)
            with pytest.raises(PdfDeskError) as refused:
                export_review(items, "pdf", tmp_path / "both.pdf")
    assert (result.documents, result.annotations) == (2, 5)
    text = out.read_text(encoding="utf-8")
    assert "## contract\\.pdf" in text and "## other\\.pdf" in text
    assert refused.value.code == VALIDATION_ERROR and not (tmp_path / "both.pdf").exists()


def test_the_original_is_never_the_output_and_bad_formats_are_refused(store, reviewed):
    before = digest(reviewed)
    with open_pdf(str(reviewed)) as opened:
        for fmt, output in (("pdf", reviewed), ("markdown", reviewed), ("docx", reviewed.with_suffix(".docx"))):
            with pytest.raises(PdfDeskError) as refused:
                export_review(items_for(store, reviewed, opened), fmt, output)
            assert refused.value.code == VALIDATION_ERROR
    assert digest(reviewed) == before


def test_a_read_only_output_folder_is_a_coded_error_and_leaves_no_partial_file(store, reviewed, tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "review.md").write_text("old review\n")
    with open_pdf(str(reviewed)) as opened, read_only(folder):
        for fmt in ("markdown", "pdf"):
            with pytest.raises(PdfDeskError) as refused:
                export_review(items_for(store, reviewed, opened), fmt, folder / "review.md")
            assert refused.value.code == PERMISSION_DENIED and str(folder) in refused.value.message
    assert [p.name for p in folder.iterdir()] == ["review.md"]
    assert (folder / "review.md").read_text() == "old review\n"


def test_a_failure_while_writing_leaves_the_old_file_and_no_temporary(store, reviewed, tmp_path, monkeypatch):
    from pdfdesk.review import export

    out = tmp_path / "review.html"
    out.write_text("old\n")

    def broken(text: str):
        def write(temp: Path) -> None:
            temp.write_text(text[:100])
            raise OSError(28, "No space left on device")
        return write

    monkeypatch.setattr(export, "_save_text", broken)
    with open_pdf(str(reviewed)) as opened, pytest.raises(PdfDeskError) as full:
        export_review(items_for(store, reviewed, opened), "html", out)
    assert full.value.code == PERMISSION_DENIED and "disk is full" in full.value.message
    assert out.read_text() == "old\n" and [p.name for p in tmp_path.iterdir() if p.name.startswith(".review")] == []


def test_highlights_land_on_the_quoted_words_of_a_rotated_page(store, tmp_path):
    path = tmp_path / "rotated.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "This rotated page holds the magic words here.", fontsize=11)
    page.set_rotation(90)
    doc.save(path)
    doc.close()
    out = tmp_path / "rotated-review.pdf"
    with open_pdf(str(path)) as opened:
        a = anchor_quote(opened.doc, 1, "magic words")
        store.add(NewAnnotation(opened.fingerprint, document_path(opened), 1, a.rects, a.quote, a.prefix, a.suffix,
                                a.start, note="shown sideways"))
        export_review(items_for(store, path, opened), "pdf", out)
    copy = pymupdf.open(out)
    try:
        page = copy[0]  # an annotation must not outlive its page object
        (annot,) = list(page.annots())
        assert "magic words" in page.get_textbox(annot.rect) and annot.info["content"] == "shown sideways"
    finally:
        copy.close()
