"""pdf_export_review: an annotated copy read back with PyMuPDF, the text formats, where the output
may go (never over a source, inside the roots, never over a file unasked), and every refusal."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.documents import close_all
from pdfdesk.tools import call_tool
from tests.machine_faults import read_only
from tests.tools.review_support import contract_pdf, digest, refusal, words_box
from tests.tools.test_details_schema import assert_declared


def export(**args) -> dict:
    return assert_declared("pdf_export_review", args)


def refused(code: str, **args) -> dict:
    return refusal("pdf_export_review", code, args)


def note(pdf: Path, page: int, **args) -> dict:
    result = call_tool("pdf_annotate", {"action": "add", "path": str(pdf), "page": page, **args})
    assert not result.is_error, result.text
    return result.details["annotation"]


@pytest.fixture
def reviewed(tmp_path: Path) -> Path:
    pdf = contract_pdf(tmp_path / "contract.pdf")
    note(pdf, 2, quote="Payment is due", note="Check with finance", color="green")
    note(pdf, 3, quote="arbitration in Geneva", note="Seat agreed?")
    note(pdf, 1, note="Cover note for the whole page")
    return pdf


def test_pdf_export_is_an_annotated_copy_and_the_original_is_untouched(reviewed, pdfdesk_home):
    before = digest(reviewed)
    details = export(path=str(reviewed), format="pdf")
    output = Path(details["output"])
    assert output == pdfdesk_home / "reviews" / "contract-review.pdf"
    assert details["annotations"] == 3 and details["documents"] == 1 and details["files"] == ["contract.pdf"]
    assert digest(reviewed) == before
    doc = pymupdf.open(output)
    found = {(number + 1, annot.type[1], annot.info["content"], annot.info["title"])
             for number, page in enumerate(doc) for annot in page.annots()}
    assert (2, "Highlight", "Check with finance", "pdfdesk") in found
    assert (3, "Highlight", "Seat agreed?", "pdfdesk") in found
    assert any(page == 1 and kind == "Text" and "Cover note" in text for page, kind, text, _ in found)
    page3 = doc[2]  # kept: an annotation must not outlive its page object
    highlight = next(a for a in page3.annots() if a.type[1] == "Highlight")
    assert highlight.rect.intersects(words_box(reviewed, 3, "arbitration in Geneva"))
    assert not highlight.rect.intersects(words_box(reviewed, 3, "Signatures follow"))
    assert doc[1].get_text().count("Payment is due") == 1  # the page itself is the original's
    doc.close()


@pytest.mark.parametrize(("fmt", "ext"), [("markdown", "md"), ("html", "html"), ("json", "json")])
def test_text_formats_land_in_the_reviews_folder_without_replacing_earlier_exports(reviewed, pdfdesk_home, fmt, ext):
    first = Path(export(path=str(reviewed), format=fmt)["output"])
    second = Path(export(path=str(reviewed), format=fmt)["output"])
    assert first == pdfdesk_home / "reviews" / f"contract-review.{ext}"
    assert second == pdfdesk_home / "reviews" / f"contract-review-2.{ext}"
    text = first.read_text(encoding="utf-8")
    assert "Check with finance" in text and "Seat agreed" in text and "contract.pdf" in text
    if fmt == "json":
        collection = json.loads(text)
        assert collection["type"] == "AnnotationCollection" and collection["total"] == 3
        assert len(collection["first"]["items"]) == 3


def test_several_documents_in_one_report(reviewed, tmp_path):
    other = contract_pdf(tmp_path / "other.pdf")
    note(other, 1, quote="Recitals", note="Other file's note")
    details = export(paths=[str(reviewed), str(other)], format="markdown", output=str(tmp_path / "both.md"))
    assert details["documents"] == 2 and details["annotations"] == 4
    assert details["files"] == ["contract.pdf", "other.pdf"]
    text = (tmp_path / "both.md").read_text(encoding="utf-8")
    assert "Other file" in text and "Seat agreed" in text


def test_an_existing_output_is_replaced_only_when_asked(reviewed, tmp_path):
    target = tmp_path / "review.md"
    target.write_text("old", encoding="utf-8")
    refusal = refused("validation_error", path=str(reviewed), format="markdown", output=str(target))
    assert "already exists" in refusal["message"]
    assert target.read_text(encoding="utf-8") == "old"
    details = export(path=str(reviewed), format="markdown", output=str(target), overwrite=True)
    assert details["overwritten"] is True and "Seat agreed" in target.read_text(encoding="utf-8")


def test_the_output_is_never_a_source(reviewed, tmp_path):
    before = digest(reviewed)
    for fmt in ("pdf", "markdown"):
        refused("validation_error", path=str(reviewed), format=fmt, output=str(reviewed), overwrite=True)
    link = tmp_path / "link.pdf"
    os.symlink(reviewed, link)
    refused("validation_error", path=str(reviewed), format="pdf", output=str(link), overwrite=True)
    hard = tmp_path / "hard.pdf"
    os.link(reviewed, hard)
    refused("validation_error", path=str(reviewed), format="pdf", output=str(hard), overwrite=True)
    assert digest(reviewed) == before


def test_where_the_output_cannot_go(reviewed, tmp_path):
    refused("validation_error", path=str(reviewed), format="markdown", output=str(tmp_path / "no" / "r.md"))
    refused("validation_error", path=str(reviewed), format="markdown", output=str(tmp_path))
    locked = tmp_path / "locked"
    with read_only(locked):
        details = refused("permission_denied", path=str(reviewed), format="markdown", output=str(locked / "r.md"))
        assert str(locked) in details["message"]
    assert not (locked / "r.md").exists()
    set_config(Config(semantic=False, workspace_only=True, roots=(str(tmp_path),)))
    outside = tmp_path.parent / f"{tmp_path.name}-outside.md"
    refused("outside_workspace", path=str(reviewed), format="markdown", output=str(outside))
    assert not outside.exists()
    export(path=str(reviewed), format="markdown")  # the data folder's own reviews/ is always allowed


@pytest.mark.parametrize(("args", "needle"), [
    ({"format": "markdown"}, "'path'"),
    ({"path": "PDF", "paths": ["PDF"], "format": "markdown"}, "not both"),
    ({"paths": ["PDF", "OTHER"], "format": "pdf"}, "one document"),
    ({"paths": [f"/tmp/x{i}.pdf" for i in range(51)], "format": "json"}, "at most 50"),
    ({"path": "PDF", "format": "docx"}, "Parameter format"),
    ({"path": "PDF"}, "'format'"),
])
def test_bad_parameters(reviewed, tmp_path, args, needle):
    other = str(contract_pdf(tmp_path / "other.pdf"))
    swap = {"PDF": str(reviewed), "OTHER": other}
    args = {k: ([swap.get(p, p) for p in v] if isinstance(v, list) else swap.get(v, v)) for k, v in args.items()}
    assert needle in refused("validation_error", **args)["message"]


def test_exports_need_permission_and_the_password(reviewed, aes_pdf):
    refused("password_required", path=str(aes_pdf), format="markdown")
    set_config(Config(semantic=False, annotate_writes=False))
    assert "--allow-annotate" in refused("permission_denied", path=str(reviewed), format="markdown")["hint"]


def test_a_revision_is_exported_where_the_text_now_is(tmp_path):
    pdf = contract_pdf(tmp_path / "contract.pdf")
    note(pdf, 3, quote="arbitration in Geneva", note="Seat agreed?")
    close_all()
    contract_pdf(pdf, insert_first="A cover page added in version two.")
    output = Path(export(path=str(pdf), format="pdf")["output"])
    doc = pymupdf.open(output)
    pages = [number + 1 for number, page in enumerate(doc) for annot in page.annots() if annot.type[1] == "Highlight"]
    assert pages == [4]
    page4 = doc[3]
    highlight = next(iter(page4.annots()))
    assert highlight.rect.intersects(words_box(pdf, 4, "arbitration in Geneva"))
    doc.close()
    listed = call_tool("pdf_annotate", {"action": "list", "path": str(pdf)}).details["annotations"]
    assert [(item["page"], item["status"]) for item in listed] == [(4, "moved")]
